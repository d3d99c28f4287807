// The runtime of one session (one workspace folder): its current generation, fail-atomic reloads
// (HOST_SPEC §2.7) and per-plugin start/stop/restart. Operations run one at a time, in call
// order, so a reload never interleaves with a restart; stop() cancels a build in progress.
import { silentLogger } from '../log';
import type { PluginSpec } from '../plugins';
import { Emitter, type Disposable } from '../emitter';
import { GenerationError } from './errors';
import { validateSlots } from '../intercepts';
import { RuntimeGeneration, startGeneration, type GenerationOptions } from './generation';
import type { Sidecar } from '../sidecar';
import type { SessionContext, SidecarHandle, SidecarState } from './ports';

/** Where the SessionRuntime's own lifecycle stands (not the `session.*` hook phase). */
export type SessionRuntimePhase = 'idle' | 'starting' | 'running' | 'reloading' | 'failed' | 'stopping' | 'stopped';

export type SessionChange =
  | { kind: 'phase'; phase: SessionRuntimePhase }
  | { kind: 'generation'; generation: number; previous?: number }
  | { kind: 'sidecar'; generation: number; pluginId: string; state: SidecarState };

export type ReloadResult<S extends SidecarHandle = Sidecar> =
  { ok: true; generation: RuntimeGeneration<S> } | { ok: false; error: Error };

/**
 * What reconcile() did: nothing (the plugins are the same), started and stopped only the plugins
 * that changed in the running generation, or built a whole new generation (a reload's result).
 */
export type ReconcileResult<S extends SidecarHandle = Sidecar> =
  | { kind: 'unchanged' }
  | { kind: 'in-place'; added: string[]; removed: string[]; failed: { pluginId: string; error: Error }[] }
  | { kind: 'rebuilt'; result: ReloadResult<S> };

/** A spec's identity for reconcile: the same id with another root, version, manifest or runtime is a change. */
function fingerprint(p: PluginSpec): string {
  return JSON.stringify(p);
}

/** Whether a plugin can join or leave a running generation alone: no dependencies, not required. */
function standsAlone(p: PluginSpec): boolean {
  return p.requires.length === 0 && p.provides.length === 0 && !p.runtime.required;
}

export interface SessionRuntimeOptions<S extends SidecarHandle = Sidecar> extends Omit<
  GenerationOptions<S>,
  'plugins' | 'session' | 'signal'
> {
  /** Stable for the life of the session; chosen by the caller. */
  sessionId: string;
  workspaceRoot: string;
  /** The plugins to run, read again on start and on every reload (e.g. from discoverPlugins). */
  loadPlugins: () => Promise<readonly PluginSpec[]> | readonly PluginSpec[];
  /**
   * Runs on a fully started generation before it is published (the reference's once-per-build
   * `system_prompt.build`). A rejection fails the build like a failing required plugin: the new
   * generation is stopped and the old one keeps running.
   */
  beforePublish?: (generation: RuntimeGeneration<S>) => Promise<void>;
}

export class SessionRuntime<S extends SidecarHandle = Sidecar> {
  readonly sessionId: string;
  readonly workspaceRoot: string;
  private currentGeneration: RuntimeGeneration<S> | undefined;
  private currentSub: Disposable | undefined;
  private counter = 0;
  private phaseNow: SessionRuntimePhase = 'idle';
  private queue: Promise<unknown> = Promise.resolve();
  private building: AbortController | undefined;
  private stagingNow: number | undefined;
  private stopping: Promise<void> | undefined;
  private readonly changed = new Emitter<SessionChange>();
  /** Phase changes, generation swaps and every sidecar state change of the current generation. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly opts: SessionRuntimeOptions<S>) {
    this.sessionId = opts.sessionId;
    this.workspaceRoot = opts.workspaceRoot;
  }

  get current(): RuntimeGeneration<S> | undefined {
    return this.currentGeneration;
  }

  /**
   * The last generation number handed out. It grows on every build attempt (start, reload) and
   * on every single-plugin start/restart, whose sidecar is told the new number while the
   * generation object keeps the number it was built with.
   */
  get generation(): number {
    return this.counter;
  }

  get phase(): SessionRuntimePhase {
    return this.phaseNow;
  }

  /**
   * The generation number of the build in progress, from its first spawn until it is published
   * (the 'generation' change) or fails; undefined otherwise. Its sidecars are *staged*: running,
   * but not yet the session's (HOST_SPEC_V2 §2.4).
   */
  get staging(): number | undefined {
    return this.stagingNow;
  }

  /** Builds the first generation; a no-op returning it when one is running. Rejects with GenerationError. */
  start(): Promise<RuntimeGeneration<S>> {
    return this.serial(async () => {
      if (this.currentGeneration) return this.currentGeneration;
      const r = await this.build('starting');
      if (!r.ok) throw r.error;
      return r.generation;
    });
  }

  /**
   * Builds a fresh generation (all new processes) and only when it is fully up swaps it in and
   * drains the old one. On failure the old generation keeps running and the error is returned.
   */
  reload(): Promise<ReloadResult<S>> {
    return this.serial(() => this.build(this.currentGeneration ? 'reloading' : 'starting'));
  }

