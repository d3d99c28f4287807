// Builds one folder's SessionEngine from the engine modules: discovery → SessionRuntime (one
// generation at a time) with, per sidecar, the UI hub binding, a stream hub, crash reporting;
// plus intercept dispatch over the live sidecars and the provider catalog. The only place in
// host that knows how the engine pieces fit together.
import type { Logger } from '../log';
import { scopedLogger } from '../log';
import { discoverPlugins } from '../plugins';
import type { PluginEntry, PluginSpec } from '../plugins';
import {
  createDispatcher,
  checkHookPayload,
  offlineClient,
  interceptClientFor,
  isHookPoint,
  type InterceptDispatcher,
} from '../intercepts';
import {
  GenerationError,
  SessionRuntime,
  unmetText,
  type RuntimeGeneration,
  type SidecarFactory,
} from '../generations';
import { Emitter } from '../emitter';
import { redact } from '../redact';
import type { ToolArgumentChecker } from '../arguments';
import type { callTool } from '../tools';
import { join } from 'node:path';
import { failureOf, SidecarFailure, type Sidecar, type SidecarOptions } from '../sidecar';
import {
  catalog,
  resolveProviderRef,
  streamHandlers,
  StreamHub,
  UnknownModelError,
  type ProviderDeclarations,
  type ProviderRequestInput,
} from '../streams';
import { attachSidecar, uiHandlers, UiHub, type SurfaceStore } from '../ui';
import { PluginRecords, type PluginRecord } from './pluginRecord';
import { contractFor } from '../../protocol';
import {
  listTools,
  toolClientFor,
  ToolCaller,
  toolListKey,
  withheldTools,
  type ToolCallerOptions,
  type ToolCallOptions,
  type ToolCallOutcome,
  type ToolClient,
  type ToolInfo,
  type ToolRef,
} from '../tools';
import type { EngineState } from './types';
import type {
  ActionResult,
  DispatchCallOptions,
  HookMember,
  Disposable,
  FailureInfo,
  HookOutcome,
  ModelInfo,
  PluginStatus,
  SessionEngine,
  SessionEngineOptions,
  StreamHandle,
} from './types';

/** The engine's sidecar; the factory decides how it logs. */
export type HostSidecar = Sidecar;

export interface CompositionDeps {
  createSidecar: SidecarFactory;
  store: SurfaceStore;
  logger: Logger;
  /** Sidecar timeouts (tests shrink them). */
  timeouts?: SidecarOptions['timeouts'];
  /** Tool-call budget and concurrency bound (tests shrink them; defaults HOST_SPEC_V2 §12). */
  tools?: Omit<ToolCallerOptions, 'logger'>;
  /**
   * A tool call's own path: the chain around `extension/tool/call` and the input-schema check of its
   * arguments (issue 45 item 7), asked for on the first tool call. The CLI passes it bundled; the
   * extension requires it as its own bundle, so activation carries neither (nor ajv). Absent, it is
   * required from the compiled sources (tests).
   */
  toolCalls?: () => ToolCallsModule;
}

/** What dist/tool-calls.js (src/toolCalls.ts) exports. */
export interface ToolCallsModule {
  callTool: typeof callTool;
  toolArgumentChecker: ToolArgumentChecker;
}

/** src/toolCalls.ts as tsc compiled it (out/src/), required by path so no bundle pulls it in. */
function compiledToolCalls(): ToolCallsModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(join(__dirname, '..', '..', 'toolCalls.js')) as ToolCallsModule;
}

export function createSessionEngine(opts: SessionEngineOptions, deps: CompositionDeps): SessionEngine {
  return new ComposedSession(opts, deps);
}

