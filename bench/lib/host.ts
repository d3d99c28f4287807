// The measured side: the real host (Sidecar, dispatcher, hubs) against the bench sidecar.
import * as path from 'node:path';
import type { PluginSpec, ProtocolVersion, RuntimeBlock } from '../../src/host/plugins/types';
import type { Logger } from '../../src/host/log';
import type { SessionEngine } from '../../src/host/session';
import { Sidecar, type HostHandlers, type SidecarTimeouts } from '../../src/host/sidecar';
import { testEngine } from '../../test/support/engine';
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

export const quiet: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/**
 * A folder's session engine over linked plugin folders, as a window or the CLI makes one; every
 * Sidecar it creates is also pushed to `created` (a floor over the same child: bench/lib/sameChild.ts).
 */
export function folderEngine(ws: string, home: string, plugins: string[], created: Sidecar[] = []): SessionEngine {
  return testEngine({
    base: ws,
    plugins,
    logger: quiet,
    options: { sessionId: 'bench', home, startupBudgetMs: 30_000 },
    deps: {
      createSidecar: (o) => {
        const s = new Sidecar(o);
        created.push(s);
        return s;
      },
      timeouts: undefined, // the engine's own shutdown timeouts, as a window runs it
    },
  });
}