  /**
   * Reads the plugins again and brings the running generation in line with minimum disturbance:
   * when only stand-alone plugins were added, removed or changed (no requires/provides, not
   * required, no slot collision), only those start or stop and every other sidecar keeps running;
   * otherwise a whole new generation is built, fail-atomically, as reload() does.
   */
  reconcile(): Promise<ReconcileResult<S>> {
    return this.serial(async (): Promise<ReconcileResult<S>> => {
      const gen = this.currentGeneration;
      if (!gen) return { kind: 'rebuilt', result: await this.build('starting') };
      const next = [...(await this.opts.loadPlugins())];
      const before = new Map(gen.plugins.map((p) => [p.id, p]));
      const after = new Map(next.map((p) => [p.id, p]));
      const removed = [...before.values()].filter(
        (p) => fingerprint(p) !== fingerprint(after.get(p.id) ?? ({} as PluginSpec)),
      );
      const added = next.filter((p) => fingerprint(p) !== fingerprint(before.get(p.id) ?? ({} as PluginSpec)));
      if (removed.length === 0 && added.length === 0) return { kind: 'unchanged' };
      const removedIds = new Set(removed.map((p) => p.id));
      const keptActive = gen.plugins.filter((p) => !removedIds.has(p.id) && !gen.inactive.has(p.id));
      const slots = validateSlots([...keptActive, ...added].map((p) => ({ pluginId: p.id, runtime: p.runtime })));
      if (![...removed, ...added].every(standsAlone) || !slots.ok)
        return { kind: 'rebuilt', result: await this.build('reloading') };
      for (const p of removed) await gen.removePlugin(p.id);
      const failed: { pluginId: string; error: Error }[] = [];
      for (const p of added) {
        gen.addPlugin(p);
        try {
          await gen.startPlugin(p.id, this.nextSession());
        } catch (err) {
          failed.push({ pluginId: p.id, error: err instanceof Error ? err : new Error(String(err)) });
        }
      }
      return { kind: 'in-place', added: added.map((p) => p.id), removed: removed.map((p) => p.id), failed };
    });
  }

  restartPlugin(id: string): Promise<void> {
    return this.serial(() => this.requireCurrent().restartPlugin(id, this.nextSession()));
  }

  startPlugin(id: string): Promise<void> {
    return this.serial(async () => {
      const gen = this.requireCurrent();
      const state = gen.sidecars.get(id)?.state;
      if (state === 'running' || state === 'starting') return;
      await gen.startPlugin(id, this.nextSession());
    });
  }

  stopPlugin(id: string): Promise<void> {
    return this.serial(() => this.requireCurrent().stopPlugin(id));
  }

  /** Cancels a build in progress, stops the current generation; idempotent. */
  stop(): Promise<void> {
    if (!this.stopping) {
      this.building?.abort();
      this.setPhase('stopping');
      const done = this.queue.then(async () => {
        const gen = this.currentGeneration;
        this.currentSub?.dispose();
        this.currentGeneration = undefined;
        await gen?.stop();
        this.setPhase('stopped');
        this.changed.clear();
      });
      this.queue = done;
      this.stopping = done;
    }
    return this.stopping;
  }

  private async build(phase: 'starting' | 'reloading'): Promise<ReloadResult<S>> {
    this.setPhase(phase);
    const controller = new AbortController();
    this.building = controller;
    const session = this.nextSession();
    this.stagingNow = session.generation;
    try {
      return await this.stageAndPublish(session, controller);
    } finally {
      this.stagingNow = undefined;
    }
  }

  private async stageAndPublish(session: SessionContext, controller: AbortController): Promise<ReloadResult<S>> {
    let next: RuntimeGeneration<S>;
    try {
      const plugins = await this.opts.loadPlugins();
      next = await startGeneration<S>({ ...this.opts, plugins, session, signal: controller.signal });
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      (this.opts.logger ?? silentLogger).error(`session ${this.sessionId}: ${error.message}`);
      if (!this.stopping) this.setPhase(this.currentGeneration ? 'running' : 'failed');
      return { ok: false, error };
    } finally {
      this.building = undefined;
    }
    if (!this.stopping && this.opts.beforePublish) {
      try {
        await this.opts.beforePublish(next);
      } catch (err) {
        const error = err instanceof Error ? err : new Error(String(err));
        (this.opts.logger ?? silentLogger).error(`session ${this.sessionId}: ${error.message}`);
        await next.stop();
        if (!this.stopping) this.setPhase(this.currentGeneration ? 'running' : 'failed');
        return { ok: false, error };
      }
    }
    if (this.stopping) {
      await next.stop();
      return {
        ok: false,
        error: new GenerationError('session_stopped', `session ${this.sessionId} was stopped during startup`),
      };
    }
    const old = this.currentGeneration;
    this.currentSub?.dispose();
    this.stagingNow = undefined; // published: from here on its sidecars are the session's
    this.currentGeneration = next;
    this.currentSub = next.onDidChange((e) => this.changed.fire({ kind: 'sidecar', ...e }));
    this.changed.fire({ kind: 'generation', generation: next.generation, previous: old?.generation });
    this.setPhase('running');
    await old?.stop(); // drain the old generation only after the new one is published
    return { ok: true, generation: next };
  }

  private nextSession(): SessionContext {
    this.counter += 1;
    return { sessionId: this.sessionId, workspaceRoot: this.workspaceRoot, generation: this.counter };
  }

  private requireCurrent(): RuntimeGeneration<S> {
    if (this.stopping) throw new GenerationError('session_stopped', `session ${this.sessionId} is stopped`);
    if (!this.currentGeneration)
      throw new Error(`session ${this.sessionId} has no running runtime; start or reload it first`);
    return this.currentGeneration;
  }

  private serial<T>(op: () => Promise<T>): Promise<T> {
    if (this.stopping)
      return Promise.reject(new GenerationError('session_stopped', `session ${this.sessionId} is stopped`));
    const run = this.queue.then(op);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private setPhase(phase: SessionRuntimePhase): void {
    if (phase === this.phaseNow) return;
    this.phaseNow = phase;
    this.changed.fire({ kind: 'phase', phase });
  }
}
