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
  chain4: Figure & { chain1Median: number; chain4Median: number; samples: number };
}

export async function benchIntercepts(quick: boolean): Promise<InterceptFigures> {
  const raw = new RawPeer(BENCH_SIDECAR);
  const sidecars: Sidecar[] = [];
  try {
    for (let i = 1; i <= 4; i++) sidecars.push(await startSidecar(benchPlugin(`bench-${i}`)));
    const one = createDispatcher([interceptClientFor(sidecars[0], 0)]);
    const four = createDispatcher(sidecars.map((s, i) => interceptClientFor(s, i)));
    let seq = 0;

    const roundTrip: InterceptFigures['roundTrip'] = {};
    const sizes: [string, number, number][] = [
      ['small_200B', 200, quick ? 400 : 3000],
      ['large_60KiB', 60 * 1024, quick ? 60 : 400],
    ];
    for (const [name, bytes, samples] of sizes) {
      const payload = payloadOf(bytes);
      const host = async () => {
        const out = await one.dispatch('input.receive', payload);
        if (out.decision !== 'continue') throw new Error(`unexpected ${out.decision}`);
      };
      const floor = async () => {
        const res = await raw.request('extension/intercept', { event: 'input.receive', seq: ++seq, payload, timeoutMillis: 5000 });
        if ((res.result as { decision?: string } | undefined)?.decision !== 'continue') throw new Error('raw echo failed');
      };
      const [h, f] = await interleave([host, floor], { warmup: Math.min(200, samples / 4), samples, minSamples: samples / 4, maxMs: quick ? 3000 : 20_000, block: 25 });
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
    const [c1, c4, fl] = await interleave(
      [
        () => one.dispatch('input.receive', payload),
        () => four.dispatch('input.receive', payload),
        () => raw.request('extension/intercept', { event: 'input.receive', seq: ++seq, payload, timeoutMillis: 5000 }),
      ],
      { warmup: 50, samples, minSamples: samples / 4, maxMs: quick ? 3000 : 15_000, block: 20 },
    );
    const m1 = summarize(c1).median;
    const m4 = summarize(c4).median;
    const perExtra = (m4 - m1) / 3;
    const fig = lowerIsBetter('ms per extra interceptor', perExtra, summarize(fl).median);
    fig.notes = 'value = (chain-of-4 median − single median) / 3; floor = one raw echo round trip';
    return { roundTrip, chain4: { ...fig, chain1Median: round(m1), chain4Median: round(m4), samples: c1.length } };
  } finally {
    await Promise.all(sidecars.map((s) => s.stop()));
    await raw.close();
  }
}