class ComposedSession implements SessionEngine {
  private readonly hub: UiHub;
  private readonly runtime: SessionRuntime<Sidecar>;
  /** One record per wired sidecar: everything the session keeps about a running plugin. */
  private readonly records = new PluginRecords();
  private entries: PluginEntry[] = [];
  private runnable: PluginSpec[] = [];
  private readonly changed = new Emitter<void>();
  private readonly crashed = new Emitter<FailureInfo>();
  private readonly startFailed = new Emitter<FailureInfo>();
  private readonly toolsChanged = new Emitter<void>();
  private toolsKey = toolListKey([]);
  /** The withheld tools and uncompilable schemas already logged (each problem once per session). */
  private readonly withheldLogged = new Set<string>();
  private toolCallsModule?: ToolCallsModule;
  private readonly log: Logger;
  private cachedDispatcher?: { generation: unknown; sidecars: Sidecar[]; dispatcher: InterceptDispatcher };
  private cachedOffline?: { plugins: PluginSpec[]; dispatcher: InterceptDispatcher };

  constructor(
    private readonly opts: SessionEngineOptions,
    private readonly deps: CompositionDeps,
  ) {
    this.log = scopedLogger(deps.logger, opts.folderName);
    this.hub = new UiHub({
      sessionKey: opts.sessionKey,
      folderName: opts.folderName,
      store: deps.store,
      frontEnd: opts.frontEnd,
      logger: this.log,
    });
    this.runtime = new SessionRuntime<Sidecar>({
      sessionId: opts.sessionId,
      workspaceRoot: opts.workspaceRoot,
      uiHost: 'desktop',
      loadPlugins: () => this.discover(),
      sidecarFactory: (init) => this.wire(init),
      timeouts: deps.timeouts,
      logger: this.log,
      maxConcurrent: opts.maxParallelStarts,
      budgetMs: opts.startupBudgetMs,
      startSlots: opts.startSlots,
      startPriority: opts.startPriority,
      beforePublish: (gen) => this.buildSystemPrompt(gen),
    });
    this.runtime.onDidChange((e) => {
      // Published: the staged sidecars' UI bindings become the session's (HOST_SPEC_V2 §2.4).
      if (e.kind === 'generation') this.hub.commit(e.generation);
      // What a replaced or failed build wired is let go of (records.prune keeps what can be asked).
      this.records.prune(new Set(this.runtime.current?.sidecars.values() ?? []));
      this.changed.fire();
    });
    // Discovery, generation swaps and every sidecar state change fire `changed`; the tool listing follows.
    this.changed.event(() => {
      for (const w of withheldTools(this.toolClients())) this.warnOnce(w.problem);
      const key = toolListKey(this.tools());
      if (key === this.toolsKey) return;
      this.toolsKey = key;
      this.toolsChanged.fire();
    });
  }

  private async discover(): Promise<PluginSpec[]> {
    const r = await discoverPlugins({
      home: this.opts.home,
      linked: this.opts.linked(),
      disabled: this.opts.disabled(),
    });
    for (const p of r.problems) this.log.warn(p);
    for (const w of r.warnings) this.log.warn(w);
    for (const e of r.entries)
      if (e.status !== 'runnable' && e.reason) this.log.info(`[${e.id}] not started: ${e.reason}`);
    this.entries = r.entries;
    this.runnable = r.plugins;
    this.log.info(`discovered ${r.plugins.length} runnable extension(s) in ${this.opts.home}`);
    this.changed.fire();
    return r.plugins;
  }

