// Session options for UI tests of the real extension: the .vsix that scripts/run-ui-tests.mjs
// packaged (REASONIX_E2E_VSIX), and a fresh REASONIX_HOME + workspace per test written by
// scripts/prepare-home.mjs (the sample extensions showcase and hello).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths';
import type { UiSessionOptions } from './session';

export function reasonixVsix(): string {
  const vsix = process.env.REASONIX_E2E_VSIX;
  if (!vsix || !existsSync(vsix)) {
    throw new Error(
      `REASONIX_E2E_VSIX (${vsix ?? 'unset'}) names no packaged extension: run the UI tests through \`node scripts/run-ui-tests.mjs\``,
    );
  }
  return vsix;
}

/** The samples every Reasonix UI test installs. */
export const SAMPLE_PLUGINS = ['showcase', 'hello'];

/**
 * Writes <sandbox>/reasonix-home and <sandbox>/workspace; returns both paths. `plugins` are
 * example names or package folders (default: the samples).
 */
export function prepareReasonixHome(
  sandbox: string,
  plugins: string[] = SAMPLE_PLUGINS,
): { home: string; workspace: string } {
  const home = join(sandbox, 'reasonix-home');
  const workspace = join(sandbox, 'workspace');
  const args = [
    join(repoRoot, 'scripts', 'prepare-home.mjs'),
    home,
    '--workspace',
    workspace,
    ...plugins.flatMap((p) => ['--plugin', p]),
  ];
  const r = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8' });
  if (r.status !== 0)
    throw new Error(`scripts/prepare-home.mjs failed (exit ${r.status ?? r.signal}): ${r.stderr || r.stdout}`);
  return { home, workspace };
}

/** The real extension installed from its .vsix, on the sample workspace, with REASONIX_HOME set. */
export function reasonixSessionOptions(
  opts: { plugins?: string[]; env?: Record<string, string> } = {},
): UiSessionOptions {
  let prepared: { home: string; workspace: string } | undefined;
  const prepare = (sandbox: string) => (prepared ??= prepareReasonixHome(sandbox, opts.plugins));
  return {
    vsix: [reasonixVsix()],
    env: (sandbox) => ({ ...opts.env, REASONIX_HOME: prepare(sandbox).home }),
    workspace: (sandbox) => prepare(sandbox).workspace,
  };
}
