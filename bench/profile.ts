// The host side of the stream and content-ref figures alone (no floor), to run under a CPU
// profiler: what docs/bench.md reports as "top costs" comes from this, not from a bench run,
// whose profile would mix in the raw parent of the floor.
//   node --cpu-prof --cpu-prof-dir=/tmp/prof out/bench/profile.js streams|content [rounds]
// rounds: streams of 20,000 chunks (default 6, alternately in order and shuffled) or 8 MiB round
// trips (default 10); more rounds dilute the process start-up in the profile.
// PROFILE_SIDECAR_DIR=/tmp/prof-sidecar profiles the bench sidecar's side as well.
import { createDispatcher, interceptClientFor } from '../src/host/intercepts';
import type { Sidecar } from '../src/host/sidecar';
import { StreamHub, streamHandlers } from '../src/host/streams';
import { BENCH_SIDECAR, benchPlugin, startSidecar } from './lib/host';

const sidecarDir = process.env.PROFILE_SIDECAR_DIR;
const sidecarArgs = sidecarDir ? { args: ['--cpu-prof', `--cpu-prof-dir=${sidecarDir}`, BENCH_SIDECAR] } : {};

async function streams(rounds: number): Promise<void> {
  const ref: { hub?: StreamHub } = {};
  const sidecar: Sidecar = await startSidecar(
    benchPlugin('profile-streams', { intercepts: [], capabilities: ['providers'], ...sidecarArgs }),
    streamHandlers(() => ref.hub),
  );
  const hub = new StreamHub(sidecar);
  ref.hub = hub;
  try {
    for (let i = 0; i < rounds; i++) {
      const model = i % 2 ? 'shuffled' : 'ordered';
      const stream = hub.openStream({ providerRef: 'plugin/profile-streams/p', model, request: { maxTokens: 20_000 } });
      let n = 0;
      for await (const chunk of stream) if (chunk.type === 'text') n++;
      const outcome = await stream.outcome;
      if (outcome.kind !== 'completed' || n !== 20_000) throw new Error(`stream: ${outcome.kind} after ${n} chunks`);
    }
  } finally {
    hub.dispose();
    await sidecar.stop();
  }
}

async function content(rounds: number): Promise<void> {
  const payload = { text: 'x'.repeat(8 * 1024 * 1024 - '{"text":""}'.length) };
  const sidecar = await startSidecar(benchPlugin('profile-content', sidecarArgs));
  try {
    const dispatcher = createDispatcher([interceptClientFor(sidecar, 0)]);
    for (let i = 0; i < rounds; i++) {
      const out = await dispatcher.dispatch('input.receive', payload);
      if (out.decision !== 'continue') throw new Error(`content ref round trip: ${out.decision}`);
    }
  } finally {
    await sidecar.stop();
  }
}

const which = process.argv[2];
const rounds = Number(process.argv[3]) || (which === 'content' ? 10 : 6);
(which === 'content'
  ? content(rounds)
  : which === 'streams'
    ? streams(rounds)
    : Promise.reject(new Error('usage: profile.js streams|content'))
).catch((err: unknown) => {
  process.stderr.write(`profile failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