  /**
   * Every new sidecar gets its record: its handlers (the UI hub's and its own stream hub's), its
   * binding in the UI hub, its tool port and call queue, its crash reported once.
   */
  private wire(init: SidecarOptions): Sidecar {
    const plugin = init.plugin;
    const id = plugin.id;
    const own: { record?: PluginRecord } = {}; // filled in below, before the sidecar can send anything
    const handlers = {
      ...init.handlers,
      ...uiHandlers(this.hub, id, {
        undeclared:
          contractFor(plugin.protocol).features.uiNeedsCapability && !plugin.runtime.capabilities.includes('ui'),
        warn: (m) => this.log.warn(`[${id}] ${m}`),
      }),
      ...streamHandlers(() => own.record?.streams),
    };
    const s = this.deps.createSidecar({ ...init, handlers, logger: this.log }); // the sidecar prefixes its own id
    const tools = toolClientFor(s);
    const rec: PluginRecord = {
      sidecar: s,
      streams: new StreamHub(s, { logger: this.log }),
      tools,
      caller: new ToolCaller(tools, { ...this.deps.tools, logger: this.log }),
      actions: this.records.newest(id)?.actions ?? [],
      subscriptions: [
        attachSidecar(this.hub, s, (generation) =>
          this.runtime.staging !== generation ? undefined : this.runtime.current ? 'reload' : 'boot',
        ),
        s.onCrash((info) => {
          rec.crash = info;
          this.crashed.fire(info);
        }),
        s.onStateChange((state) => {
          if (state === 'running') {
            rec.actions = s.uiActions;
            rec.crash = undefined;
            this.deps.store.clearStale(this.opts.sessionKey, id);
          }
          this.changed.fire();
        }),
      ],
    };
    own.record = rec;
    this.records.set(s, rec);
    return s;
  }

  get sessionId(): string {
    return this.opts.sessionId;
  }

  get generation(): number {
    return this.runtime.generation;
  }

  plugins(): PluginStatus[] {
    const gen = this.runtime.current;
    const out: PluginStatus[] = [];
    const failures = new Map((gen?.failures ?? []).map((f) => [f.pluginId, f]));
    const starting = this.runtime.phase === 'starting' || this.runtime.phase === 'reloading';
    for (const spec of gen?.plugins ?? this.runnable) {
      const unmet = gen?.inactive.get(spec.id);
      if (unmet) {
        out.push({
          pluginId: spec.id,
          spec,
          state: 'inactive',
          actions: [],
          inactive: unmet,
          detail: unmetText(unmet),
          origin: spec.source,
        });
        continue;
      }
      const s = gen?.sidecars.get(spec.id);
      const rec = (s && this.records.get(s)) ?? this.records.newest(spec.id);
      const failure = rec?.crash ?? failures.get(spec.id);
      let state: EngineState = s?.state ?? (failure ? 'failed' : starting ? 'starting' : 'idle');
      if (state === 'idle' && failure) state = 'failed';
      const actions = (s?.state === 'running' ? s.uiActions : (rec?.actions ?? [])).map((a) => ({
        actionId: a.actionId,
        label: a.label ?? a.actionId,
      }));
      out.push({
        pluginId: spec.id,
        spec,
        state,
        pid: s?.state === 'running' || s?.state === 'starting' ? s.pid : undefined,
        readyAt: s?.state === 'running' ? s.readyAt : undefined,
        actions,
        lastFailure: state === 'running' || state === 'starting' ? undefined : failure,
        origin: spec.source,
      });
    }
    for (const e of this.entries) {
      if (e.status === 'runnable' || e.status === 'no-runtime') continue;
      if (out.some((p) => p.pluginId === e.id)) continue;
      out.push({
        pluginId: e.id,
        spec: e.spec,
        state: e.status === 'disabled' ? 'disabled' : 'failed',
        actions: [],
        detail: e.reason,
        origin: e.origin,
        disabledBy: e.disabledBy,
      });
    }
    return out.sort((a, b) => (a.pluginId < b.pluginId ? -1 : a.pluginId > b.pluginId ? 1 : 0));
  }

  async start(): Promise<void> {
    const gen = await this.runtime.start();
    for (const f of gen.failures) this.startFailed.fire(f);
    this.observe('session.start', { phase: 'start' });
  }

  async reload(): Promise<void> {
    const r = await this.runtime.reload();
    if (!r.ok) throw r.error;
    for (const f of r.generation.failures) this.startFailed.fire(f);
    this.observe('session.start', { phase: 'start' }); // fresh processes: a new session for them
  }

