#!/usr/bin/env node
// Provisions what the in-host and UI tests need to run inside a real VS Code workbench on a
// machine that only reaches the npm registry and Debian's archive: Node 24 and code-server
// (both from npm, cached under the git-ignored .vscode-test/), plus the Debian packages that
// code-server's native modules and the browser need. Reuses the cache when it is complete.
// With --oldest it also provisions the oldest VS Code we support (engines.vscode): code-server
// 4.96.4 (VS Code 1.96.4) on Node 20, which does not install offline as published (see
// ensureOldestCodeServer).
//
//   node scripts/vscode/provision.mjs            provision, then print the manifest as JSON
//   node scripts/vscode/provision.mjs --oldest   the same plus code-server 4.96.4 and Node 20
//
// Any failure ends with ONE line starting "provision failed:" that names what is missing.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The newest VS Code we test on (code-server 4.139.1 = VS Code 1.139.1) and the Node it runs on. */
export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_MAJOR = '24';
/**
 * The oldest VS Code we support and test on: engines.vscode ^1.96.0 is VS Code 1.96.4 as
 * code-server 4.96.4, the oldest code-server in the npm registry at or above that minimum
 * (4.93.1 is VS Code 1.93). Its package.json engines say Node 20.
 */
export const OLDEST = { codeServer: '4.96.4', vscode: '1.96.4', nodeMajor: '20' };
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

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/**
 * Fills cacheDir/<name> with `fill(tmp)` unless a completed one (its `.complete` marker) is
 * already there. Fills a sibling temp folder and renames it into place, so an interrupted run never
 * leaves a half-done folder that a later run would trust: a folder without the marker is redone,
 * and temp folders of runs that died are removed.
 */
