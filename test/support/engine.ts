// One folder's session engine as the unit tests start it: real sidecars (the plugin folders given),
// an empty Reasonix home in `base`, no front end (every prompt is cancelled), short shutdown
// timeouts so a test takes milliseconds to stop it. The engine the faces build, with test settings.
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '../../src/host/log';
import {
  createSessionEngine,
  type SessionEngine,
  type CompositionDeps,
  type SessionEngineOptions,
} from '../../src/host/session';
import { Sidecar } from '../../src/host/sidecar';
import { SurfaceStore } from '../../src/host/ui';

/** A logger that keeps every line (trace aside) in `lines`. */
export function recordingLogger(lines: string[] = []): Logger & { lines: string[] } {
  const keep = (m: string) => void lines.push(m);
  return { lines, trace: () => {}, debug: keep, info: keep, warn: keep, error: keep };
}

export interface TestEngineOptions {
  /** A temporary folder: the workspace root, and `home/` in it the Reasonix home. */
  base: string;
  /** The plugin folders the session runs (as linked development folders). */
  plugins: readonly string[] | (() => readonly string[]);
  logger?: Logger;
  /** Overrides of the session's options (sessionId, workspaceRoot, startupBudgetMs…). */
  options?: Partial<SessionEngineOptions>;
  /** Overrides of the engine's dependencies (tools bounds, store…). */
  deps?: Partial<CompositionDeps>;
}

/** The engine, not started yet (its home, `base/home` or `options.home`, is made if missing). */
export function testEngine(o: TestEngineOptions): SessionEngine {
  const home = o.options?.home ?? path.join(o.base, 'home');
  mkdirSync(home, { recursive: true });
  const plugins = o.plugins;
  return createSessionEngine(
    {
      sessionKey: o.base,
      sessionId: 'test-session',
      folderName: 'ws',
      workspaceRoot: o.base,
      home,
      linked: typeof plugins === 'function' ? plugins : () => plugins,
      disabled: () => [],
      frontEnd: { notify() {}, prompt: async () => ({ cancelled: true }) },
      maxParallelStarts: 4,
      startupBudgetMs: 10_000,
      ...o.options,
    },
    {
      createSidecar: (so) => new Sidecar(so),
      store: new SurfaceStore(),
      logger: o.logger ?? recordingLogger(),
      timeouts: { shutdownRequestMs: 500, exitGraceMs: 200, reapMs: 2000 },
      ...o.deps,
    },
  );
}

/** The engine, started (a required plugin that fails to start rejects, as the engine does). */
export async function startTestEngine(o: TestEngineOptions): Promise<SessionEngine> {
  const engine = testEngine(o);
  await engine.start();
  return engine;
}