  async reconcile(): Promise<'unchanged' | 'in-place' | 'rebuilt'> {
    const r = await this.runtime.reconcile();
    if (r.kind === 'rebuilt') {
      if (!r.result.ok) throw r.result.error;
      for (const f of r.result.generation.failures) this.startFailed.fire(f);
      this.observe('session.start', { phase: 'start' }); // fresh processes: a new session for them
    } else if (r.kind === 'in-place') {
      for (const id of r.removed) {
        if (r.added.includes(id)) continue; // changed: its new sidecar has its own record already
        this.records.drop((rec) => rec.sidecar.pluginId === id);
        this.deps.store.clearStale(this.opts.sessionKey, id);
      }
      for (const f of r.failed) this.startFailed.fire(failureOf(f.error, f.pluginId, 0));
      this.log.info(
        `extensions changed in place: ${[...r.added.map((id) => `+${id}`), ...r.removed.map((id) => `-${id}`)].join(' ')}`,
      );
      this.changed.fire();
    }
    return r.kind;
  }

  /**
   * The reference runs `system_prompt.build` once per runtime build and fails the build when the
   * `system_prompt` owner blocks or fails (HOST_SPEC §4.0, case 40). VS Code has no system prompt
   * of its own, so the host default is the empty prompt; the owner's answer has no consumer here,
   * but owners and listeners see the same lifecycle as in Reasonix (docs/DESIGN.md).
   */
  private async buildSystemPrompt(gen: RuntimeGeneration<Sidecar>): Promise<void> {
    const sidecars = [...gen.sidecars.values()];
    if (sidecars.length === 0) return; // no runtime: no process, no JSON
    const dispatcher = this.dispatcherFor(gen, sidecars);
    const out = await dispatcher.dispatch('system_prompt.build', {
      prompt: '',
      workspaceRoot: this.opts.workspaceRoot,
    });
    if (out.decision !== 'block' && out.decision !== 'failed') return;
    const owner = out.blockedBy ?? out.error?.pluginId ?? 'the system_prompt owner';
    const why =
      out.decision === 'block'
        ? `blocked it${out.reason ? `: ${out.reason}` : ''}`
        : `failed (${out.error?.reason}): ${out.error?.message}`;
    throw new GenerationError(
      'strategy_failed',
      `the system_prompt strategy of '${owner}' ${why}; the runtime was not started. Fix or disable '${owner}', then run Reasonix: Reload Runtime.`,
      [],
      owner,
    );
  }

  /** The session events this host owns (HOST_SPEC §4.0: event-only points, best effort). */
  private observe(point: 'session.start' | 'session.end', payload: { phase: 'start' | 'end' }): void {
    if (this.running().length === 0) return;
    this.dispatch(point, payload).catch((err: Error) => this.log.warn(`${point} not delivered: ${err.message}`));
  }

  private async single(id: string, op: () => Promise<void>): Promise<void> {
    const t0 = Date.now();
    try {
      await op();
    } catch (err) {
      const failure = failureOf(err, id, Date.now() - t0);
      // Refused because a dependency is missing or not running: say so with Reasonix's reason.
      const refused = err instanceof GenerationError && err.kind === 'dependency_unsatisfied';
      const info = refused ? { ...failure, reason: 'dependency_unsatisfied' as const } : failure;
      this.startFailed.fire(info);
      throw new SidecarFailure(info, { cause: err, reported: true }); // its failure notification is up
    }
  }

  restartPlugin(id: string): Promise<void> {
    return this.single(id, () => this.runtime.restartPlugin(id));
  }

  startPlugin(id: string): Promise<void> {
    return this.single(id, () => this.runtime.startPlugin(id));
  }

  stopPlugin(id: string): Promise<void> {
    return this.runtime.stopPlugin(id);
  }

  async stop(): Promise<void> {
    this.observe('session.end', { phase: 'end' });
    await this.runtime.stop();
    this.records.drop(() => true);
    this.hub.dispose();
    this.deps.store.removeSession(this.opts.sessionKey);
  }

