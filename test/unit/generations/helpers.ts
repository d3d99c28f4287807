// Real sidecars for runtime tests: plugin specs running test/fixtures/plugins/sidecar.js through
// the real Sidecar class, with fast timeouts and a spawn log to measure concurrency.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PluginSpec } from '../../../src/host/plugins/types';
import { Sidecar, type SidecarOptions } from '../../../src/host/sidecar';
import { liveDescendants } from '../../support/orphans';
import { scriptPlugin } from '../../support/plugins';

// out/test/unit/runtime → repository root
export const FIXTURE = path.resolve(__dirname, '../../../../test/fixtures/plugins/sidecar.js');

export const FAST_TIMEOUTS = {
  handshakeMs: 5_000,
  shutdownRequestMs: 500,
  exitGraceMs: 200,
  reapMs: 1_000,
  writeStallMs: 2_000,
};

export interface FixtureOptions {
  mode?: 'ok' | 'hang' | 'fail' | 'slow';
  delayMs?: number;
  required?: boolean;
  replaces?: string[];
  log?: string;
}

export function fixtureSpec(id: string, o: FixtureOptions = {}): PluginSpec {
  const env: Record<string, string> = { FIXTURE_MODE: o.mode ?? 'ok' };
  if (o.delayMs !== undefined) env.FIXTURE_DELAY_MS = String(o.delayMs);
  if (o.log) env.FIXTURE_LOG = o.log;
  return scriptPlugin(id, FIXTURE, {
    source: 'installed',
    runtime: { env, required: o.required ?? false, replaces: o.replaces ?? [] },
  });
}

/** Wraps the real factory to record how many starts were in flight at once and which plugins were created. */
export function countingFactory() {
  const stats = { created: [] as string[], pids: [] as number[], inFlight: 0, maxInFlight: 0 };
  const factory = (opts: SidecarOptions): Sidecar => {
    const s = new Sidecar(opts);
    stats.created.push(opts.plugin.id);
    const start = s.start.bind(s);
    s.start = (session) => {
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      const p = start(session).finally(() => stats.inFlight--);
      if (s.pid !== undefined) stats.pids.push(s.pid); // the real Sidecar spawns synchronously in start()
      return p;
    };
    return s;
  };
  return { factory, stats };
}

/** Samples this test run's live child processes every 20 ms; `max` is the most seen at once. */
export function watchProcesses(): { readonly max: number; stop(): void } {
  let max = 0;
  const sample = () => {
    max = Math.max(max, liveDescendants().length);
  };
  sample();
  const timer = setInterval(sample, 20);
  return {
    get max() {
      return max;
    },
    stop: () => clearInterval(timer),
  };
}

export async function tempLog(): Promise<{ file: string; remove(): Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reasonix-rt-'));
  return { file: path.join(dir, 'spawn.log'), remove: () => fs.rm(dir, { recursive: true, force: true }) };
}

/** From the fixture log: processes spawned, and the most that had spawned but not answered at once. */
export async function readSpawnLog(file: string): Promise<{ spawned: string[]; maxHandshaking: number }> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  const spawned: string[] = [];
  let open = 0;
  let max = 0;
  for (const line of text.split('\n')) {
    const [what, name] = line.split(' ');
    if (what === 'spawn') {
      spawned.push(name);
      max = Math.max(max, ++open);
    } else if (what === 'ready') open--;
  }
  return { spawned, maxHandshaking: max };
}
