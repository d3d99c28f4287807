// The real Reasonix (npm `reasonix`, pinned in devDependencies) for the tests that drive it, always
// with HOME and REASONIX_HOME in a scratch folder (never the user's), and the small v2 extension it
// installs (test/fixtures/reasonix/greeter: no runtime.tools, which 1.38.x refuses).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runReasonix } from '../../src/host/reasonix';

/** Absolute path of the pinned Reasonix binary for this platform (as the `reasonix` package's bin finds it). */
export function realReasonixBinary(): string {
  const exe = `reasonix${process.platform === 'win32' ? '.exe' : ''}`;
  return require.resolve(`@reasonix/cli-${process.platform}-${process.arch}/bin/${exe}`);
}

export const FIXTURES = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'reasonix');

export interface ScratchReasonix {
  /** The scratch folder holding everything below. */
  dir: string;
  /** HOME for Reasonix. */
  home: string;
  /** REASONIX_HOME: plugin-packages.json is written here. */
  reasonixHome: string;
  /** A workspace folder (the cwd for sources inside it). */
  workspace: string;
  /** process.env with HOME and REASONIX_HOME pointing into the scratch folder. */
  env: NodeJS.ProcessEnv;
  /** Copies a fixture extension folder (default the greeter) into the workspace; returns its path. */
  extension(name?: string, as?: string): string;
  remove(): void;
}

export function scratchReasonix(): ScratchReasonix {
  const dir = mkdtempSync(path.join(tmpdir(), 'rx-real-'));
  const home = path.join(dir, 'home');
  const reasonixHome = path.join(dir, 'reasonix-home');
  const workspace = path.join(dir, 'workspace');
  for (const d of [home, reasonixHome, workspace]) mkdirSync(d, { recursive: true });
  return {
    dir,
    home,
    reasonixHome,
    workspace,
    env: { ...process.env, HOME: home, USERPROFILE: home, REASONIX_HOME: reasonixHome },
    extension(name = 'greeter', as = name) {
      const to = path.join(workspace, as);
      cpSync(path.join(FIXTURES, name), to, { recursive: true });
      return to;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export const EXAMPLES = path.resolve(__dirname, '..', '..', '..', 'examples');

/**
 * The showcase as Reasonix 1.38.x runs it: a copy in the workspace without `runtime.tools` (which
 * 1.38.x refuses) and without the `tools` capability; everything else, its echo model included,
 * is the same. Returns the copy's folder (install it with `plugin install <dir> --link --yes`).
 */
export function showcaseForReasonix(s: ScratchReasonix, as = 'showcase'): string {
  const to = path.join(s.workspace, as);
  cpSync(path.join(EXAMPLES, 'showcase'), to, { recursive: true });
  const file = path.join(to, 'reasonix-plugin.json');
  const m = JSON.parse(readFileSync(file, 'utf8')) as { runtime: { tools?: unknown; capabilities: string[] } };
  delete m.runtime.tools;
  m.runtime.capabilities = m.runtime.capabilities.filter((c) => c !== 'tools');
  writeFileSync(file, `${JSON.stringify(m, null, 2)}\n`);
  return to;
}

/** Installs the showcase as Reasonix 1.38.x runs it into the scratch home (`plugin install --link`). */
export async function installShowcaseForReasonix(s: ScratchReasonix): Promise<void> {
  const dir = showcaseForReasonix(s);
  const r = await runReasonix(realReasonixBinary(), ['plugin', 'install', dir, '--link', '--yes'], 'install', {
    cwd: s.workspace,
    env: s.env,
  });
  if (r.code !== 0) throw new Error(`reasonix plugin install of the showcase failed (exit ${r.code}): ${r.stderr}`);
}

/** The showcase's echo model as Reasonix names it (no network needed). */
export const SHOWCASE_MODEL = 'plugin/showcase/echo/echo-1';
