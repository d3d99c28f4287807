// One UiHub per session: the gate between sidecars and the front end (HOST_SPEC §7.3, §14).
// Order for publish/request: unknown client → internal; crashed → provider_interrupted; stale
// (generation or sessionId ≠ the binding) → a non-error refusal before the payload is even looked
// at; then strict payload decoding → invalid_params. Everything stored or shown is redacted.
// Params and results arrive schema-valid: the connection checks every frame once, and the hub
// only adds what the schema leaves open (the strict payload decoders).
// During a build the next generation's sidecars are bound as *staged* beside the current binding
// (HOST_SPEC_V2 §2.4: stage → ready → commit): the current generation keeps its surfaces until
// `commit`, and what a staged sidecar's UI calls get is its contract's `stagedUi` policy.
import {
  ProtocolError,
  promptFields,
  type FormValues,
  type PromptRequest,
  type SurfaceOrigin,
  type SurfacePayload,
  type UIActionParams,
  type UIActionResult,
  type UIPublishParams,
  type UIPublishResult,
  type UIRequestParams,
  type UIRequestResult,
  type UISubmitParams,
  type UISubmitResult,
} from '../../protocol';
import { silentLogger, type Logger } from '../log';
import { redact } from '../redact';
import { ACTION_ID, actionName, declareActions, type ActionSet } from './actions';
import { SurfaceBudget, type SurfaceLimits } from './budget';
import { decodePublishPayload, decodeRequestPayload } from './decode';
import { stagedState, type BindingState } from './binding';
import { move, PluginBindings, type Binding, type Shown } from './pluginBindings';
import type { ActionEntry, ActionResult, UiClient, UiFrontEnd } from './ports';
import type { NotificationSurface, SurfaceStore } from './store';

export interface UiHubOptions {
  /** The host's session (one per workspace folder). */
  sessionKey: string;
  folderName: string;
  store: SurfaceStore;
  frontEnd?: UiFrontEnd;
  logger?: Logger;
  /** Notifications held while no front end is attached (default 20). */
  maxHeldNotifications?: number;
  /** Per-plugin surface caps (default 256 surfaces, 16 MiB of payload). */
  surfaceLimits?: SurfaceLimits;
}

export interface BindOptions {
  /**
   * Bind as staged (a build not yet published) with this policy for its UI calls (the sidecar's
   * `contract.features.stagedUi`); the current binding stays until `commit`. Default: current.
   */
  staged?: 'stale' | 'hold';
}

export class UiHub {
  /** One record per bound plugin: its current binding and a build's staged one (pluginBindings.ts). */
  private readonly bindings = new PluginBindings();
  private frontEnd: UiFrontEnd | undefined;
  private readonly frontEndWaiters = new Set<() => void>();
  private readonly heldNotifications: NotificationSurface[] = [];
  private readonly log: Logger;
  private readonly store: SurfaceStore;
  private readonly maxHeld: number;
  private readonly budget: SurfaceBudget;

  constructor(private readonly opts: UiHubOptions) {
    this.store = opts.store;
    this.budget = new SurfaceBudget(opts.store, opts.surfaceLimits);
    this.frontEnd = opts.frontEnd;
    this.log = opts.logger ?? silentLogger;
    this.maxHeld = opts.maxHeldNotifications ?? 20;
  }

  get sessionKey(): string {
    return this.opts.sessionKey;
  }

  /** Prompts waiting for a front end to attach. */
  get heldPrompts(): number {
    return this.frontEndWaiters.size;
  }

  /** Attaches (or detaches) the front end; held prompts and notifications are shown now. */
  setFrontEnd(frontEnd: UiFrontEnd | undefined): void {
    this.frontEnd = frontEnd;
    if (!frontEnd) return;
    for (const n of this.heldNotifications.splice(0)) this.deliverNotification(n);
    for (const wake of [...this.frontEndWaiters]) wake();
  }

  /**
   * Binds a plugin to the session's current (sessionId, generation); a new generation drops the
   * old one's surfaces. With `staged`, binds it beside the current one until `commit`.
   */
  bind(pluginId: string, sessionId: string, generation: number, client?: UiClient, opts: BindOptions = {}): void {
    const life = new AbortController();
    if (opts.staged) {
      const previous = this.bindings.staged(pluginId);
      if (previous) move(previous, 'retire');
      let commit!: () => void;
      const committed = new Promise<void>((resolve) => (commit = resolve));
      const state: BindingState<Shown> = { kind: 'staged', policy: opts.staged, held: new Map(), committed, commit };
      this.bindings.set(pluginId, 'staged', { pluginId, sessionId, generation, client, state, life });
      return;
    }
    this.install({ pluginId, sessionId, generation, client, state: { kind: 'live' }, life });
  }

