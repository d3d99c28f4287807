// Where things live for the real-VS Code tests. The compiled harness runs from out/test/e2e/…,
// the sources from test/e2e/…; both find the repository by walking up to our package.json.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'reasonix-vscode-host')
      return dir;
    if (dirname(dir) === dir) throw new Error(`cannot find the reasonix-vscode-host repository above ${from}`);
  }
}

export const repoRoot = findRepoRoot(__dirname);
export const cacheDir = join(repoRoot, '.vscode-test');
/** Screenshots and logs of every run; git-ignored. */
export const resultsDir = process.env.REASONIX_TEST_RESULTS ?? join(repoRoot, 'test-results');

/** One code-server scripts/vscode/provision.mjs installed, with the Node it runs on. */
export interface ProvisionedCodeServer {
  node: string;
  nodeVersion: string;
  codeServerEntry: string;
  vscodeVersion: string;
}

/** What scripts/vscode/provision.mjs installed (its manifest); the top level is the newest VS Code. */
export interface Provisioned {
  node: string;
  nodeVersion: string;
  codeServerEntry: string;
  codeServerVersion: string;
  chromium: string;
  codeServers?: Record<string, ProvisionedCodeServer>;
}

/**
 * The manifest, for the newest code-server or, with `codeServerVersion`, for that one (its node,
 * entry and version in the same fields, so the harness runs either alike).
 */
export function readProvisioned(codeServerVersion?: string): Provisioned {
  const file = join(cacheDir, 'provisioned.json');
  if (!existsSync(file)) {
    throw new Error(`code-server is not provisioned (${file} missing): run \`node scripts/vscode/provision.mjs\``);
  }
  let m = JSON.parse(readFileSync(file, 'utf8')) as Provisioned;
  if (codeServerVersion && codeServerVersion !== m.codeServerVersion) {
    const other = m.codeServers?.[codeServerVersion];
    if (!other)
      throw new Error(
        `code-server ${codeServerVersion} is not provisioned (${file} lists ${Object.keys(m.codeServers ?? {}).join(', ') || m.codeServerVersion}): run \`node scripts/vscode/provision.mjs --oldest\``,
      );
    m = { ...m, node: other.node, nodeVersion: other.nodeVersion, codeServerEntry: other.codeServerEntry };
    m.codeServerVersion = codeServerVersion;
  }
  for (const p of [m.node, m.codeServerEntry, m.chromium]) {
    if (!existsSync(p)) throw new Error(`provisioned file ${p} is gone: run \`node scripts/vscode/provision.mjs\``);
  }
  return m;
}

/** File-name-safe form of a test title. */
export function slug(text: string): string {
  return (
    text
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 100) || 'run'
  );
}