  private running(): Sidecar[] {
    return [...(this.runtime.current?.sidecars.values() ?? [])].filter((s) => s.state === 'running');
  }

  /**
   * One dispatcher per generation and sidecar set, so warn-once holds for the generation. Every
   * sidecar the generation started takes part, live or not: a crashed or stopped member counts as
   * a failure of its plugin (required-class fails the operation; optional warns once), never as
   * silently absent (HOST_SPEC §4.4).
   */
  private dispatcher(): InterceptDispatcher {
    const gen = this.runtime.current;
    return gen ? this.dispatcherFor(gen, [...gen.sidecars.values()]) : this.offlineDispatcher();
  }

  /**
   * With no runtime generation (not started yet, or its start failed) the discovered plugins still
   * take part, none of them live: a required one fails the operation, an optional one is skipped,
   * so nothing is let through as if nobody intercepted (issue 28 item 4).
   */
  private offlineDispatcher(): InterceptDispatcher {
    const cached = this.cachedOffline;
    if (cached && cached.plugins === this.runnable) return cached.dispatcher;
    const stateOf = (id: string) => () => this.plugins().find((p) => p.pluginId === id)?.state ?? 'idle';
    const clients = this.runnable.map((p, i) => offlineClient(p.id, p.runtime, i + 1, stateOf(p.id)));
    let dispatcher: InterceptDispatcher;
    try {
      dispatcher = createDispatcher(clients, { logger: this.log });
    } catch {
      dispatcher = createDispatcher([], { logger: this.log }); // colliding slots never start: nobody to ask
    }
    this.cachedOffline = { plugins: this.runnable, dispatcher };
    return dispatcher;
  }

  /** Also used for a generation not yet published (its system_prompt.build), so warn-once carries over. */
  private dispatcherFor(generation: unknown, sidecars: Sidecar[]): InterceptDispatcher {
    const cached = this.cachedDispatcher;
    if (
      cached &&
      cached.generation === generation &&
      cached.sidecars.length === sidecars.length &&
      cached.sidecars.every((s, i) => s === sidecars[i])
    ) {
      return cached.dispatcher;
    }
    const dispatcher = createDispatcher(
      sidecars.map((s, i) => interceptClientFor(s, i + 1)),
      { logger: this.log },
    );
    this.cachedDispatcher = { generation, sidecars, dispatcher };
    return dispatcher;
  }

  notifyResourcesChanged(paths: string[]): number {
    let n = 0;
    for (const s of this.running()) {
      try {
        s.notify('extension/resources/changed', { paths });
        n++;
      } catch (err) {
        this.log.warn(`[${s.pluginId}] resources/changed not delivered: ${(err as Error).message}`);
      }
    }
    return n;
  }

  invokeAction(pluginId: string, actionId: string, args?: Record<string, string>): Promise<ActionResult> {
    return this.hub.invokeAction(pluginId, actionId, args);
  }

  submit(
    pluginId: string,
    surfaceId: string,
    values: Record<string, boolean | string | string[]>,
  ): Promise<ActionResult> {
    return this.hub.submit(pluginId, surfaceId, values);
  }

