// Figure 4: an 8 MiB payload. Host: the dispatcher externalizes it into the connection's content
// store, the sidecar pages it in through host/content/read (256 KiB base64 chunks), checks its
// sha256 and answers. Floor: the same bytes inline in one frame over the raw pipe, parsed, answered.
import { createDispatcher, interceptClientFor } from '../src/host/intercepts';
import type { Sidecar } from '../src/host/sidecar';
import { BENCH_SIDECAR, benchPlugin, startSidecar } from './lib/host';
import { interleave } from './lib/measure';
import { RawPeer } from './lib/raw';
import { lowerIsBetter, summarize, type Figure } from './lib/stats';

export async function benchContent(quick: boolean): Promise<Figure & { payloadBytes: number; samples: number }> {
  const bytes = 8 * 1024 * 1024;
  const payload = { text: 'x'.repeat(bytes - '{"text":""}'.length) };
  const raw = new RawPeer(BENCH_SIDECAR);
  let sidecar: Sidecar | undefined;
  try {
    sidecar = await startSidecar(benchPlugin('bench-content'));
    const dispatcher = createDispatcher([interceptClientFor(sidecar, 0)]);
    let seq = 0;
    const samples = quick ? 3 : 8;
    const [h, f] = await interleave(
      [
        async () => {
          const out = await dispatcher.dispatch('input.receive', payload);
          if (out.decision !== 'continue') throw new Error(`content ref round trip: ${out.decision} ${out.error?.message ?? ''}`);
        },
        () => raw.request('extension/intercept', { event: 'input.receive', seq: ++seq, payload, timeoutMillis: 30_000 }),
      ],
      { warmup: 1, samples, minSamples: 3, maxMs: quick ? 5000 : 20_000, block: 1 },
    );
    const hs = summarize(h);
    const fig = lowerIsBetter('ms', hs.median, summarize(f).median, 1.8); // DESIGN.md budget
    fig.notes = 'median of the whole round trip; the host path pages 32 base64 chunks of 256 KiB (the sidecar one page ahead) and checks sha256, the floor sends one inline frame';
    return { ...fig, payloadBytes: bytes, samples: hs.n };
  } finally {
    await sidecar?.stop();
    await raw.close();
  }
}
