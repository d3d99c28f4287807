// The chaos run (issue 12 §8): real sidecars SIGKILLed — the leader only, as a crash would —
// at random moments of the handshake, of intercepts in flight, of a provider stream and of the
// shutdown. Afterwards every pending call must have settled, and nothing may be left alive in
// the sidecar's process group (its grandchild included): the host must reap the whole group.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Sidecar } from '../../src/host/sidecar';
import { StreamHub, streamHandlers } from '../../src/host/streams';
import type { PluginSpec, Capability } from '../../src/host/plugins/types';
import { scriptPlugin } from '../support/plugins';
import { groupMembers } from '../support/processes';
import { waitFor } from '../support/wait';
import { Random } from './random';

export type Phase = 'handshake' | 'intercept' | 'stream' | 'shutdown';
export const PHASES: readonly Phase[] = ['handshake', 'intercept', 'stream', 'shutdown'];

export interface ChaosFigures {
  seed: number;
  kills: number;
  byPhase: Record<Phase, number>;
  callsSettled: number;
  /** Calls (or stops, or stream outcomes) still pending 10 s after the kill. */
  unsettled: number;
  /** Live processes left in a killed sidecar's process group 3 s after it ended. */
  orphans: number;
}

function spec(
  fixtures: string,
  id: string,
  script: string,
  args: string[],
  env: Record<string, string>,
  capabilities: Capability[],
): PluginSpec {
  return scriptPlugin(id, path.join(fixtures, script), {
    args,
    runtime: { env, intercepts: ['tool.before'], capabilities },
  });
}

const SETTLE_MS = 10_000;
const TIMEOUTS = { handshakeMs: 10_000, shutdownRequestMs: 1_000, exitGraceMs: 200, reapMs: 2_000 };
const INTERCEPT = { event: 'tool.before', seq: 1, timeoutMillis: 5000, payload: { name: 'x', arguments: '{}' } };

/** Resolves true when `p` settles within `ms`, false otherwise. */
function settles(p: Promise<unknown>, ms = SETTLE_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    p.then(
      () => (clearTimeout(t), resolve(true)),
      () => (clearTimeout(t), resolve(true)),
    );
  });
}

function killLeader(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function noOrphans(pgid: number | undefined, ms = 3_000): Promise<number> {
  if (pgid === undefined) return 0;
  await waitFor(() => groupMembers(pgid).length === 0, {
    timeoutMs: ms,
    what: `process group ${pgid} to empty`,
    intervalMs: 25,
  }).catch(() => undefined);
  return groupMembers(pgid).length;
}

/** One kill at a random moment of `phase`; returns [settled calls, unsettled, orphans]. */
async function round(phase: Phase, rnd: Random, fixtures: string, scratch: string): Promise<[number, number, number]> {
  const wellBehaved = (extra: Record<string, string> = {}) =>
    new Sidecar({
      plugin: spec(
        fixtures,
        'chaos',
        'sidecars/well-behaved.js',
        [],
        { FIX_GRANDCHILD: path.join(scratch, `gc-${Date.now()}-${rnd.int(0, 1e9)}`), ...extra },
        [],
      ),
      session: { sessionId: 's', workspaceRoot: scratch, generation: 1 },
      uiHost: 'headless',
      timeouts: TIMEOUTS,
    });
  let settled = 0;
  let unsettled = 0;
  const count = async (ps: Promise<unknown>[]) => {
    for (const ok of await Promise.all(ps.map((p) => settles(p)))) {
      if (ok) settled++;
      else unsettled++;
    }
  };
  let pid: number | undefined;
  switch (phase) {
    case 'handshake': {
      const s = wellBehaved();
      const start = s.start();
      pid = s.pid;
      await sleep(rnd.int(0, 40));
      killLeader(pid);
      await count([start]);
      await count([s.stop()]);
      break;
    }
    case 'intercept': {
      const s = wellBehaved(rnd.chance(0.5) ? {} : { FIX_INTERCEPT: 'hang' });
      await s.start();
      pid = s.pid;
      const calls: Promise<unknown>[] = [];
      const until = Date.now() + rnd.int(0, 30);
      while (Date.now() < until || calls.length < 3) {
        calls.push(s.request('extension/intercept', INTERCEPT));
        await new Promise((r) => setImmediate(r));
      }
      killLeader(pid);
      calls.push(s.request('extension/intercept', INTERCEPT).catch(() => undefined));
      await count(calls);
      await count([s.stop()]);
      break;
    }
    case 'stream': {
      const ref: { hub?: StreamHub } = {};
      const s = new Sidecar({
        plugin: spec(fixtures, 'prov', 'providers/provider.js', ['normal'], {}, ['providers']),
        session: { sessionId: 's', workspaceRoot: scratch, generation: 1 },
        uiHost: 'headless',
        handlers: streamHandlers(() => ref.hub),
        timeouts: TIMEOUTS,
      });
      const hub = new StreamHub(s, { gapMs: 30 });
      ref.hub = hub;
      await s.start();
      pid = s.pid;
      const stream = hub.openStream({ providerRef: 'plugin/prov/cancel/m' });
      const drained = (async () => {
        for await (const chunk of stream) void chunk;
        return stream.outcome;
      })();
      await sleep(rnd.int(0, 80));
      killLeader(pid);
      await count([drained, stream.outcome]);
      await count([s.stop()]);
      break;
    }
    case 'shutdown': {
      const s = wellBehaved();
      await s.start();
      pid = s.pid;
      const stop = s.stop();
      await sleep(rnd.int(0, 15));
      killLeader(pid);
      await count([stop]);
      break;
    }
  }
  return [settled, unsettled, await noOrphans(pid)];
}

/** `kills` rounds, phases in turn, moments drawn from `seed`. `fixtures` is test/fixtures. */
export async function chaos(opts: { seed: number; kills: number; fixtures: string }): Promise<ChaosFigures> {
  const rnd = new Random(opts.seed);
  const scratch = mkdtempSync(path.join(tmpdir(), 'reasonix-chaos-'));
  const fig: ChaosFigures = {
    seed: opts.seed,
    kills: 0,
    byPhase: { handshake: 0, intercept: 0, stream: 0, shutdown: 0 },
    callsSettled: 0,
    unsettled: 0,
    orphans: 0,
  };
  try {
    for (let i = 0; i < opts.kills; i++) {
      const phase = PHASES[i % PHASES.length];
      const [settled, unsettled, orphans] = await round(phase, rnd, opts.fixtures, scratch);
      fig.kills++;
      fig.byPhase[phase]++;
      fig.callsSettled += settled;
      fig.unsettled += unsettled;
      fig.orphans += orphans;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return fig;
}
