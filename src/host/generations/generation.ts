// One runtime generation of one session: the set of sidecars started together (HOST_SPEC §2.5).
// Building it is all-or-nothing with respect to required plugins; optional failures are warnings.
import { silentLogger, type Logger } from '../log';
import type { PluginSpec } from '../plugins';
import { Emitter, type Disposable } from '../emitter';
import { GenerationError } from './errors';
import { launchAll } from './launch';
import type { Sidecar } from '../sidecar';
import {
  failureOf,
  realSidecarFactory,
  type FailureInfo,
  type HostHandlers,
  type SessionContext,
  type SidecarFactory,
  type SidecarHandle,
  type SidecarState,
  type SidecarTimeouts,
  type UiHost,
} from './ports';
import { validateSlots } from '../intercepts';

export const DEFAULT_MAX_CONCURRENT = 4;
export const DEFAULT_STARTUP_BUDGET_MS = 30_000;

export interface GenerationOptions<S extends SidecarHandle = Sidecar> {
  /** The runnable plugins of the session (discovery's `plugins`). */
  plugins: readonly PluginSpec[];
  session: SessionContext;
  /** What `extension/initialize` tells sidecars about the UI ('desktop' when surfaces render). */
  uiHost: UiHost;
  /** Builds the host-side handlers of one plugin's connection. */
  handlers?: (plugin: PluginSpec) => HostHandlers;
  /** Default: the real Sidecar. Required when S is anything else. */
  sidecarFactory?: SidecarFactory<S>;
  timeouts?: Partial<SidecarTimeouts>;
  logger?: Logger;
  /** Sidecars handshaking at the same time (default 4). */
  maxConcurrent?: number;
  /** One budget for the whole startup (default 30 s). */
  budgetMs?: number;
  /** Cancels the build: pending launches fail, sidecars still starting are stopped. */
  signal?: AbortSignal;
}

export interface GenerationChange {
  generation: number;
  pluginId: string;
  state: SidecarState;
}

const byId = (a: PluginSpec, b: PluginSpec) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export class RuntimeGeneration<S extends SidecarHandle = Sidecar> {
  readonly generation: number;
  readonly sessionId: string;
  readonly workspaceRoot: string;
  /** Every plugin the generation was built for, sorted by id, started or not. */
  readonly plugins: readonly PluginSpec[];
  private readonly map = new Map<string, S>();
  private readonly subscriptions = new Map<string, Disposable>();
  private readonly failureList: FailureInfo[];
  private readonly changed = new Emitter<GenerationChange>();
  private stopping: Promise<void> | undefined;
  /** Fires on every state change of any of its sidecars. */
  readonly onDidChange = this.changed.event;

  constructor(
    session: SessionContext,
    plugins: readonly PluginSpec[],
    started: readonly S[],
    failures: readonly FailureInfo[],
    private readonly create: (plugin: PluginSpec, session: SessionContext) => S,
    private readonly logger: Logger = silentLogger,
  ) {
    this.generation = session.generation;
    this.sessionId = session.sessionId;
    this.workspaceRoot = session.workspaceRoot;
    this.plugins = [...plugins].sort(byId);
    this.failureList = [...failures];
    for (const s of started) this.adopt(s);
  }

  /**
   * Sidecars that started in this generation (in plugin id order), whatever their state now:
   * a stopped or crashed one stays listed so it can be shown and restarted.
   */
  get sidecars(): ReadonlyMap<string, S> {
    return this.map;
  }

  /** Startup failures of optional plugins (warnings), latest per plugin. */
  get failures(): readonly FailureInfo[] {
    return this.failureList;
  }

  get isStopped(): boolean {
    return this.stopping !== undefined;
  }

  /** Stops every sidecar in parallel. Idempotent: later calls return the same promise. */
  stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = Promise.all(
        [...this.map.values()].map((s) =>
          s.stop().catch((err: unknown) => this.logger.warn(`stopping ${s.pluginId} failed: ${String(err)}`)),
        ),
      ).then(() => {
        for (const d of this.subscriptions.values()) d.dispose();
        this.subscriptions.clear();
        this.changed.clear();
      });
    }
    return this.stopping;
  }

  /**
   * (Re)starts one plugin of this generation with the given session context (the caller decides
   * its generation number). Works from every state, including after a failed first start.
   * Rejects with the sidecar's start error; the generation itself is never failed by this.
   */
  async restartPlugin(id: string, session: SessionContext): Promise<void> {
    const plugin = this.pluginOf(id);
    const existing = this.map.get(id);
    try {
      if (existing) {
        await existing.restart(session);
      } else {
        const sidecar = this.create(plugin, session);
        try {
          await sidecar.start();
        } catch (err) {
          await sidecar.stop().catch(() => undefined); // a failed start must leave no process
          throw err;
        }
        if (this.isStopped) {
          await sidecar.stop(); // the generation was stopped meanwhile; do not leak the process
          throw new GenerationError(
            'session_stopped',
            `runtime generation ${this.generation} was stopped while "${id}" was starting`,
          );
        }
        this.adopt(sidecar);
        this.changed.fire({ generation: this.generation, pluginId: id, state: sidecar.state });
      }
      this.setFailure(id, undefined);
    } catch (err) {
      this.setFailure(id, failureOf(err, id, 0));
      throw err;
    }
  }

  /** Starts a plugin that is not running (no-op when it is running or starting). */
  async startPlugin(id: string, session: SessionContext): Promise<void> {
    const state = this.map.get(id)?.state;
    if (state === 'running' || state === 'starting') return;
    await this.restartPlugin(id, session);
  }

  /** Stops one plugin; it stays listed (state 'stopped') and can be started again. */
  async stopPlugin(id: string): Promise<void> {
    this.pluginOf(id);
    await this.map.get(id)?.stop();
  }

  private pluginOf(id: string): PluginSpec {
    if (this.isStopped)
      throw new GenerationError('session_stopped', `runtime generation ${this.generation} is stopped`);
    const plugin = this.plugins.find((p) => p.id === id);
    if (!plugin)
      throw new Error(
        `plugin "${id}" is not part of runtime generation ${this.generation}; reload the runtime to pick up new plugins`,
      );
    return plugin;
  }

  private adopt(s: S): void {
    this.map.set(s.pluginId, s);
    this.subscriptions.get(s.pluginId)?.dispose();
    this.subscriptions.set(
      s.pluginId,
      s.onStateChange(() => this.changed.fire({ generation: this.generation, pluginId: s.pluginId, state: s.state })),
    );
  }

  private setFailure(id: string, info: FailureInfo | undefined): void {
    const i = this.failureList.findIndex((f) => f.pluginId === id);
    if (i >= 0) this.failureList.splice(i, 1);
    if (info) {
      this.failureList.push(info);
      this.failureList.sort((a, b) => (a.pluginId < b.pluginId ? -1 : a.pluginId > b.pluginId ? 1 : 0));
    }
  }
}