  async dispatch(point: string, payload: unknown, opts: DispatchCallOptions = {}): Promise<HookOutcome> {
    if (!isHookPoint(point)) throw new Error(`"${point}" is not one of the 17 hook points`);
    // Checked here, built once by the dispatcher.
    const checked = checkHookPayload(point, payload);
    if (!checked.ok) throw new Error(`invalid ${point} payload: ${checked.message}`);
    const known = opts.knownTools ? new Set(opts.knownTools) : undefined;
    return this.dispatcher().dispatch(point, checked.value, {
      ...(known ? { knownTools: (name: string) => known.has(name) } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  }

  interceptorsAt(point: string): HookMember[] {
    return isHookPoint(point) ? this.dispatcher().members(point) : [];
  }

  /** What each sidecar of the current generation declared at handshake: the resolver's input. */
  private declarations(): ProviderDeclarations[] {
    return [...(this.runtime.current?.sidecars.values() ?? [])].map((s) => ({
      pluginId: s.pluginId,
      running: s.state === 'running',
      providers: s.state === 'running' ? (s.initializeResult?.providers ?? []) : [],
    }));
  }

  /**
   * The catalog entries (HOST_SPEC §6: bounded, cached, failure = no models this time) that the
   * one resolver accepts: a catalog entry the plugin did not declare at handshake could never be
   * opened, so it is not offered.
   */
  async models(): Promise<ModelInfo[]> {
    const declared = this.declarations();
    const withProviders = this.running().filter((s) => s.plugin.runtime.capabilities.includes('providers'));
    const cats = await Promise.all(withProviders.map((s) => catalog(s, { logger: this.log })));
    const out: ModelInfo[] = [];
    for (const c of cats) {
      for (const p of c.providers) {
        try {
          const r = resolveProviderRef(p.ref, declared);
          // Every descriptor field was redacted where the catalog was received (streams/catalog.ts).
          out.push({
            pluginId: c.pluginId,
            ref: p.ref,
            label: p.displayName,
            descriptor: p,
            ...(r.model === undefined ? {} : { model: r.model }),
          });
        } catch (err) {
          if (!(err instanceof UnknownModelError)) throw err;
          this.log.warn(`[${c.pluginId}] catalog entry not offered: ${err.message}`);
        }
      }
    }
    return out;
  }

  /** Refuses an undeclared ref locally (no `stream/open`); sends the declared ref and model. */
  async openStream(
    providerRef: string,
    request: unknown,
    o: { model?: string; signal?: AbortSignal } = {},
  ): Promise<StreamHandle> {
    const r = resolveProviderRef(providerRef, this.declarations(), o.model);
    const s = this.runtime.current?.sidecars.get(r.pluginId);
    const hub = s && this.records.get(s)?.streams;
    if (!hub) throw new UnknownModelError(providerRef, `plugin ${r.pluginId} is not running`);
    return hub.openStream({
      providerRef: r.providerRef,
      model: r.model,
      request: request as ProviderRequestInput,
      signal: o.signal,
    });
  }

  /** Every sidecar of the published generation, running or not (a staged one is never offered). */
  private toolClients(): ToolClient[] {
    return [...(this.runtime.current?.sidecars.values() ?? [])].flatMap((s) => this.records.get(s)?.tools ?? []);
  }

  tools(): ToolInfo[] {
    return listTools(this.toolClients());
  }

  callTool(ref: ToolRef, args?: unknown, opts?: ToolCallOptions): Promise<ToolCallOutcome> {
    const m = (this.toolCallsModule ??= (this.deps.toolCalls ?? compiledToolCalls)());
    const clients = this.toolClients();
    const callers = new Map([...this.records.values()].map((r) => [r.tools, r.caller]));
    return m.callTool(
      {
        clients,
        callers,
        dispatcher: () => this.dispatcher(),
        argumentChecker: m.toolArgumentChecker,
        uncheckedSchema: (note) => this.warnOnce(note),
      },
      ref,
      args,
      opts,
    );
  }

  /** A tool problem (a withheld tool, an uncompilable schema), logged once per session. */
  private warnOnce(note: string): void {
    if (this.withheldLogged.has(note)) return;
    this.withheldLogged.add(note);
    this.log.warn(redact(note));
  }

  onDidChangeTools(l: () => void): Disposable {
    return this.toolsChanged.event(l);
  }

  onDidChange(l: () => void): Disposable {
    return this.changed.event(l);
  }

  onCrash(l: (info: FailureInfo) => void): Disposable {
    return this.crashed.event(l);
  }

  onStartFailure(l: (info: FailureInfo) => void): Disposable {
    return this.startFailed.event(l);
  }
}
