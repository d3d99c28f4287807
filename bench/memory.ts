// Figure 7: host heap. (a) Per idle sidecar: heap growth from starting N sidecars, over N, against
// the same growth from N raw children with piped stdio read by the raw parent (the floor: what any
// host pays for a child process and its pipes). (b) 100,000 extension/event frames to a sidecar
// that never reads: the best-effort queue must keep the heap bounded (floor: the heap before).
// Needs --expose-gc (scripts/bench.mjs passes it).
import type { Sidecar } from '../src/host/sidecar';
import { BENCH_SIDECAR, benchPlugin, startSidecar } from './lib/host';
import { RawPeer } from './lib/raw';
import { lowerIsBetter, round, type Figure } from './lib/stats';

const KiB = 1024;

async function settledHeap(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().heapUsed;
}

export interface MemoryFigures {
  perIdleSidecar: Figure & { sidecars: number };
  eventFlood: Figure & { events: number; accepted: number; dropped: number; sendMs: number };
}

export async function benchMemory(quick: boolean): Promise<MemoryFigures> {
  const n = quick ? 4 : 16;
  // Load the modules and warm the code paths first so their one-time cost is not counted.
  const warm = await startSidecar(benchPlugin('bench-warm'));
  await warm.stop();
  const warmRaw = new RawPeer(BENCH_SIDECAR);
  await warmRaw.request('extension/initialize', {});
  await warmRaw.close();
  await new Promise((r) => setTimeout(r, 500)); // let the stopped sidecar's settle timers run out

  // The floor first: stopping sidecars leaves short timers (exit grace, stderr settle) that would
  // hold memory across a later baseline.
  const rawBase = await settledHeap();
  const peers: RawPeer[] = [];
  for (let i = 0; i < n; i++) {
    const p = new RawPeer(BENCH_SIDECAR);
    await p.request('extension/initialize', {});
    peers.push(p);
  }
  const withPeers = await settledHeap();
  await Promise.all(peers.map((p) => p.close()));

  const base = await settledHeap();
  const sidecars: Sidecar[] = [];
  for (let i = 0; i < n; i++) sidecars.push(await startSidecar(benchPlugin(`bench-mem-${i}`)));
  const withSidecars = await settledHeap();
  await Promise.all(sidecars.map((s) => s.stop()));
  const perIdle = lowerIsBetter('KiB', (withSidecars - base) / n / KiB, Math.max(0.5, (withPeers - rawBase) / n / KiB));
  perIdle.notes =
    'heapUsed delta / N after gc; floor = a raw child with piped stdio and a line reader (clamped to at least 0.5 KiB: a few KiB of gc noise can hide it)';

  const events = quick ? 20_000 : 100_000;
  const mute = await startSidecar(
    benchPlugin('bench-noread', { intercepts: ['input.receive'] }, { BENCH_NOREAD: '1' }),
    undefined,
    {
      handshakeMs: 30_000,
      shutdownRequestMs: 300,
      exitGraceMs: 200,
      reapMs: 3000,
      writeStallMs: 60_000,
    },
  );
  try {
    const before = await settledHeap();
    const payload = { text: 'x'.repeat(189) };
    let accepted = 0;
    const t = process.hrtime.bigint();
    for (let i = 0; i < events; i++) if (mute.sendEvent({ event: 'input.receive', payload })) accepted++;
    const sendMs = Number(process.hrtime.bigint() - t) / 1e6;
    const after = await settledHeap();
    const flood = lowerIsBetter('MiB heapUsed', after / KiB / KiB, before / KiB / KiB);
    flood.notes =
      'heap after the flood vs before it; the peer never reads, so all but the pipe buffer and 16 best-effort slots are dropped';
    return {
      perIdleSidecar: { ...perIdle, sidecars: n },
      eventFlood: { ...flood, events, accepted, dropped: events - accepted, sendMs: round(sendMs, 1) },
    };
  } finally {
    await mute.stop();
  }
}
