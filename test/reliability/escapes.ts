// The fourth part of `npm run fuzz` (issue 25): sidecars that try to outlive or stall the host,
// through the `reasonix-host` CLI as a user runs it. Process escapes (a setsid child, a
// double-forked daemon, a detached child holding stdout/stderr) must all be gone after `check`;
// a pipe holder that cleared its environment (so nothing can recognise it) must not make `check`
// hang; a manifest that is /dev/zero, /dev/urandom or a FIFO must be refused at once.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pluginFolder } from '../support/plugins';
import { alive } from '../support/processes';
import { waitFor } from '../support/wait';

const CLI = path.resolve(__dirname, '../../src/cli.js');
const HANG_MS = 15_000;

export interface EscapeFigures {
  escapeRuns: number;
  escapersStarted: number;
  processesLeft: number;
  heldPipeRuns: number;
  specialFiles: number;
  hangs: number;
}

/** Runs the CLI; resolves with whether it ended within HANG_MS (it is killed otherwise). */
function cli(args: string[], cwd: string): Promise<boolean> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: 'ignore' });
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(false);
    }, HANG_MS);
    child.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function plugin(dir: string, name: string, fixtures: string, env: Record<string, string>): string {
  return pluginFolder(path.join(dir, name), name, {
    command: process.execPath,
    args: [path.join(fixtures, 'well-behaved.js')],
    env,
  });
}

const pidsIn = (file: string): number[] => {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

/** How many of `pids` still run 3 s on (zombies excluded). */
async function settle(pids: number[]): Promise<number> {
  await waitFor(() => !pids.some(alive), { timeoutMs: 3000, intervalMs: 50, what: 'the escapers to end' }).catch(
    () => undefined,
  );
  return pids.filter(alive).length;
}

export async function escapes(opts: { fixtures: string; runs?: number }): Promise<EscapeFigures> {
  const runs = opts.runs ?? 4;
  const dir = mkdtempSync(path.join(tmpdir(), 'rx-fuzz-escapes-'));
  const figures: EscapeFigures = {
    escapeRuns: 0,
    escapersStarted: 0,
    processesLeft: 0,
    heldPipeRuns: 0,
    specialFiles: 0,
    hangs: 0,
  };
  const strays: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const file = path.join(dir, `escapers-${i}`);
      const root = plugin(dir, `esc${i}`, opts.fixtures, { FIX_ESCAPERS: file, FIX_HOLD_PIPES: '1' });
      if (!(await cli(['check', root], dir))) figures.hangs++;
      const pids = pidsIn(file);
      strays.push(...pids);
      figures.escapeRuns++;
      figures.escapersStarted += pids.length;
      figures.processesLeft += await settle(pids);
    }
    for (let i = 0; i < runs; i++) {
      const file = path.join(dir, `clean-${i}`);
      const root = plugin(dir, `clean${i}`, opts.fixtures, {
        FIX_ESCAPERS: file,
        FIX_HOLD_PIPES: 'clean',
        FIX_EXIT_AFTER_INIT: '300',
      });
      if (!(await cli(['check', root], dir))) figures.hangs++;
      strays.push(...pidsIn(file));
      figures.heldPipeRuns++;
    }
    const specials: [string, (target: string) => void][] = [
      ['zero', (t) => symlinkSync('/dev/zero', t)],
      ['urandom', (t) => symlinkSync('/dev/urandom', t)],
      ['fifo', (t) => spawnSync('mkfifo', [t])],
    ];
    for (const [name, make] of specials) {
      const root = path.join(dir, `special-${name}`);
      mkdirSync(root);
      make(path.join(root, 'reasonix-plugin.json'));
      if (!(await cli(['check', root], dir))) figures.hangs++;
      figures.specialFiles++;
    }
  } finally {
    // The held-pipe children cleared their environment: nothing can know them as ours (the
    // documented limit). They are the suite's own, so the suite ends them.
    for (const pid of strays) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}
