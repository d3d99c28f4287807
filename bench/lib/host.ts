// The measured side: the real host (Sidecar, dispatcher, hubs) against the bench sidecar.
import * as path from 'node:path';
import type { PluginSpec, RuntimeBlock } from '../../src/host/plugins/types';
import { Sidecar, type HostHandlers, type SidecarTimeouts } from '../../src/host/sidecar';

// out/bench/lib → repo root
export const REPO = path.resolve(__dirname, '../../..');
export const BENCH_SIDECAR = path.join(REPO, 'bench/sidecars/bench-sidecar.js');

export const SESSION = { sessionId: 'bench', workspaceRoot: REPO, generation: 1 };
export const TIMEOUTS: Partial<SidecarTimeouts> = { handshakeMs: 30_000, shutdownRequestMs: 2_000, exitGraceMs: 500, reapMs: 3_000, writeStallMs: 30_000 };

export function benchPlugin(id: string, runtime: Partial<RuntimeBlock> = {}, env: Record<string, string> = {}): PluginSpec {
  return {
    id,
    root: path.dirname(BENCH_SIDECAR),
    version: '1.0.0',
    manifestPath: path.join(path.dirname(BENCH_SIDECAR), 'reasonix-plugin.json'),
    source: 'linked',
    runtime: {
      command: process.execPath,
      args: [BENCH_SIDECAR],
      env,
      required: false,
      priority: 0,
      intercepts: ['input.receive'],
      replaces: [],
      capabilities: [],
      timeoutMillis: 0,
      ...runtime,
    },
  };
}

export async function startSidecar(plugin: PluginSpec, handlers?: HostHandlers, timeouts: Partial<SidecarTimeouts> = TIMEOUTS): Promise<Sidecar> {
  const s = new Sidecar({ plugin, session: SESSION, uiHost: 'headless', handlers, timeouts });
  await s.start();
  return s;
}