  /**
   * The build of `generation` was published: its staged bindings become current (the previous
   * generation's surfaces go stale), held publishes are shown, held prompts go ahead.
   */
  commit(generation: number): void {
    for (const b of this.bindings.stagedAll()) {
      const staged = stagedState(b.state);
      if (b.generation !== generation || !staged) continue;
      const { held, commit } = staged;
      this.bindings.set(b.pluginId, 'staged', undefined);
      move(b, 'commit');
      this.install(b);
      for (const [surfaceId, shown] of held) {
        try {
          this.show(b, surfaceId, shown);
        } catch (err) {
          this.log.warn(
            `${b.pluginId}: a publish held until the runtime was published was not shown: ${(err as Error).message}`,
          );
        }
      }
      if (b.state.kind === 'crashed') this.store.markPluginStale(this.opts.sessionKey, b.pluginId);
      commit();
    }
  }

  /** The plugin's connection crashed: later UI calls from it fail, its prompts are dropped, its surfaces go stale. */
  markCrashed(pluginId: string, generation?: number): void {
    const staged = this.bindings.staged(pluginId);
    if (staged && generation !== undefined && staged.generation === generation) {
      // Crashed before its build was published: what it published meanwhile is not lost, it is
      // shown stale if the build is published (a build that fails drops it with the binding).
      move(staged, 'crash');
      return;
    }
    const b = this.bound(pluginId, generation);
    if (!b) return;
    move(b, 'crash');
    this.store.markPluginStale(this.opts.sessionKey, pluginId);
  }

  /** The plugin stopped in an orderly way: its surfaces go stale and its prompts are dropped. */
  markStopped(pluginId: string, generation?: number): void {
    if (generation !== undefined && this.dropStaged(pluginId, generation)) return;
    const b = this.bound(pluginId, generation);
    if (!b) return;
    move(b, 'stop');
    this.store.markPluginStale(this.opts.sessionKey, pluginId);
  }

  /** Forgets the plugin; later calls from it are `internal` errors. */
  unbind(pluginId: string): void {
    this.dropStaged(pluginId, undefined);
    const b = this.bindings.current(pluginId);
    if (!b) return;
    move(b, 'retire');
    this.bindings.set(pluginId, 'current', undefined);
    this.store.markPluginStale(this.opts.sessionKey, pluginId);
  }

  /** `host/ui/publish` from `pluginId`, carried by a frame of `frameBytes` bytes. */
  publish(pluginId: string, p: UIPublishParams, frameBytes: number): UIPublishResult {
    const b = this.gate(pluginId, p);
    if (this.stale(b, p, 'publish', 'ignored')) return { accepted: false };
    const staged = stagedState(b.state);
    const shown = { content: this.decodeOrLog(pluginId, p), bytes: frameBytes };
    if (staged) {
      staged.held.delete(p.surfaceId); // a re-publish moves to the end, as it would in the store
      staged.held.set(p.surfaceId, shown);
      return { accepted: true };
    }
    this.show(b, p.surfaceId, shown);
    return { accepted: true };
  }

  /** A refused payload is logged (what is shown keeps its last good version) and answered invalid_params. */
  private decodeOrLog(pluginId: string, p: UIPublishParams): SurfacePayload {
    try {
      return decodePublishPayload(p.kind, p.payload);
    } catch (err) {
      this.log.warn(
        `${pluginId}: ${p.kind} ${redact(p.surfaceId)} refused (${redact(err instanceof Error ? err.message : String(err))}); the last good version stays shown`,
      );
      throw err;
    }
  }

  private show(b: Binding, surfaceId: string, { content, bytes }: Shown): void {
    if (content.kind !== 'notification') this.admit(b, surfaceId, bytes);
    const surface = this.store.upsert(this.origin(b), surfaceId, content);
    if (surface.kind === 'notification') this.deliverNotification(surface as NotificationSurface);
  }

