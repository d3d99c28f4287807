// The measured side: the real host (Sidecar, dispatcher, hubs) against the bench sidecar.
import * as path from 'node:path';
import type { PluginSpec, ProtocolVersion, RuntimeBlock } from '../../src/host/plugins/types';
import { Sidecar, type HostHandlers, type SidecarTimeouts } from '../../src/host/sidecar';
import { scriptPlugin } from '../../test/support/plugins';

// out/bench/lib → repo root
export const REPO = path.resolve(__dirname, '../../..');
export const BENCH_SIDECAR = path.join(REPO, 'bench/sidecars/bench-sidecar.js');

export const SESSION = { sessionId: 'bench', workspaceRoot: REPO, generation: 1 };
export const TIMEOUTS: Partial<SidecarTimeouts> = {
  handshakeMs: 30_000,
  shutdownRequestMs: 2_000,
  exitGraceMs: 500,
  reapMs: 3_000,
  writeStallMs: 30_000,
};

/** The bench sidecar as plugin `id`; it intercepts input.receive unless `runtime` says otherwise. */
export function benchPlugin(
  id: string,
  runtime: Partial<RuntimeBlock> = {},
  env: Record<string, string> = {},
  protocol: ProtocolVersion = 1,
): PluginSpec {
  return scriptPlugin(id, BENCH_SIDECAR, { protocol, runtime: { env, intercepts: ['input.receive'], ...runtime } });
}

export async function startSidecar(
  plugin: PluginSpec,
  handlers?: HostHandlers,
  timeouts: Partial<SidecarTimeouts> = TIMEOUTS,
): Promise<Sidecar> {
  const s = new Sidecar({ plugin, session: SESSION, uiHost: 'headless', handlers, timeouts });
  await s.start();
  return s;
}
