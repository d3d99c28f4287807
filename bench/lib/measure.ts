// Side-by-side sampling: contenders run in alternating blocks (order flipped each round) so a
// load spike on this shared machine hits the floor and the measured path alike.
import { hrtimeMs } from './stats';

export interface InterleaveOptions {
  warmup: number;
  /** Samples per contender, at least. */
  samples: number;
  /** Stop early (with at least `minSamples`) once this much wall time is spent. */
  maxMs: number;
  minSamples: number;
  block: number;
}

export async function interleave(
  contenders: readonly (() => Promise<unknown>)[],
  o: InterleaveOptions,
): Promise<number[][]> {
  for (const run of contenders) for (let i = 0; i < o.warmup; i++) await run();
  const out = contenders.map(() => [] as number[]);
  const began = process.hrtime.bigint();
  for (let round = 0; out[0].length < o.samples; round++) {
    const order = contenders.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      for (let k = 0; k < o.block; k++) {
        const t = process.hrtime.bigint();
        await contenders[i]();
        out[i].push(hrtimeMs(t));
      }
    }
    if (out[0].length >= o.minSamples && hrtimeMs(began) > o.maxMs) break;
  }
  return out;
}