function ensureCached(name, what, fill) {
  const dir = join(cacheDir, name);
  const marker = join(dir, '.complete');
  if (existsSync(marker)) return dir;
  for (const f of readdirSync(cacheDir)) {
    const m = /^(.*)\.partial-(\d+)$/.exec(f);
    if (m && m[1] === name && !pidAlive(Number(m[2]))) rmSync(join(cacheDir, f), { recursive: true, force: true });
  }
  const tmp = `${dir}.partial-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  log(`installing ${what} into ${dir} (first run only)`);
  const started = Date.now();
  try {
    fill(tmp);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  writeFileSync(join(tmp, '.complete'), `${what}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  log(`installed ${what} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return dir;
}

/** `npm install` in `dir` with a clean output (no audit, no funding, no lock file written). */
function npmInstall(what, dir, args, env) {
  run(what, 'npm', ['install', '--no-audit', '--no-fund', ...args], { cwd: dir, env });
}

/** npm-installs `spec` into cacheDir/<name> unless a completed install is already there. */
function ensureNpmInstall(name, spec, env) {
  return ensureCached(name, spec, (tmp) => {
    writeFileSync(join(tmp, 'package.json'), JSON.stringify({ name: `cache-${name}`, private: true }));
    npmInstall(`npm install ${spec}`, tmp, ['--no-package-lock', '--foreground-scripts', spec], env);
  });
}

function nodePackageName(major) {
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) {
    throw new ProvisionError(
      `Node ${major} for code-server: unsupported platform ${process.platform}-${process.arch} (need linux-x64 or linux-arm64)`,
    );
  }
  return `node-linux-${process.arch}`;
}

/** Node `major` from the registry's node-linux-<arch> package: binary and headers (include/node). */
export function ensureNode(major) {
  const pkg = nodePackageName(major);
  const dir = ensureNpmInstall(`node${major}`, `${pkg}@${major}`, process.env);
  const home = join(dir, 'node_modules', pkg);
  const bin = join(home, 'bin', 'node');
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  if (r.status !== 0 || !r.stdout.startsWith(`v${major}.`)) {
    throw new ProvisionError(
      `Node ${major} at ${bin} does not run (${r.error?.message ?? r.stderr.trim() ?? r.stdout.trim()}); delete ${dir} and retry`,
    );
  }
  return { bin, home, version: r.stdout.trim() };
}

export const ensureNode24 = () => ensureNode(NODE_MAJOR);

/**
 * The environment npm installs and builds run in: `node` first on PATH so install scripts and
 * node-gyp build against it, and its headers as nodedir so node-gyp does not try to download them
 * (no internet here). Under `npm test` the outer npm exports its config as npm_config_* variables,
 * which the inner npm would read as its own (code-server's postinstall then sees the outer user
 * agent, "node/v20", and refuses): those are dropped.
 */
function buildEnv(node, extra = {}) {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return {
    ...inherited,
    PATH: `${dirname(node.bin)}:${process.env.PATH ?? ''}`,
    npm_config_nodedir: node.home,
    ...extra,
  };
}

export function ensureCodeServer(node) {
  const env = buildEnv(node);
  const dir = ensureNpmInstall(`code-server-${CODE_SERVER_VERSION}`, `code-server@${CODE_SERVER_VERSION}`, env);
  const entry = join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  if (!existsSync(entry))
    throw new ProvisionError(`code-server entry point missing at ${entry}; delete ${dir} and retry`);
  return { entry, dir, version: CODE_SERVER_VERSION };
}

/** The ripgrep binary of the newest code-server's install (4.139.1 ships every platform's rg in npm). */
function ripgrepOf(newest) {
  const rg = join(
    newest.dir,
    'node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep-universal/bin',
    `linux-${process.arch}`,
    'rg',
  );
  if (!existsSync(rg))
    throw new ProvisionError(
      `no ripgrep binary at ${rg} (code-server ${newest.version}'s install); delete ${newest.dir} and retry`,
    );
  return rg;
}

/**
 * The native modules VS Code 1.96's server, extension host and pty host load on Linux, built
 * against Node 20 (their prebuilt binaries live on GitHub, which is unreachable). Left out, as
 * never loaded here: the win32-only ones. @parcel/watcher uses the linux-x64 binary its package
 * ships (N-API) and compiles only on other architectures.
 */
const OLDEST_NATIVE_MODULES = ['@parcel/watcher', '@vscode/deviceid', 'native-watchdog', 'node-pty'];

/**
 * Native modules taken from the newest install instead of compiled, when it has the same
 * major.minor as 4.96.4's shrinkwrap (so within VS Code 1.96's own ranges: @vscode/spdlog ^0.15.0
 * gets 0.15.8 for 0.15.1, whose JavaScript is identical; kerberos 2.1.1 is the same version).
 * They are N-API modules, so a binary built for Node 24 loads under Node 20; each is loaded under
 * Node 20 before it is kept. Otherwise spdlog is compiled (50 to 120 s here, most of the install)
 * and kerberos is left out (it is loaded only when a proxy asks for Negotiate authentication;
 * compiling it took 38 s).
 */
const OLDEST_BORROWED = { '@vscode/spdlog': 'build', kerberos: 'leave out' };

/** Replaces `vs`'s copy of `name` with the newest install's when the major.minor match and it loads under `node`. */
function borrowNativeModule(name, vs, newest, node) {
  const from = join(newest.dir, 'node_modules/code-server/lib/vscode/node_modules', name);
  const to = join(vs, 'node_modules', name);
  const version = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  const majorMinor = (v) => v.split('.').slice(0, 2).join('.');
  if (!existsSync(join(from, 'package.json')) || !existsSync(join(to, 'package.json'))) return false;
  const [mine, theirs] = [version(to), version(from)];
  if (majorMinor(mine) !== majorMinor(theirs)) return false;
  const shipped = `${to}.shipped`;
  renameSync(to, shipped);
  cpSync(from, to, { recursive: true, verbatimSymlinks: true });
  if (spawnSync(node.bin, ['-e', `require(${JSON.stringify(to)})`], { stdio: 'ignore' }).status === 0) {
    rmSync(shipped, { recursive: true, force: true });
    log(`  ${name} ${theirs} from code-server ${newest.version} (for ${mine})`);
    return true;
  }
  rmSync(to, { recursive: true, force: true });
  renameSync(shipped, to);
  return false;
}

/**
 * code-server 4.96.4 (VS Code 1.96.4) on Node 20, installed offline. As published it cannot be:
 * its postinstall runs `npm install` in lib/vscode, whose npm-shrinkwrap.json takes
 * `@vscode/proxy-agent` from GitHub over git+ssh, and `@vscode/ripgrep`'s postinstall downloads
 * `rg` from GitHub. So everything is installed with scripts off and the postinstall's work is
 * done here, step by step:
 *  1. `npm install --ignore-scripts code-server@4.96.4`, then build its one native module
 *     (argon2, loaded at start-up) from source against Node 20's headers;
 *  2. point the shrinkwrap's `@vscode/proxy-agent` at the registry tarball of the same version
 *     (its integrity is the same, so npm verifies it is the very package), then install
 *     lib/vscode's dependencies with `--omit=dev --ignore-scripts`;
 *  3. put the newest install's `rg` where `@vscode/ripgrep` expects it (a newer ripgrep; VS Code
 *     only runs it), and take the native modules it can lend (OLDEST_BORROWED);
 *  4. build the other native modules (OLDEST_NATIVE_MODULES), `make` on every core;
 *  5. the postinstall's links (node_modules.asar, the remote CLI and browser helper scripts) and
 *     the built-in extensions' shared dependency (TypeScript, trimmed by their own postinstall.mjs);
 *  6. check it: every native module loads under Node 20, and `code-server --version` runs.
 * No step runs code-server's own postinstall, so `npm_config_unsafe_perm` (which it demands of
 * root) is not needed.
 */
export function ensureOldestCodeServer(node, newest) {
  const rg = ripgrepOf(newest);
  const v = OLDEST.codeServer;
  // node-gyp runs make with a job per core.
  const env = buildEnv(node, { JOBS: 'max' });
  // argon2's node-pre-gyp would first try to download a binary from GitHub. (npm itself warns
  // that it does not know this setting; node-pre-gyp reads it.)
  const fromSource = { ...env, npm_config_build_from_source: 'true' };
  const dir = ensureCached(`code-server-${v}`, `code-server@${v}`, (tmp) => {
    let stepStarted = Date.now();
    const step = (n, what) => {
      const secs = ((Date.now() - stepStarted) / 1000).toFixed(0);
      if (n > 1) log(`code-server ${v} [${n - 1}/6] done in ${secs} s`);
      stepStarted = Date.now();
      if (what) log(`code-server ${v} [${n}/6] ${what}`);
    };
    step(1, 'code-server without install scripts; argon2 built from source');
    writeFileSync(join(tmp, 'package.json'), JSON.stringify({ name: `cache-code-server-${v}`, private: true }));
    npmInstall(`npm install code-server@${v}`, tmp, ['--no-package-lock', '--ignore-scripts', `code-server@${v}`], env);
    run('building argon2', 'npm', ['rebuild', 'argon2'], { cwd: tmp, env: fromSource });

    step(2, "lib/vscode's dependencies (@vscode/proxy-agent from the registry, not GitHub)");
    const vs = join(tmp, 'node_modules', 'code-server', 'lib', 'vscode');
    const shrinkwrapFile = join(vs, 'npm-shrinkwrap.json');
    const shrinkwrap = JSON.parse(readFileSync(shrinkwrapFile, 'utf8'));
    const proxyAgent = shrinkwrap.packages?.['node_modules/@vscode/proxy-agent'];
    if (!proxyAgent?.version)
      throw new ProvisionError(`${shrinkwrapFile} has no @vscode/proxy-agent entry to point at the registry`);
    const tarball = `https://registry.npmjs.org/@vscode/proxy-agent/-/proxy-agent-${proxyAgent.version}.tgz`;
    if (!proxyAgent.resolved.startsWith('https://registry.npmjs.org/')) {
      log(`  @vscode/proxy-agent ${proxyAgent.resolved} -> ${tarball}`);
      proxyAgent.resolved = tarball;
      writeFileSync(shrinkwrapFile, `${JSON.stringify(shrinkwrap, null, 2)}\n`);
    }
    npmInstall(`npm install (code-server ${v} lib/vscode)`, vs, ['--omit=dev', '--ignore-scripts'], env);

    step(3, `ripgrep and the native modules it can lend from code-server ${newest.version}`);
    const rgBin = join(vs, 'node_modules', '@vscode', 'ripgrep', 'bin');
    mkdirSync(rgBin, { recursive: true });
    copyFileSync(rg, join(rgBin, 'rg'));
    chmodSync(join(rgBin, 'rg'), 0o755);
    const native = [...OLDEST_NATIVE_MODULES];
    const loaded = [...OLDEST_NATIVE_MODULES];
    for (const [name, otherwise] of Object.entries(OLDEST_BORROWED)) {
      if (borrowNativeModule(name, vs, newest, node)) loaded.push(name);
      else if (otherwise === 'build') native.push(name);
      else log(`  ${name}: left out (code-server ${newest.version} has no copy of the same major.minor)`);
    }
    loaded.push(...native.filter((m) => !loaded.includes(m)));

    step(4, `native modules built for Node ${node.version}: ${native.join(', ')}`);
    run('building the native modules', 'npm', ['rebuild', ...native], { cwd: vs, env });

    step(5, "the postinstall's links and the built-in extensions' TypeScript");
    const link = (target, path) => {
      rmSync(path, { recursive: true, force: true });
      symlinkSync(target, path);
    };
    link('node_modules', join(vs, 'node_modules.asar'));
    link('code-linux.sh', join(vs, 'bin', 'remote-cli', 'code-server'));
    link('browser-linux.sh', join(vs, 'bin', 'helpers', 'browser.sh'));
    const builtIns = join(vs, 'extensions');
    npmInstall(`npm install (code-server ${v} built-in extensions)`, builtIns, ['--omit=dev', '--ignore-scripts'], env);
    run('trimming TypeScript (extensions/postinstall.mjs)', node.bin, ['postinstall.mjs'], {
      cwd: builtIns,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });

    step(6, 'checking that it loads');
    const load = loaded.map((m) => `require(${JSON.stringify(join(vs, 'node_modules', m))});`).join('');
    run('loading the native modules under Node 20', node.bin, ['-e', load], { env });
    const entry = join(tmp, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
    // Its own config and XDG folders, or code-server writes a default config into the user's home.
    const scratch = join(tmp, '.check');
    mkdirSync(scratch);
    const config = join(scratch, 'config.yaml');
    writeFileSync(config, 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n');
    const r = spawnSync(node.bin, [entry, '--config', config, '--version'], {
      encoding: 'utf8',
      env: { ...env, HOME: scratch, XDG_CONFIG_HOME: scratch, XDG_DATA_HOME: scratch, XDG_CACHE_HOME: scratch },
    });
    rmSync(scratch, { recursive: true, force: true });
    if (
      r.status !== 0 ||
      !new RegExp(`^${v.replaceAll('.', '\\.')} .* with Code ${OLDEST.vscode}$`, 'm').test(r.stdout)
    )
      throw new ProvisionError(
        `code-server ${v} does not start: ${(r.stderr || r.stdout || r.error?.message || '').trim()}`,
      );
    step(7);
  });
  return { entry: join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'), dir, version: v };
}

export function findChromium() {
  const found = CHROMIUM_CANDIDATES.find((p) => existsSync(p));
  if (!found)
    throw new ProvisionError(`Chromium not found at ${CHROMIUM_CANDIDATES.join(' or ')} (Debian package "chromium")`);
  return found;
}

/**
 * Provisions everything and writes the manifest the test harness reads:
 * { node, nodeVersion, codeServerEntry, codeServerVersion, chromium } for the newest VS Code, and
 * `codeServers`: { <code-server version>: { node, nodeVersion, codeServerEntry, vscodeVersion } }
 * for every one provisioned. `oldest` installs the oldest supported one too; without it, an
 * install already complete is still listed.
 */
export function provision({ oldest = false } = {}) {
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
    codeServers: {
      [codeServer.version]: {
        node: node.bin,
        nodeVersion: node.version,
        codeServerEntry: codeServer.entry,
        vscodeVersion: vscodeVersionOf(codeServer.dir),
      },
    },
  };
  if (oldest || existsSync(join(cacheDir, `code-server-${OLDEST.codeServer}`, '.complete'))) {
    const node20 = ensureNode(OLDEST.nodeMajor);
    const old = ensureOldestCodeServer(node20, codeServer);
    manifest.codeServers[old.version] = {
      node: node20.bin,
      nodeVersion: node20.version,
      codeServerEntry: old.entry,
      vscodeVersion: vscodeVersionOf(old.dir),
    };
  }
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** The VS Code version a code-server install carries (lib/vscode/package.json). */
function vscodeVersionOf(dir) {
  return JSON.parse(readFileSync(join(dir, 'node_modules/code-server/lib/vscode/package.json'), 'utf8')).version;
}

export function readManifest() {
  if (!existsSync(manifestPath)) return undefined;
  return JSON.parse(readFileSync(manifestPath, 'utf8'));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== '--oldest');
  if (unknown.length) {
    process.stderr.write(
      `provision failed: unknown arguments ${unknown.join(' ')} (usage: provision.mjs [--oldest])\n`,
    );
    process.exit(2);
  }
  try {
    process.stdout.write(`${JSON.stringify(provision({ oldest: args.includes('--oldest') }), null, 2)}\n`);
  } catch (e) {
    if (!(e instanceof ProvisionError)) throw e;
    process.stderr.write(`provision failed: ${e.message}\n`);
    process.exit(1);
  }
}