/**
 * Builds one generation: refuses slot collisions before anything spawns, launches the sidecars
 * (at most `maxConcurrent` at once, one shared budget), then evaluates results in plugin id
 * order. A failed required plugin fails the build and every sidecar that did start is stopped.
 * With no plugins nothing is spawned at all.
 */
export async function startGeneration<S extends SidecarHandle = Sidecar>(
  opts: GenerationOptions<S>,
): Promise<RuntimeGeneration<S>> {
  const logger = opts.logger ?? silentLogger;
  const plugins = [...opts.plugins].sort(byId);
  for (let i = 1; i < plugins.length; i++) {
    if (plugins[i].id === plugins[i - 1].id) {
      throw new GenerationError(
        'duplicate_plugin',
        `plugin id "${plugins[i].id}" appears twice (${plugins[i - 1].root} and ${plugins[i].root})`,
        [],
        plugins[i].id,
      );
    }
  }
  const slots = validateSlots(plugins.map((p) => ({ pluginId: p.id, runtime: p.runtime })));
  if (!slots.ok)
    throw new GenerationError(
      'slot_collision',
      `runtime generation ${opts.session.generation} not started: ${slots.message}`,
    );

  // Without a factory S is the real Sidecar (the type default); the cast only restates that.
  const factory = opts.sidecarFactory ?? (realSidecarFactory as unknown as SidecarFactory<S>);
  const create = (plugin: PluginSpec, session: SessionContext): S =>
    factory({
      plugin,
      session,
      uiHost: opts.uiHost,
      handlers: opts.handlers?.(plugin),
      timeouts: opts.timeouts,
      logger, // the sidecar prefixes its lines with its own id
    });
  if (plugins.length === 0) return new RuntimeGeneration<S>(opts.session, [], [], [], create, logger);

  const results = await launchAll<S>({
    plugins,
    create: (plugin) => create(plugin, opts.session),
    maxConcurrent: opts.maxConcurrent ?? DEFAULT_MAX_CONCURRENT,
    budgetMs: opts.budgetMs ?? DEFAULT_STARTUP_BUDGET_MS,
    signal: opts.signal,
  });
  const started = results.flatMap((r) => (r.ok ? [r.sidecar] : []));
  const failures = results.flatMap((r) => (r.ok ? [] : [r.info]));
  const stopStarted = () => Promise.all(started.map((s) => s.stop().catch(() => undefined)));

  const fatal = results.find((r) => !r.ok && r.plugin.runtime.required);
  if (fatal && !fatal.ok) {
    await stopStarted();
    const { pluginId, stage, message } = fatal.info;
    throw new GenerationError(
      'required_failed',
      `runtime generation ${opts.session.generation} failed: required plugin "${pluginId}" did not start (${stage}): ${message}`,
      failures,
      pluginId,
    );
  }
  if (opts.signal?.aborted) {
    await stopStarted();
    throw new GenerationError(
      'cancelled',
      `runtime generation ${opts.session.generation} was cancelled during startup`,
      failures,
    );
  }
  for (const f of failures) logger.warn(`optional plugin "${f.pluginId}" did not start (${f.stage}): ${f.message}`);
  return new RuntimeGeneration<S>(opts.session, plugins, started, failures, create, logger);
}
