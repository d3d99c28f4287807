// Figure 3: provider stream throughput. The host path is Sidecar → StreamHub (reassembly, window,
// bounded delivery queue) → an async-iterating consumer; the floor is the same sidecar writing the
// same chunk frames to a raw parent that only splits lines and parses them.
import { randomBytes } from 'node:crypto';
import { StreamHub, streamHandlers } from '../src/host/streams';
import type { Sidecar } from '../src/host/sidecar';
import type { RuntimeBlock } from '../src/host/plugins/types';
import { BENCH_SIDECAR, benchPlugin, startSidecar } from './lib/host';
import { RawPeer } from './lib/raw';
import { higherIsBetter, hrtimeMs, round, type Figure } from './lib/stats';

export type StreamFigures = Record<'inOrder' | 'shuffled' | 'inOrderV2', Figure & { chunks: number; runs: number }>;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchStreams(quick: boolean): Promise<StreamFigures> {
  const chunks = quick ? 5000 : 20_000;
  const runs = quick ? 3 : 21; // ~70 ms each: enough alternating runs that the medians settle
  const warmups = quick ? 1 : 3; // per side: the first figure would otherwise also time the JIT's tier-up
  let hub: StreamHub | undefined;
  let hubV2: StreamHub | undefined;
  const raw = new RawPeer(BENCH_SIDECAR);
  let sidecar: Sidecar | undefined;
  let sidecarV2: Sidecar | undefined;
  try {
    const runtime: Partial<RuntimeBlock> = { intercepts: [], capabilities: ['providers'] };
    sidecar = await startSidecar(
      benchPlugin('bench-streams', runtime),
      streamHandlers(() => hub),
    );
    hub = new StreamHub(sidecar);
    // The same sidecar code spoken to in protocol v2 (stream/open carries the generation).
    sidecarV2 = await startSidecar(
      benchPlugin('bench-streams', runtime, {}, 2),
      streamHandlers(() => hubV2),
    );
    hubV2 = new StreamHub(sidecarV2);
    const hosts = { v1: hub, v2: hubV2 };
    const viaHost = async (model: string, version: keyof typeof hosts = 'v1'): Promise<number> => {
      const t = process.hrtime.bigint();
      const stream = hosts[version].openStream({
        providerRef: 'plugin/bench-streams/p',
        model,
        request: { maxTokens: chunks },
      });
      let n = 0;
      for await (const chunk of stream) if (chunk.type === 'text') n++;
      const outcome = await stream.outcome;
      const ms = hrtimeMs(t);
      if (outcome.kind !== 'completed' || n !== chunks)
        throw new Error(`host stream: ${outcome.kind} after ${n}/${chunks} chunks`);
      return (chunks / ms) * 1000;
    };
    const viaRaw = async (model: string): Promise<number> => {
      const streamId = `s_${randomBytes(8).toString('hex')}`;
      let n = 0;
      const t = process.hrtime.bigint();
      const ended = new Promise<void>((resolve) => {
        raw.onOther = (msg) => {
          if (msg.method === 'extension/provider/stream/chunk') n++;
          else if (msg.method === 'extension/provider/stream/end') resolve();
        };
      });
      await raw.request('extension/provider/stream/open', {
        streamId,
        providerRef: 'plugin/bench-streams/p',
        model,
        request: { messages: [], tools: [], maxTokens: chunks },
        seqBase: 1,
      });
      await ended;
      const ms = hrtimeMs(t);
      if (n !== chunks) throw new Error(`raw stream: ${n}/${chunks} chunks`);
      return (chunks / ms) * 1000;
    };
    const out = {} as StreamFigures;
    // Budgets from DESIGN.md (issue 14): in order ≤ 1.5×, shuffled ≤ 1.6× the same-run floor.
    // inOrderV2: issue 22, the v2 path may not cost more than v1 (same goal, same floor).
    for (const [name, model, goal, version] of [
      ['inOrder', 'ordered', 1.5, 'v1'],
      ['shuffled', 'shuffled', 1.6, 'v1'],
      ['inOrderV2', 'ordered', 1.5, 'v2'],
    ] as const) {
      for (let i = 0; i < warmups; i++) {
        await viaHost(model, version);
        await viaRaw(model);
      }
      const h: number[] = [];
      const f: number[] = [];
      for (let i = 0; i < runs; i++) {
        if (i % 2) f.push(await viaRaw(model));
        h.push(await viaHost(model, version));
        if (i % 2 === 0) f.push(await viaRaw(model));
      }
      const fig = higherIsBetter('chunks/s', median(h), median(f), goal);
      out[name] = { ...fig, value: round(fig.value, 0), floor: round(fig.floor, 0), chunks, runs };
    }
    out.shuffled.notes =
      'each block of 64 seqs is permuted by the sidecar (inside the 256 reorder window); the floor sees the same frames';
    return out;
  } finally {
    hub?.dispose();
    hubV2?.dispose();
    await sidecar?.stop();
    await sidecarV2?.stop();
    await raw.close();
  }
}
