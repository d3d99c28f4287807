// Figures 1 and 2: the intercept round trip through the full host (Sidecar + dispatcher) against
// a raw NDJSON echo of the same frame by the same child process, and the cost of a longer chain;
// the v2 tool call (ToolCaller) rides the same connection path and is measured the same way.
import { createDispatcher, interceptClientFor } from '../src/host/intercepts';
import type { Sidecar } from '../src/host/sidecar';
import { ToolCaller, toolClientFor } from '../src/host/tools';
import { BENCH_SIDECAR, benchPlugin, startSidecar } from './lib/host';
import { interleave } from './lib/measure';
import { RawPeer } from './lib/raw';
import { floorOver } from './lib/sameChild';
import { lowerIsBetter, round, spread, summarize, type Figure } from './lib/stats';

/** `{"text":"…"}` of exactly `bytes` bytes of JSON. */
function payloadOf(bytes: number): { text: string } {
  return { text: 'x'.repeat(bytes - '{"text":""}'.length) };
}

/** The tool every v2 bench sidecar serves (it answers `{"content":"ok"}`). */
const ECHO_TOOL = { name: 'echo', description: 'answers ok', inputSchema: { type: 'object' }, readOnly: true };

type Spread = ReturnType<typeof spread>;

export interface RoundTripFigure {
  median: Figure;
  p99: Figure;
  /** Each side's own spread, ms: its minimum and p10 show what the pipe itself allows in this run. */
  host: Spread;
  floor: Spread;
  /** Which of this VM's two states the floor was in (see floorState). */
  floorState: 'fast' | 'slow';
  samples: number;
}

/**
 * On this VM the same raw echo runs in one of two states (docs/bench.md, "Issue 27"): fast, where
 * most round trips take about as long as the quickest tenth, or slow, where the median is two to
 * three times that. A median within 1.5× the p10 is the fast state.
 */
function floorState(floor: { p10: number; median: number }): 'fast' | 'slow' {
  return floor.median <= 1.5 * floor.p10 ? 'fast' : 'slow';
}

export interface InterceptFigures {
  roundTrip: Record<string, RoundTripFigure>;
  chain4: Figure & {
    chain1Median: number;
    chain4Median: number;
    raw1Median: number;
    raw4Median: number;
    samples: number;
  };
}

interface Case {
  name: string;
  samples: number;
  /** Round trips per side before timing: the scheduler, not only the JIT, settles over ~2,000 of them. */
  warmup: number;
  host(): Promise<void>;
  floor(): Promise<void>;
  /** The median ratio's goal; the p99 ratio's is 1.5 for every case. */
  goal?: number;
}

