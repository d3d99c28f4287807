// Figures 1 and 2: the intercept round trip through the full host (Sidecar + dispatcher) against
// a raw NDJSON echo of the same frame by the same sidecar code, and the cost of a longer chain.
import { createDispatcher, interceptClientFor } from '../src/host/intercepts';
import type { Sidecar } from '../src/host/sidecar';
import { BENCH_SIDECAR, benchPlugin, startSidecar } from './lib/host';
import { interleave } from './lib/measure';
import { RawPeer } from './lib/raw';
import { lowerIsBetter, round, summarize, type Figure } from './lib/stats';

/** `{"text":"…"}` of exactly `bytes` bytes of JSON. */
function payloadOf(bytes: number): { text: string } {
  return { text: 'x'.repeat(bytes - '{"text":""}'.length) };
}

export interface InterceptFigures {
  roundTrip: Record<string, { median: Figure; p99: Figure; samples: number }>;
  chain4: Figure & {
    chain1Median: number;
    chain4Median: number;
    raw1Median: number;
    raw4Median: number;
    samples: number;
  };
}

export async function benchIntercepts(quick: boolean): Promise<InterceptFigures> {
  const raws = [1, 2, 3, 4].map(() => new RawPeer(BENCH_SIDECAR));
  const raw = raws[0];
  const sidecars: Sidecar[] = [];
  try {
    for (let i = 1; i <= 4; i++) sidecars.push(await startSidecar(benchPlugin(`bench-${i}`)));
    // The same sidecar code spoken to in protocol v2: its figure against the same floor.
    const v2 = [];
    for (let i = 1; i <= 4; i++) v2.push(await startSidecar(benchPlugin(`bench-v2-${i}`, {}, {}, 2)));
    sidecars.push(...v2);
    const onesV2 = v2.map((s) => createDispatcher([interceptClientFor(s, 0)]));
    const ones = sidecars.slice(0, 4).map((s) => createDispatcher([interceptClientFor(s, 0)]));
    const one = ones[0];
    const four = createDispatcher(sidecars.slice(0, 4).map((s, i) => interceptClientFor(s, i)));
    let seq = 0;

    const roundTrip: InterceptFigures['roundTrip'] = {};
    const sizes: [string, number, number, typeof ones][] = [
      ['small_200B', 200, quick ? 400 : 3000, ones],
      ['large_60KiB', 60 * 1024, quick ? 60 : 400, ones],
      ['small_200B_v2', 200, quick ? 400 : 3000, onesV2],
    ];
    // Which core a child lands on relative to this process moves a round trip by tens of percent
    // on a small machine, so both sides rotate over 4 processes, one block each in turn.
    const BLOCK = 25;
    let hostCalls = 0;
    let rawCalls = 0;
    const pick = <T>(list: readonly T[], calls: number): T => list[Math.floor(calls / BLOCK) % list.length];
    for (const [name, bytes, samples, dispatchers] of sizes) {
      const payload = payloadOf(bytes);
      const host = async () => {
        const out = await pick(dispatchers, hostCalls++).dispatch('input.receive', payload);
        if (out.decision !== 'continue') throw new Error(`unexpected ${out.decision}`);
      };
      const floor = async () => {
        const res = await pick(raws, rawCalls++).request('extension/intercept', {
          event: 'input.receive',
          seq: ++seq,
          payload,
          timeoutMillis: 5000,
        });
        if ((res.result as { decision?: string } | undefined)?.decision !== 'continue')
          throw new Error('raw echo failed');
      };
      const [h, f] = await interleave([host, floor], {
        warmup: Math.min(200, samples / 4),
        samples,
        minSamples: samples / 4,
        maxMs: quick ? 3000 : 20_000,
        block: BLOCK,
      });
      const hs = summarize(h);
      const fs = summarize(f);
      roundTrip[name] = {
        median: lowerIsBetter('ms', hs.median, fs.median, name.startsWith('small') ? 1.3 : undefined),
        p99: lowerIsBetter('ms', hs.p99, fs.p99),
        samples: hs.n,
      };
    }

    const payload = payloadOf(200);
    const samples = quick ? 200 : 1000;
    const echo = (peer: RawPeer) =>
      peer.request('extension/intercept', { event: 'input.receive', seq: ++seq, payload, timeoutMillis: 5000 });
    const [c1, c4, r1, r4] = await interleave(
      [
        () => one.dispatch('input.receive', payload),
        () => four.dispatch('input.receive', payload),
        () => echo(raw),
        async () => {
          for (const peer of raws) await echo(peer);
        },
      ],
      { warmup: 50, samples, minSamples: samples / 4, maxMs: quick ? 3000 : 15_000, block: 20 },
    );
    const m1 = summarize(c1).median;
    const m4 = summarize(c4).median;
    const perExtra = (m4 - m1) / 3;
    const rm1 = summarize(r1).median;
    const rm4 = summarize(r4).median;
    const fig = lowerIsBetter('ms per extra interceptor', perExtra, (rm4 - rm1) / 3);
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
    await Promise.all(sidecars.map((s) => s.stop()));
    await Promise.all(raws.map((r) => r.close()));
  }
}