  /** `host/ui/request` from `pluginId`; `signal` aborts when the sidecar's connection ends. Never throws after the gate. */
  async request(pluginId: string, p: UIRequestParams, signal: AbortSignal): Promise<UIRequestResult> {
    const b = this.gate(pluginId, p);
    if (this.stale(b, p, 'request', 'cancelled')) return { cancelled: true };
    const staged = stagedState(b.state);
    const form = decodeRequestPayload(p.payload);
    const payload = { ...form, fields: promptFields({ kind: p.kind, payload: form }) };
    const req: PromptRequest = { ...this.origin(b), surfaceId: p.surfaceId, kind: p.kind, payload };
    const life = AbortSignal.any([signal, b.life.signal]);
    // Held while staged ('hold'): asked once the build is published, cancelled if it never is.
    if (staged && !(await untilOrAborted(staged.committed, life))) return { cancelled: true };
    const frontEnd = await this.waitForFrontEnd(life);
    if (!frontEnd) return { cancelled: true };
    let answer;
    try {
      answer = await frontEnd.prompt(req, life);
    } catch (err) {
      this.log.warn(
        `prompt from ${pluginId} failed in the front end: ${redact(err instanceof Error ? err.message : String(err))}`,
      );
      return { cancelled: true };
    }
    if (life.aborted) {
      // Nobody waits for it any more (connection ended, crash, new generation): discard quietly.
      this.log.debug(`answer to ${pluginId}'s prompt ${redact(p.surfaceId)} discarded: the plugin is gone`);
      return { cancelled: true };
    }
    if (answer.cancelled) return { cancelled: true };
    return { cancelled: false, values: { ...answer.values } };
  }

  /** Runs `/<pluginId>:<actionId>` (command palette, key bindings, card buttons). */
  async invokeAction(pluginId: string, actionId: string, args?: Record<string, string>): Promise<ActionResult> {
    if (!ACTION_ID.test(actionId))
      throw new ProtocolError('invalid_params', `invalid action id ${JSON.stringify(actionId)}`);
    const { b, client } = this.running(pluginId);
    if (!this.actionsOf(b).actions.some((a) => a.actionId === actionId)) {
      throw new ProtocolError('invalid_params', `plugin ${pluginId} declared no action ${actionId}`);
    }
    if (args !== undefined && !isStringRecord(args))
      throw new ProtocolError('invalid_params', 'action args must map strings to strings');
    const params: UIActionParams = { actionId, sessionId: b.sessionId, generation: b.generation };
    if (args !== undefined) params.args = args;
    const r = await client.request<UIActionResult>('extension/ui/action', params);
    return r.message === undefined ? { accepted: r.accepted } : { accepted: r.accepted, message: redact(r.message) };
  }

  /** Sends a form's values back with `extension/ui/submit` (current generation only). */
  async submit(
    pluginId: string,
    surfaceId: string,
    values: FormValues | Record<string, unknown> | undefined,
  ): Promise<UISubmitResult> {
    if (typeof surfaceId !== 'string' || !surfaceId.trim())
      throw new ProtocolError('invalid_params', 'surfaceId is required');
    const { b, client } = this.running(pluginId);
    const shown = this.store.get(this.opts.sessionKey, pluginId, surfaceId);
    if (shown && shown.generation !== b.generation) {
      throw new ProtocolError('invalid_params', `form ${surfaceId} belongs to an earlier generation of ${pluginId}`);
    }
    const body = values ?? {};
    if (typeof body !== 'object' || Array.isArray(body))
      throw new ProtocolError('invalid_params', 'values must be an object');
    const params: UISubmitParams = { surfaceId, sessionId: b.sessionId, generation: b.generation, values: { ...body } };
    const r = await client.request<UISubmitResult>('extension/ui/submit', params);
    return { accepted: r.accepted };
  }

  /** Declared actions of every live plugin in this session, for the command palette. */
  listActions(): ActionEntry[] {
    const out: ActionEntry[] = [];
    for (const b of this.bindings.currents()) {
      if (b.state.kind === 'crashed' || !b.client || b.client.state !== 'running') continue;
      for (const a of this.actionsOf(b).actions) {
        out.push({
          name: actionName(b.pluginId, a.actionId),
          pluginId: b.pluginId,
          actionId: a.actionId,
          label: a.label,
          sessionKey: this.opts.sessionKey,
          folderName: this.opts.folderName,
        });
      }
    }
    return out.sort((x, y) => x.name.localeCompare(y.name));
  }

  /** Drops every binding and wakes held prompts (they answer cancelled). */
  dispose(): void {
    for (const id of this.bindings.ids()) this.unbind(id);
    this.budget.dispose();
  }

  /** Past the plugin's surface budget: refuse the publish (nothing stored), warn the user once. */
  private admit(b: Binding, surfaceId: string, bytes: number): void {
    try {
      this.budget.admit(this.opts.sessionKey, b.pluginId, surfaceId, bytes);
    } catch (err) {
      if (!b.overBudgetWarned) {
        b.overBudgetWarned = true;
        this.log.warn(
          `${(err as Error).message}. Further refused publishes of ${b.pluginId} are not reported again until it restarts.`,
        );
      }
      throw err;
    }
  }

  /** The binding a call belongs to: the staged one when it names the staged generation, else the current one. */
  private gate(pluginId: string, p: { sessionId: string; generation: number }): Binding {
    const staged = this.bindings.staged(pluginId);
    const b = staged && !this.isStale(staged, p) ? staged : (this.bindings.current(pluginId) ?? staged);
    if (!b) throw new ProtocolError('internal', `plugin ${pluginId} is not bound to this session`);
    if (b.state.kind === 'crashed' || b.state.kind === 'staged-crashed')
      throw new ProtocolError('provider_interrupted', `plugin ${pluginId} crashed`);
    return b;
  }