export async function benchIntercepts(quick: boolean): Promise<InterceptFigures> {
  // Every figure but one drives the same processes from both sides (bench/lib/sameChild.ts): the
  // floor's raw frames go to the host's own children. `small_200B_separateChildren` keeps the
  // method the issue was filed with, the floor over 4 children of its own, for comparison.
  const separate = [1, 2, 3, 4].map(() => new RawPeer(BENCH_SIDECAR));
  const floors: RawPeer[] = [];
  const sidecars: Sidecar[] = [];
  try {
    const v1: Sidecar[] = [];
    for (let i = 1; i <= 4; i++) v1.push(await startSidecar(benchPlugin(`bench-${i}`)));
    // The same sidecar code spoken to in protocol v2.
    const v2: Sidecar[] = [];
    for (let i = 1; i <= 4; i++)
      v2.push(await startSidecar(benchPlugin(`bench-v2-${i}`, { capabilities: ['tools'], tools: [ECHO_TOOL] }, {}, 2)));
    sidecars.push(...v1, ...v2);
    const floorsV1 = v1.map(floorOver);
    const floorsV2 = v2.map(floorOver);
    floors.push(...floorsV1, ...floorsV2);
    const ones = v1.map((s) => createDispatcher([interceptClientFor(s, 0)]));
    const onesV2 = v2.map((s) => createDispatcher([interceptClientFor(s, 0)]));
    const callers = v2.map((s) => new ToolCaller(toolClientFor(s)));
    const four = createDispatcher(v1.map((s, i) => interceptClientFor(s, i)));
    let seq = 0;

    // Which core a child lands on relative to this process moves a round trip by tens of percent
    // on a small machine, so both sides rotate over 4 processes, one block each in turn.
    const BLOCK = 25;
    let hostCalls = 0;
    let rawCalls = 0;
    const pick = <T>(list: readonly T[], calls: number): T => list[Math.floor(calls / BLOCK) % list.length];
    const echo = async (
      peers: readonly RawPeer[],
      method: string,
      params: object,
      answered: (result: Record<string, unknown>) => boolean,
    ) => {
      const res = await pick(peers, rawCalls++).request(method, params);
      if (!answered((res.result ?? {}) as Record<string, unknown>)) throw new Error(`raw ${method} echo failed`);
    };
    const interceptCase = (
      name: string,
      bytes: number,
      samples: number,
      warmup: number,
      dispatchers: typeof ones,
      peers: readonly RawPeer[],
      goal?: number,
    ): Case => {
      const payload = payloadOf(bytes);
      return {
        name,
        samples,
        warmup,
        goal,
        host: async () => {
          const out = await pick(dispatchers, hostCalls++).dispatch('input.receive', payload);
          if (out.decision !== 'continue') throw new Error(`unexpected ${out.decision}`);
        },
        floor: () =>
          echo(
            peers,
            'extension/intercept',
            { event: 'input.receive', seq: ++seq, payload, timeoutMillis: 5000 },
            (r) => r.decision === 'continue',
          ),
      };
    };
    const small = quick ? 400 : 3000;
    const warm = quick ? 200 : 2000;
    const toolArgs = payloadOf(200);
    const cases: Case[] = [
      interceptCase('small_200B', 200, small, warm, ones, floorsV1, 1.2),
      interceptCase('large_60KiB', 60 * 1024, quick ? 60 : 400, quick ? 20 : 100, ones, floorsV1),
      interceptCase('small_200B_v2', 200, small, warm, onesV2, floorsV2, 1.2),
      {
        name: 'toolCall_200B_v2',
        samples: small,
        warmup: warm,
        goal: 1.2,
        host: async () => {
          const run = await pick(callers, hostCalls++).call('echo', toolArgs);
          if (run.kind !== 'result') throw new Error(`tool call failed: ${run.message}`);
        },
        floor: () =>
          echo(
            floorsV2,
            'extension/tool/call',
            { name: 'echo', arguments: toolArgs, timeoutMillis: 300_000 },
            (r) => r.content === 'ok',
          ),
      },
      // No goal: two sets of processes, whose placement luck the ratio reads as well as the work.
      interceptCase('small_200B_separateChildren', 200, small, warm, ones, separate),
    ];

    const roundTrip: InterceptFigures['roundTrip'] = {};
    // Each case starts from a collected heap: the 60 KiB case leaves old-space garbage whose
    // collection would otherwise run (and be timed) during the next case.
    const settle = () => (globalThis as { gc?: () => void }).gc?.();
    for (const c of cases) {
      settle();
      const [h, f] = await interleave([c.host, c.floor], {
        warmup: c.warmup,
        samples: c.samples,
        minSamples: c.samples / 4,
        maxMs: quick ? 3000 : 20_000,
        block: BLOCK,
      });
      const hs = summarize(h);
      const fs = summarize(f);
      roundTrip[c.name] = {
        median: lowerIsBetter('ms', hs.median, fs.median, c.goal),
        p99: lowerIsBetter('ms', hs.p99, fs.p99, 1.5),
        host: spread(hs),
        floor: spread(fs),
        floorState: floorState(fs),
        samples: hs.n,
      };
    }

    settle();
    const payload = payloadOf(200);
    const samples = quick ? 200 : 1000;
    const raw1 = (peer: RawPeer) =>
      peer.request('extension/intercept', { event: 'input.receive', seq: ++seq, payload, timeoutMillis: 5000 });
    const one = ones[0];
    const [c1, c4, r1, r4] = await interleave(
      [
        () => one.dispatch('input.receive', payload),
        () => four.dispatch('input.receive', payload),
        () => raw1(floorsV1[0]),
        async () => {
          for (const peer of floorsV1) await raw1(peer);
        },
      ],
      { warmup: quick ? 50 : 500, samples, minSamples: samples / 4, maxMs: quick ? 3000 : 15_000, block: 20 },
    );
    const m1 = summarize(c1).median;
    const m4 = summarize(c4).median;
    const perExtra = (m4 - m1) / 3;
    const rm1 = summarize(r1).median;
    const rm4 = summarize(r4).median;
    const fig = lowerIsBetter('ms per extra interceptor', perExtra, (rm4 - rm1) / 3, 1.1);
    fig.notes =
      'value = (chain-of-4 median − single median) / 3; floor = the same for raw echoes through 4 processes in turn';
    return {
      roundTrip,
      chain4: {
        ...fig,
        chain1Median: round(m1),
        chain4Median: round(m4),
        raw1Median: round(rm1),
        raw4Median: round(rm4),
        samples: c1.length,
      },
    };
  } finally {
    await Promise.all(floors.map((r) => r.close()));
    await Promise.all(sidecars.map((s) => s.stop()));
    await Promise.all(separate.map((r) => r.close()));
  }
}
