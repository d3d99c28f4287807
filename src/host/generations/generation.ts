// One runtime generation of one session: the set of sidecars started together (HOST_SPEC §2.5).
// Building it is all-or-nothing with respect to required plugins; optional failures are warnings.
// The dependency plan (HOST_SPEC_V2 §11) decides who takes part and in which order: Inactive
// plugins are listed but never spawned, providers start before their consumers and stop after them.
import { silentLogger, type Logger } from '../log';
import type { StartSlots } from './startQueue';
import type { PluginSpec } from '../plugins';
import { Emitter, type Disposable } from '../emitter';
import { GenerationError } from './errors';
import { launchAll, type LaunchResult } from './launch';
import { planDependencies, unmetText, type DependencyPlan, type Unmet } from './dependencies';
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
  /** The window's start queue, shared by every folder's session (absent: this session's own bound only). */
  startSlots?: StartSlots;
  /** This session's standing in that queue (higher first: the folder the user is in). */
  startPriority?: () => number;
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
  private pluginList: PluginSpec[];
  private readonly map = new Map<string, S>();
  private readonly subscriptions = new Map<string, Disposable>();
  private readonly failureList: FailureInfo[];
  private readonly changed = new Emitter<GenerationChange>();
  private readonly inactiveNow: Map<string, readonly Unmet[]>;
  /** Consumers stopped because a provider they require crashed: consumer → that provider. */
  private readonly takenDown = new Map<string, string>();
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
    /** Who takes part and in which order (default: everyone, no dependencies). */
    readonly dependencies: DependencyPlan = noDependencies(plugins),
    /** Plugins left out at launch because a provider they require did not start. */
    blocked: ReadonlyMap<string, readonly Unmet[]> = new Map(),
  ) {
    this.generation = session.generation;
    this.sessionId = session.sessionId;
    this.workspaceRoot = session.workspaceRoot;
    this.pluginList = [...plugins].sort(byId);
    this.failureList = [...failures];
    this.inactiveNow = new Map([...dependencies.inactive, ...blocked]);
    for (const s of [...started].sort((a, b) => (a.pluginId < b.pluginId ? -1 : a.pluginId > b.pluginId ? 1 : 0)))
      this.adopt(s);
  }

  /** Every plugin the generation runs, sorted by id, started or not (built with, or added since). */
  get plugins(): readonly PluginSpec[] {
    return this.pluginList;
  }

  /**
   * Inactive plugins (HOST_SPEC_V2 §11) with what they lack: those the plan left out and those
   * whose required provider did not start (these can be started once it runs).
   */
  get inactive(): ReadonlyMap<string, readonly Unmet[]> {
    return this.inactiveNow;
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

  /**
   * Stops every sidecar, consumers before their providers (HOST_SPEC_V2 §11.6: drain in reverse
   * start order); plugins with no dependency between them stop in parallel, so a folder of v1
   * plugins stops all at once. Idempotent: later calls return the same promise.
   */
  stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = this.drain().then(() => {
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
    this.checkDependencies(id);
    const existing = this.map.get(id);
    session = this.sessionOf(id, session);
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
        this.inactiveNow.delete(id); // its provider runs again: no longer left out
        this.changed.fire({ generation: this.generation, pluginId: id, state: sidecar.state });
      }
      if (this.takenDown.delete(id)) {
        this.inactiveNow.delete(id);
        this.changed.fire({ generation: this.generation, pluginId: id, state: this.map.get(id)?.state ?? 'idle' });
      }
      this.setFailure(id, undefined);
      await this.bringBackConsumersOf(id, session);
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

  /**
   * Adds a plugin to this running generation, not started (startPlugin starts it). Only for a
   * plugin outside the dependency plan (no requires, no provides): the caller checks that, and
   * that its slots do not collide; anything else needs a new generation.
   */
  addPlugin(spec: PluginSpec): void {
    if (this.isStopped)
      throw new GenerationError('session_stopped', `runtime generation ${this.generation} is stopped`);
    if (this.pluginList.some((p) => p.id === spec.id))
      throw new Error(`plugin "${spec.id}" is already part of runtime generation ${this.generation}`);
    this.pluginList = [...this.pluginList, spec].sort(byId);
  }

  /** Stops one plugin and takes it out of this generation (it was uninstalled or disabled). */
  async removePlugin(id: string): Promise<void> {
    this.pluginOf(id);
    const s = this.map.get(id);
    await s?.stop();
    this.map.delete(id);
    this.subscriptions.get(id)?.dispose();
    this.subscriptions.delete(id);
    this.pluginList = this.pluginList.filter((p) => p.id !== id);
    this.inactiveNow.delete(id);
    this.setFailure(id, undefined);
    this.changed.fire({ generation: this.generation, pluginId: id, state: 'stopped' });
  }

  /** Stops one plugin; it stays listed (state 'stopped') and can be started again. */
  async stopPlugin(id: string): Promise<void> {
    this.pluginOf(id);
    await this.map.get(id)?.stop();
  }

  private drain(): Promise<void> {
    const stops = new Map<string, Promise<void>>();
    const stopOne = (id: string): Promise<void> => {
      let p = stops.get(id);
      if (!p) {
        const consumers = this.dependencies.edges.filter((e) => e.provider === id).map((e) => e.consumer);
        const s = this.map.get(id);
        p = Promise.all(consumers.map(stopOne)).then(() =>
          s?.stop().catch((err: unknown) => this.logger.warn(`stopping ${id} failed: ${String(err)}`)),
        );
        stops.set(id, p);
      }
      return p;
    };
    return Promise.all([...this.map.keys()].map(stopOne)).then(() => undefined);
  }

  /** Refuses to start a plugin whose requirements are not all there and running (our policy). */
  private checkDependencies(id: string): void {
    const planned = this.dependencies.inactive.get(id);
    if (planned)
      throw new GenerationError(
        'dependency_unsatisfied',
        `plugin "${id}" is inactive: ${unmetText(planned)}. Add or enable a plugin that provides it in this folder, then reload the runtime.`,
        [],
        id,
      );
    const down = this.dependencies.edges.filter(
      (e) => e.consumer === id && !e.optional && this.map.get(e.provider)?.state !== 'running',
    );
    if (down.length)
      throw new GenerationError(
        'dependency_unsatisfied',
        `plugin "${id}" was not started: ${down.map((e) => `its required capability ${e.key} comes from "${e.provider}", which is not running`).join('; ')}. Start "${down[0].provider}" first.`,
        [],
        id,
      );
  }

  /** The session a plugin is told about: the generation's, with its epoch when it has one (§2.2). */
  private sessionOf(id: string, session: SessionContext): SessionContext {
    const epoch = this.dependencies.epochs.get(id);
    return epoch === undefined ? session : { ...session, epoch };
  }

  private pluginOf(id: string): PluginSpec {
    if (this.isStopped)
      throw new GenerationError('session_stopped', `runtime generation ${this.generation} is stopped`);
    const plugin = this.pluginList.find((p) => p.id === id);
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
      s.onStateChange(() => {
        // A provider that crashes takes its consumers with it, as one that fails at start leaves
        // them Inactive (issue 45 item 10): they stop, their tools and models leave the listings.
        if (s.state === 'crashed' && !this.isStopped) this.takeDownConsumersOf(s.pluginId, 'crashed');
        this.changed.fire({ generation: this.generation, pluginId: s.pluginId, state: s.state });
      }),
    );
  }

  /**
   * Marks every running consumer that requires `id` Inactive (`dependency_unsatisfied`, "its
   * provider <id> crashed") and stops it; their own consumers follow. They come back when the
   * provider is restarted (`bringBackConsumersOf`) or at the next reload.
   */
  private takeDownConsumersOf(id: string, what: 'crashed' | 'is inactive'): void {
    const byConsumer = new Map<string, Unmet[]>();
    for (const e of this.dependencies.edges) {
      if (e.provider !== id || e.optional || this.inactiveNow.has(e.consumer)) continue;
      const list = byConsumer.get(e.consumer) ?? [];
      list.push({ key: e.key, reason: 'dependency_unsatisfied', why: `its provider ${id} ${what}` });
      byConsumer.set(e.consumer, list);
    }
    for (const [consumer, unmet] of byConsumer) {
      this.inactiveNow.set(consumer, unmet);
      this.takenDown.set(consumer, id);
      this.logger.warn(`[${consumer}] state=Inactive - ${unmetText(unmet)}`);
      const sidecar = this.map.get(consumer);
      if (sidecar && sidecar.state !== 'stopped' && sidecar.state !== 'crashed' && sidecar.state !== 'failed')
        sidecar.stop().catch((err: unknown) => this.logger.warn(`stopping ${consumer} failed: ${String(err)}`));
      this.changed.fire({ generation: this.generation, pluginId: consumer, state: sidecar?.state ?? 'idle' });
      this.takeDownConsumersOf(consumer, 'is inactive');
    }
  }

  /** After `id` runs again: starts the consumers its crash took down whose providers all run. */
  private async bringBackConsumersOf(id: string, session: SessionContext): Promise<void> {
    for (const [consumer, provider] of [...this.takenDown]) {
      if (provider !== id) continue;
      const providersUp = this.dependencies.edges
        .filter((e) => e.consumer === consumer && !e.optional)
        .every((e) => this.map.get(e.provider)?.state === 'running');
      if (!providersUp) continue;
      await this.restartPlugin(consumer, { ...session }).catch((err: unknown) =>
        this.logger.warn(`[${consumer}] could not be started again after ${id} came back: ${String(err)}`),
      );
    }
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
 * Builds one generation: plans its dependencies and refuses slot collisions before anything
 * spawns, launches the active plugins in start order (at most `maxConcurrent` at once, one shared
 * budget, each after its providers), then evaluates results in plugin id order. A failed required
 * plugin whose dependencies were satisfied fails the build (`activation_failed`) and every sidecar
 * that did start is stopped. With no plugins nothing is spawned at all.
 */
export async function startGeneration<S extends SidecarHandle = Sidecar>(
  opts: GenerationOptions<S>,
): Promise<RuntimeGeneration<S>> {
  const logger = opts.logger ?? silentLogger;
  const plugins = [...opts.plugins].sort(byId);
  const plan = planGeneration(plugins, opts.session.generation);
  for (const [id, unmet] of plan.inactive) logger.info(`[${id}] state=Inactive - ${unmetText(unmet)}`);
  for (const note of plan.notes) logger.info(note);

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
  const build = (started: S[], failures: FailureInfo[], blocked?: Map<string, Unmet[]>) =>
    new RuntimeGeneration<S>(opts.session, plugins, started, failures, create, logger, plan, blocked);
  if (plan.order.length === 0) return build([], []);

  const epochOf = (p: PluginSpec) => plan.epochs.get(p.id);
  const results = await launchAll<S>({
    plugins: plan.order,
    waitFor: (p) =>
      plan.edges.filter((e) => e.consumer === p.id).map((e) => ({ id: e.provider, required: !e.optional })),
    create: (plugin) => create(plugin, epochOf(plugin) ? { ...opts.session, epoch: epochOf(plugin) } : opts.session),
    maxConcurrent: opts.maxConcurrent ?? DEFAULT_MAX_CONCURRENT,
    budgetMs: opts.budgetMs ?? DEFAULT_STARTUP_BUDGET_MS,
    signal: opts.signal,
    slots: opts.startSlots,
    priority: opts.startPriority,
  });
  const byPlugin = [...results].sort((a, b) => byId(a.plugin, b.plugin));
  const started = byPlugin.flatMap((r) => (r.ok ? [r.sidecar] : []));
  const failures = byPlugin.flatMap((r) => (!r.ok && 'info' in r ? [r.info] : []));
  const blocked = blockedPlugins(byPlugin, plan);
  const stopStarted = () => Promise.all(started.map((s) => s.stop().catch(() => undefined)));

  const fatal = byPlugin.find((r) => !r.ok && 'info' in r && r.plugin.runtime.required);
  if (fatal && !fatal.ok && 'info' in fatal) {
    await stopStarted();
    const { pluginId, stage, message } = fatal.info;
    throw new GenerationError(
      'required_failed',
      `runtime generation ${opts.session.generation} failed (activation_failed): required plugin "${pluginId}" did not start (${stage}): ${message}`,
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
  for (const [id, unmet] of blocked) logger.warn(`[${id}] state=Inactive - ${unmetText(unmet)}`);
  return build(started, failures, blocked);
}

/** Duplicate ids, the dependency plan and slot collisions: everything that fails a build before a spawn. */
function planGeneration(plugins: readonly PluginSpec[], generation: number): DependencyPlan {
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
  const planned = planDependencies(plugins);
  if (!planned.ok)
    throw new GenerationError(
      planned.reason,
      `runtime generation ${generation} not started: ${planned.message}`,
      [],
      planned.pluginIds[0],
    );
  // Inactive plugins take no part in the chain, so only the active ones can collide.
  const slots = validateSlots(planned.plan.order.map((p) => ({ pluginId: p.id, runtime: p.runtime })));
  if (!slots.ok)
    throw new GenerationError('slot_collision', `runtime generation ${generation} not started: ${slots.message}`);
  return planned.plan;
}

/** Consumers not launched because a provider they require did not start, with the keys they lack. */
function blockedPlugins<S>(results: readonly LaunchResult<S>[], plan: DependencyPlan): Map<string, Unmet[]> {
  const out = new Map<string, Unmet[]>();
  for (const r of results) {
    if (r.ok || !('blockedBy' in r)) continue;
    const unmet = plan.edges
      .filter((e) => e.consumer === r.plugin.id && !e.optional && r.blockedBy.includes(e.provider))
      .map((e): Unmet => ({
        key: e.key,
        reason: 'dependency_unsatisfied',
        why: `its provider ${e.provider} did not start`,
      }));
    out.set(r.plugin.id, unmet);
  }
  return out;
}

/** The plan of plugins with no dependencies: everyone active, in id order. */
function noDependencies(plugins: readonly PluginSpec[]): DependencyPlan {
  return { order: [...plugins].sort(byId), inactive: new Map(), edges: [], epochs: new Map(), notes: [] };
}