  /** The plugin's current binding with its client, when that client runs: what an action or a submit goes to. */
  private running(pluginId: string): { b: Binding; client: UiClient } {
    const b = this.bindings.current(pluginId);
    if (!b) throw new ProtocolError('internal', `plugin ${pluginId} is not loaded in this session`);
    if (b.state.kind === 'crashed') throw new ProtocolError('provider_interrupted', `plugin ${pluginId} crashed`);
    const client = b.client;
    if (!client || client.state !== 'running')
      throw new ProtocolError('provider_interrupted', `plugin ${pluginId} is not running`);
    return { b, client };
  }

  /**
   * Whether a UI call from `b` naming `p` gets the stale answer (logged): it names another
   * generation or session, or `b` is staged with the 'stale' policy.
   */
  private stale(b: Binding, p: { sessionId: string; generation: number }, what: string, outcome: string): boolean {
    const staged = stagedState(b.state);
    if (!this.isStale(b, p) && staged?.policy !== 'stale') return false;
    this.log.debug(
      `stale ${what} from ${b.pluginId} (session ${redact(p.sessionId)}, generation ${p.generation}${staged ? ', not yet published' : ''}) ${outcome}`,
    );
    return true;
  }

  private isStale(b: Binding, p: { sessionId: string; generation: number }): boolean {
    return p.generation !== b.generation || p.sessionId !== b.sessionId;
  }

  /** Makes `b` the plugin's current binding, retiring the previous one. */
  private install(b: Binding): void {
    const old = this.bindings.current(b.pluginId);
    if (old) {
      move(old, 'retire');
      if (old.generation !== b.generation || old.sessionId !== b.sessionId) {
        this.store.markPluginStale(this.opts.sessionKey, b.pluginId);
        this.store.clearStale(this.opts.sessionKey, b.pluginId);
      }
    }
    this.bindings.set(b.pluginId, 'current', b);
  }

  /** Drops the staged binding of `generation` (any when undefined): its build failed or it stopped first. */
  private dropStaged(pluginId: string, generation: number | undefined): boolean {
    const b = this.bindings.staged(pluginId);
    if (!b || (generation !== undefined && b.generation !== generation)) return false;
    move(b, 'retire');
    this.bindings.set(pluginId, 'staged', undefined);
    return true;
  }

  /** The current binding, when it is the one of `generation` (any when undefined). */
  private bound(pluginId: string, generation: number | undefined): Binding | undefined {
    const b = this.bindings.current(pluginId);
    return b && (generation === undefined || b.generation === generation) ? b : undefined;
  }

  private origin(b: Binding): SurfaceOrigin {
    return {
      sessionKey: this.opts.sessionKey,
      folderName: this.opts.folderName,
      pluginId: b.pluginId,
      generation: b.generation,
    };
  }

  private actionsOf(b: Binding): ActionSet {
    // Compared by content: the sidecar hands out a fresh copy on every read.
    const decls = b.client?.uiActions ?? [];
    const source = JSON.stringify(decls);
    if (b.actions?.source !== source) {
      const set = declareActions(b.pluginId, decls);
      for (const w of set.warnings) this.log.warn(w);
      b.actions = { source, set };
    }
    return b.actions.set;
  }

  private deliverNotification(n: NotificationSurface): void {
    const fe = this.frontEnd;
    if (!fe) {
      this.heldNotifications.push(n);
      if (this.heldNotifications.length > this.maxHeld) this.heldNotifications.shift();
      return;
    }
    try {
      fe.notify(n);
    } catch (err) {
      this.log.warn(`front end failed to show a notification: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Resolves with the front end once one is attached; undefined if `signal` aborts first. */
  private waitForFrontEnd(signal: AbortSignal): Promise<UiFrontEnd | undefined> {
    if (signal.aborted) return Promise.resolve(undefined);
    if (this.frontEnd) return Promise.resolve(this.frontEnd);
    return new Promise((resolve) => {
      const done = (): void => {
        this.frontEndWaiters.delete(wake);
        signal.removeEventListener('abort', done);
        resolve(signal.aborted ? undefined : this.frontEnd);
      };
      const wake = (): void => {
        if (this.frontEnd) done();
      };
      this.frontEndWaiters.add(wake);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}

function isStringRecord(v: unknown): v is Record<string, string> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}

/** True once `done` settles, false if `signal` aborts first. */
function untilOrAborted(done: Promise<void>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
    void done.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    });
  });
}
