#!/usr/bin/env node
// Provisions what the in-host and UI tests need to run inside a real VS Code workbench on a
// machine that only reaches the npm registry and Debian's archive: Node 24 and code-server
// (both from npm, cached under the git-ignored .vscode-test/), plus the Debian packages that
// code-server's native modules and the browser need. Reuses the cache when it is complete.
//
//   node scripts/vscode/provision.mjs          provision, then print the manifest as JSON
//
// Any failure ends with ONE line starting "provision failed:" that names what is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_MAJOR = '24';
export const DEBIAN_PACKAGES = [
  'libkrb5-dev',
  'pkg-config',
  'libx11-dev',
  'libxkbfile-dev',
  'libsecret-1-dev',
  'chromium',
  // CJK glyphs for Chromium, so the zh-cn UI test's screenshot shows Chinese, not empty boxes.
  'fonts-wqy-zenhei',
];
const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cacheDir = join(repoRoot, '.vscode-test');
export const manifestPath = join(cacheDir, 'provisioned.json');

export class ProvisionError extends Error {}

function log(msg) {
  process.stderr.write(`[provision] ${msg}\n`);
}

/** Runs a command with inherited output; throws a ProvisionError naming `what` on failure. */
function run(what, cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
  if (r.error) throw new ProvisionError(`${what}: ${r.error.message}`);
  if (r.status !== 0)
    throw new ProvisionError(`${what}: \`${[cmd, ...args].join(' ')}\` exited ${r.status ?? r.signal}`);
}

function missingDebianPackages() {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Package} ${db:Status-Status}\n', ...DEBIAN_PACKAGES], {
    encoding: 'utf8',
  });
  if (r.error)
    throw new ProvisionError(
      `cannot query Debian packages (dpkg-query: ${r.error.message}); this provisioning needs a Debian-like system`,
    );
  const installed = new Set(
    r.stdout
      .split('\n')
      .filter((l) => l.endsWith(' installed'))
      .map((l) => l.split(' ')[0]),
  );
  return DEBIAN_PACKAGES.filter((p) => !installed.has(p));
}

/** Installs the Debian packages as root, or tells a non-root user the exact command. */
export function ensureDebianPackages() {
  const missing = missingDebianPackages();
  if (missing.length === 0) return;
  const command = `apt-get update && apt-get install -y ${missing.join(' ')}`;
  if (process.getuid?.() !== 0) {
    throw new ProvisionError(`missing Debian packages ${missing.join(', ')}; run as root: sudo sh -c '${command}'`);
  }
  log(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get update', 'apt-get', ['update'], { env });
  run(`apt-get install ${missing.join(' ')}`, 'apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
    env,
  });
  const still = missingDebianPackages();
  if (still.length) throw new ProvisionError(`Debian packages still missing after apt-get: ${still.join(', ')}`);
}

/**
 * npm-installs `spec` into cacheDir/<name> unless a completed install is already there. Installs
 * into a sibling temp folder and renames it into place, so an interrupted run never leaves a
 * half-installed folder that a later run would trust.
 */
function ensureNpmInstall(name, spec, env) {
  const dir = join(cacheDir, name);
  const marker = join(dir, '.complete');
  if (existsSync(marker)) return dir;
  const tmp = `${dir}.partial-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  writeFileSync(join(tmp, 'package.json'), JSON.stringify({ name: `cache-${name}`, private: true }));
  log(`installing ${spec} into ${dir} (first run only)`);
  const started = Date.now();
  try {
    run(
      `npm install ${spec}`,
      'npm',
      ['install', '--no-audit', '--no-fund', '--no-package-lock', '--foreground-scripts', spec],
      {
        cwd: tmp,
        env,
      },
    );
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  writeFileSync(join(tmp, '.complete'), `${spec}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  log(`installed ${spec} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return dir;
}

function nodePackageName() {
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) {
    throw new ProvisionError(
      `Node ${NODE_MAJOR} for code-server: unsupported platform ${process.platform}-${process.arch} (need linux-x64 or linux-arm64)`,
    );
  }
  return `node-linux-${process.arch}`;
}

export function ensureNode24() {
  const pkg = nodePackageName();
  const dir = ensureNpmInstall(`node${NODE_MAJOR}`, `${pkg}@${NODE_MAJOR}`, process.env);
  const home = join(dir, 'node_modules', pkg);
  const bin = join(home, 'bin', 'node');
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  if (r.status !== 0 || !r.stdout.startsWith(`v${NODE_MAJOR}.`)) {
    throw new ProvisionError(
      `Node ${NODE_MAJOR} at ${bin} does not run (${r.error?.message ?? r.stderr.trim() ?? r.stdout.trim()}); delete ${dir} and retry`,
    );
  }
  return { bin, home, version: r.stdout.trim() };
}

export function ensureCodeServer(node) {
  // Under `npm test` the outer npm exports its config as npm_config_* variables, which the inner
  // npm would read as its own: code-server's postinstall then sees the outer user agent
  // ("node/v20") and refuses. The install gets a clean npm environment.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  const env = {
    ...inherited,
    // Node 24 first on PATH so install scripts and node-gyp build against it, and its headers
    // as nodedir so node-gyp does not try to download them (no internet here).
    PATH: `${dirname(node.bin)}:${process.env.PATH ?? ''}`,
    npm_config_nodedir: node.home,
  };
  const dir = ensureNpmInstall(`code-server-${CODE_SERVER_VERSION}`, `code-server@${CODE_SERVER_VERSION}`, env);
  const entry = join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  if (!existsSync(entry))
    throw new ProvisionError(`code-server entry point missing at ${entry}; delete ${dir} and retry`);
  return { entry, dir, version: CODE_SERVER_VERSION };
}

export function findChromium() {
  const found = CHROMIUM_CANDIDATES.find((p) => existsSync(p));
  if (!found)
    throw new ProvisionError(`Chromium not found at ${CHROMIUM_CANDIDATES.join(' or ')} (Debian package "chromium")`);
  return found;
}

/**
 * Provisions everything and writes the manifest the test harness reads:
 * { node, nodeVersion, codeServerEntry, codeServerVersion, chromium }.
 */
export function provision() {
  mkdirSync(cacheDir, { recursive: true });
  ensureDebianPackages();
  const node = ensureNode24();
  const codeServer = ensureCodeServer(node);
  const manifest = {
    node: node.bin,
    nodeVersion: node.version,
    codeServerEntry: codeServer.entry,
    codeServerVersion: codeServer.version,
    chromium: findChromium(),
  };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

export function readManifest() {
  if (!existsSync(manifestPath)) return undefined;
  return JSON.parse(readFileSync(manifestPath, 'utf8'));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.stdout.write(`${JSON.stringify(provision(), null, 2)}\n`);
  } catch (e) {
    if (!(e instanceof ProvisionError)) throw e;
    process.stderr.write(`provision failed: ${e.message}\n`);
    process.exit(1);
  }
}
