// One ACP session of the user's Reasonix, in one folder: its extensions' surfaces go through a UI
// hub of their own (the same decoders, redaction, budget and staleness gate as a hosted extension's)
// into the window's one SurfaceStore, under a session key of their own, so the Surfaces view shows
// them in a group naming the Reasonix session. Their actions come from `available_commands_update`
// (`<plugin>:<action>`) and run as the slash command Reasonix takes; their prompts arrive as
// permission requests and are asked through the same front end.
import {
  ProtocolError,
  type CardPayload,
  type FormPayload,
  type FormValues,
  type UIActionDecl,
  type UIPublishParams,
} from '../../protocol';
import { Emitter } from '../emitter';
import { silentLogger, type Logger } from '../log';
import { redact } from '../redact';
import {
  decodePublishPayload,
  UiHub,
  type ActionEntry,
  type SurfaceStore,
  type UiClient,
  type UiFrontEnd,
} from '../ui';
import { AcpError } from './errors';
import { readExtensionSurface } from './extensionSurface';
import {
  answerOption,
  promptForm,
  readExtensionPrompt,
  type PermissionAsker,
  type PermissionRequestLike,
} from './prompts';

/** The session key prefix of Reasonix sessions in the surface store (hosted folders use their URI). */
export const SESSION_KEY_PREFIX = 'reasonix-acp:';
/** The pseudo plugin a prompt is attributed to when no extension action is running. */
export const SESSION_PLUGIN = 'reasonix';
/** What a form from a Reasonix session shows instead of inputs that could not be sent anywhere. */
export const FORM_NOT_ANSWERABLE =
  'This form cannot be answered from VS Code: Reasonix 1.38.11 takes no form answers over ACP. Answer it in Reasonix itself (its terminal or desktop app); its fields are listed here.';
/** What a prompt Reasonix offers only Cancel for shows. */
export const PROMPT_NOT_ANSWERABLE =
  'Reasonix asked a question it cannot take an answer to over ACP (1.38.11 takes only choices). Answer it in Reasonix itself; it was cancelled here.';
/** A tool's input shown in a confirmation, at most. */
const MAX_INPUT_CHARS = 2000;

/** What the session needs of the client: its requests and notifications, and forgetting it. */
export interface SessionPeer {
  request<R>(method: string, params: object): Promise<R>;
  notify(method: string, params: object): Promise<void>;
  forget(sessionId: string): void;
}

export interface SessionStatus {
  /** `idle`, `running`, … as Reasonix says. */
  state?: string;
  phase?: string;
  model?: string;
  mode?: string;
  usage?: unknown;
}

export interface SessionChoices {
  modes: { id: string; name: string }[];
  currentModeId?: string;
  configOptions: { id: string; name: string; currentValue?: string; options: { value: string; name: string }[] }[];
}

export interface SessionPluginRow {
  pluginId: string;
  state: 'running' | 'stale' | 'failed';
  generation: number;
  actions: number;
}

interface PluginBinding {
  sessionId: string;
  generation: number;
  client: UiClient & { state: string; uiActions: UIActionDecl[] };
}

export interface NewSessionLike {
  sessionId: string;
  models?: unknown;
  modes?: unknown;
  configOptions?: unknown;
}

export interface ReasonixSessionOptions {
  cwd: string;
  folderName: string;
  store: SurfaceStore;
  frontEnd?: UiFrontEnd;
  permissions?: PermissionAsker;
  peer: SessionPeer;
  logger?: Logger;
  agentMeta?: Record<string, unknown>;
}

export class ReasonixSession {
  readonly sessionKey: string;
  readonly acpSessionId: string;
  readonly hub: UiHub;
  readonly models: unknown;
  readonly modes: unknown;
  readonly configOptions: unknown;
  private chosen: SessionChoices;
  private readonly plugins = new Map<string, PluginBinding>();
  private commands: { name: string; description: string }[] = [];
  private _status: SessionStatus | undefined;
  private _failure: AcpError | undefined;
  private closed = false;
  /** The extension action running now: a prompt that comes meanwhile is its extension's. */
  private actionInFlight: string | undefined;
  private readonly log: Logger;
  private readonly updates = new Emitter<{ sessionUpdate: string } & Record<string, unknown>>();
  private readonly statusChanged = new Emitter<SessionStatus>();
  private readonly pluginsChanged = new Emitter<void>();
  private readonly failedEmitter = new Emitter<AcpError>();
  /** Standard ACP updates (message chunks, thoughts, tool calls, plans) for a chat face. */
  readonly onDidUpdate = this.updates.event;
  readonly onDidChangeStatus = this.statusChanged.event;
  readonly onDidChangePlugins = this.pluginsChanged.event;
  readonly onDidFail = this.failedEmitter.event;

  constructor(
    r: NewSessionLike,
    private readonly o: ReasonixSessionOptions,
  ) {
    this.acpSessionId = r.sessionId;
    this.models = r.models;
    this.modes = r.modes;
    this.configOptions = r.configOptions;
    this.chosen = { ...readModes(r.modes), configOptions: readConfigOptions(r.configOptions) };
    // One key per ACP session: a folder may have several (its Extensions-view session, chats).
    this.sessionKey = `${SESSION_KEY_PREFIX}${o.cwd}#${r.sessionId}`;
    this.log = o.logger ?? silentLogger;
    this.hub = new UiHub({
      sessionKey: this.sessionKey,
      folderName: o.folderName,
      store: o.store,
      frontEnd: o.frontEnd,
      logger: this.log,
    });
  }

  get cwd(): string {
    return this.o.cwd;
  }

  get folderName(): string {
    return this.o.folderName;
  }

  get status(): SessionStatus | undefined {
    return this._status;
  }

  get failure(): AcpError | undefined {
    return this._failure;
  }

  /** Whether `_reasonix.io/session/reloadExtensions` was advertised. */
  get canReload(): boolean {
    const rx = this.o.agentMeta?.['reasonix.io'] as Record<string, unknown> | undefined;
    return !!rx?.sessionReloadExtensions;
  }

  /** The session's extensions and their states (bound by their first surface or action). */
  pluginRows(): SessionPluginRow[] {
    return [...this.plugins.entries()]
      .filter(([id]) => id !== SESSION_PLUGIN)
      .map(([pluginId, b]): SessionPluginRow => ({
        pluginId,
        state: this._failure ? 'failed' : b.client.state === 'running' ? 'running' : 'stale',
        generation: b.generation,
        actions: b.client.uiActions.length,
      }))
      .sort((a, b) => a.pluginId.localeCompare(b.pluginId));
  }

  /** The session's `/<plugin>:<action>` entries, for Run Extension Action… (source: the session's name). */
  listActions(): ActionEntry[] {
    return this._failure || this.closed ? [] : this.hub.listActions();
  }

  /**
   * What the user can choose for the session: its modes (normal, plan, goal in 1.38.11) and its
   * config options (model, tool approval), as `session/new` and later updates said. Redacted.
   */
  choices(): SessionChoices {
    return this.chosen;
  }

  /** `session/set_mode`. */
  async setMode(modeId: string): Promise<void> {
    this.assertOpen();
    await this.o.peer.request('session/set_mode', { sessionId: this.acpSessionId, modeId });
    this.chosen = { ...this.chosen, currentModeId: modeId };
  }

  /** `session/set_config_option` (the model, tool approval); Reasonix answers the options as they are now. */
  async setConfigOption(configId: string, value: string): Promise<void> {
    this.assertOpen();
    const r = await this.o.peer.request<{ configOptions?: unknown }>('session/set_config_option', {
      sessionId: this.acpSessionId,
      configId,
      value,
    });
    const options = readConfigOptions(r?.configOptions);
    this.chosen = {
      ...this.chosen,
      configOptions: options.length
        ? options
        : this.chosen.configOptions.map((o) => (o.id === configId ? { ...o, currentValue: value } : o)),
    };
  }

  /** Slash commands Reasonix offers (its own and the extensions'). */
  availableCommands(): readonly { name: string; description: string }[] {
    return this.commands;
  }

  setFrontEnd(frontEnd: UiFrontEnd | undefined): void {
    this.hub.setFrontEnd(frontEnd);
  }

  setPermissionAsker(asker: PermissionAsker | undefined): void {
    this.o.permissions = asker;
  }

  /** Sends a prompt; resolves with Reasonix's stop reason. Aborting `signal` sends `session/cancel`. */
  async prompt(text: string, signal?: AbortSignal): Promise<{ stopReason: string }> {
    this.assertOpen();
    const onAbort = () => void this.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.o.peer.request<{ stopReason: string }>('session/prompt', {
        sessionId: this.acpSessionId,
        prompt: [{ type: 'text', text }],
      });
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  cancel(): Promise<void> {
    if (this.closed || this._failure) return Promise.resolve();
    return this.o.peer.notify('session/cancel', { sessionId: this.acpSessionId }).catch(() => undefined);
  }

  /** `_reasonix.io/session/reloadExtensions`: `{queued: true}` while a turn runs (Reasonix reloads when idle). */
  async reloadExtensions(): Promise<{ queued: boolean }> {
    this.assertOpen();
    if (!this.canReload)
      throw new AcpError(
        'reload',
        'unsupported',
        "this Reasonix does not offer reloading a session's extensions over ACP",
      );
    const r = await this.o.peer.request<{ queued?: unknown }>('_reasonix.io/session/reloadExtensions', {
      sessionId: this.acpSessionId,
    });
    return { queued: r?.queued === true };
  }

  /** Runs `/<plugin>:<action>` in the session (card buttons, the palette, key bindings). */
  async runAction(pluginId: string, actionId: string): Promise<{ accepted: boolean; message?: string }> {
    this.assertOpen();
    this.actionInFlight = pluginId;
    try {
      const r = await this.prompt(`/${pluginId}:${actionId}`);
      return { accepted: r.stopReason !== 'refusal' };
    } finally {
      if (this.actionInFlight === pluginId) this.actionInFlight = undefined;
    }
  }

  /** `session/close`; its surfaces leave the store. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const b of this.plugins.values()) b.client.state = 'stopped';
    this.hub.dispose();
    this.o.store.removeSession(this.sessionKey);
    this.o.peer.forget(this.acpSessionId);
    this.pluginsChanged.fire();
    if (!this._failure) {
      await this.o.peer.request('session/close', { sessionId: this.acpSessionId }).catch((err: unknown) => {
        this.log.debug(`Reasonix session/close: ${redact(String((err as Error)?.message ?? err))}`);
      });
    }
  }

  // ---- from the client ------------------------------------------------------------------------

  /** Any `session/update` of this session (vendor surfaces and the standard kinds). */
  onUpdate(update: unknown): void {
    if (this.closed || !update || typeof update !== 'object') return;
    const u = update as { sessionUpdate?: unknown } & Record<string, unknown>;
    if (u.sessionUpdate === '_reasonix.io/extension_surface') return this.onSurface(u);
    if (u.sessionUpdate === 'available_commands_update') this.onCommands(u.availableCommands);
    if (u.sessionUpdate === 'current_mode_update' && typeof u.currentModeId === 'string')
      this.chosen = { ...this.chosen, currentModeId: u.currentModeId };
    if (u.sessionUpdate === 'config_option_update') {
      const options = readConfigOptions(u.configOptions);
      if (options.length) this.chosen = { ...this.chosen, configOptions: options };
    }
    if (typeof u.sessionUpdate === 'string')
      this.updates.fire(u as { sessionUpdate: string } & Record<string, unknown>);
  }

  onStatus(params: unknown): void {
    const s = (params as { status?: unknown } | undefined)?.status;
    if (!s || typeof s !== 'object') return;
    const o = s as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? redact(v).slice(0, 200) : undefined);
    this._status = { state: str(o.state), phase: str(o.phase), model: str(o.model), mode: str(o.mode), usage: o.usage };
    this.statusChanged.fire(this._status);
  }

  async onPermission(
    req: PermissionRequestLike,
    signal: AbortSignal,
  ): Promise<{ outcome: { outcome: 'cancelled' } | { outcome: 'selected'; optionId: string } }> {
    const cancelled = { outcome: { outcome: 'cancelled' as const } };
    if (this.closed || this._failure) return cancelled;
    const ext = readExtensionPrompt(req);
    if (ext) {
      const pluginId = this.actionInFlight ?? this.onlyPlugin() ?? SESSION_PLUGIN;
      const b = this.ensureBinding(pluginId);
      const pick = (id: string | undefined) =>
        id ? { outcome: { outcome: 'selected' as const, optionId: id } } : cancelled;
      if (ext.optionIds.length === 0) {
        // 1.38.11 offers only Cancel for an input or a multi-field form: say so instead of a dead prompt.
        this.publish(pluginId, `unanswerable-${ext.id}`, 'notification', {
          title: ext.question || ext.id,
          body: PROMPT_NOT_ANSWERABLE,
          severity: 'warn',
        });
        return pick(ext.cancelId);
      }
      const answer = await this.hub.request(
        pluginId,
        {
          surfaceId: `prompt-${ext.id}`,
          sessionId: b.sessionId,
          generation: b.generation,
          kind: 'select',
          payload: promptForm(ext),
        },
        signal,
      );
      return pick(answer.cancelled ? ext.cancelId : answerOption(ext, (answer.values ?? {}) as FormValues));
    }
    const asker = this.o.permissions;
    if (!asker) return cancelled;
    let input = '';
    try {
      input = JSON.stringify(req.toolCall.rawInput ?? {}, null, 2) ?? '';
    } catch {
      input = String(req.toolCall.rawInput);
    }
    input = redact(input.length > MAX_INPUT_CHARS ? `${input.slice(0, MAX_INPUT_CHARS)}…` : input);
    const chosen = await asker(
      {
        sessionKey: this.sessionKey,
        folderName: this.o.folderName,
        tool: redact(req.toolCall.title || req.toolCall.kind || req.toolCall.toolCallId),
        input,
        options: req.options.map((x) => ({ optionId: x.optionId, name: redact(x.name), kind: x.kind })),
      },
      signal,
    ).catch(() => undefined);
    return chosen && req.options.some((x) => x.optionId === chosen)
      ? { outcome: { outcome: 'selected', optionId: chosen } }
      : cancelled;
  }

  /** Reasonix is gone: the session's surfaces go stale (kept, marked), its prompts are dropped. */
  onClientFailed(err: AcpError): void {
    if (this._failure || this.closed) return;
    this._failure = err;
    for (const [pluginId, b] of this.plugins) {
      b.client.state = 'crashed';
      this.hub.markCrashed(pluginId);
    }
    this.pluginsChanged.fire();
    this.failedEmitter.fire(err);
  }

  // ---- inside ---------------------------------------------------------------------------------

  private onSurface(update: Record<string, unknown>): void {
    let s;
    try {
      s = readExtensionSurface(update);
    } catch (err) {
      this.log.warn(
        `Reasonix session ${this.o.folderName}: an extension surface was not shown: ${redact((err as Error).message)}`,
      );
      return;
    }
    const b = this.ensureBinding(s.pluginId, s.publish);
    if (s.publish.generation < b.generation) {
      this.log.debug(`Reasonix session: a late surface of ${s.pluginId} (generation ${s.publish.generation}) ignored`);
      return;
    }
    let p: UIPublishParams = s.publish;
    if (p.kind === 'form') {
      try {
        const form = decodePublishPayload('form', p.payload).payload as FormPayload;
        p = { ...p, kind: 'card', payload: formAsCard(form) };
      } catch (err) {
        this.log.warn(
          `${s.pluginId} (Reasonix session): form ${redact(p.surfaceId)} refused (${redact((err as Error).message)})`,
        );
        return;
      }
    }
    this.publishParams(s.pluginId, p);
  }

  private publish(pluginId: string, surfaceId: string, kind: UIPublishParams['kind'], payload: unknown): void {
    const b = this.ensureBinding(pluginId);
    this.publishParams(pluginId, { sessionId: b.sessionId, generation: b.generation, surfaceId, kind, payload });
  }

  private publishParams(pluginId: string, p: UIPublishParams): void {
    try {
      // The budget counts the bytes Reasonix spent on the payload (its line carried more: the envelope).
      const bytes = Buffer.byteLength(JSON.stringify(p.payload) ?? '');
      this.hub.publish(pluginId, p, bytes);
    } catch (err) {
      if (!(err instanceof ProtocolError)) throw err;
      this.log.warn(
        `${pluginId} (Reasonix session ${this.o.folderName}): ${p.kind} ${redact(p.surfaceId)} not shown: ${redact(err.message)}`,
      );
    }
  }

  /** The plugin's binding; a surface of a newer generation (a reload) rebinds it (the old surfaces go). */
  private ensureBinding(pluginId: string, p?: { sessionId: string; generation: number }): PluginBinding {
    let b = this.plugins.get(pluginId);
    const newer =
      p && b && (p.generation > b.generation || (p.generation === b.generation && p.sessionId !== b.sessionId));
    if (!b || newer || (p && b.sessionId === '')) {
      const client: PluginBinding['client'] = {
        state: 'running',
        uiActions: b?.client.uiActions ?? this.actionsOf(pluginId),
        request: <R>(method: string, params: object) => this.clientRequest<R>(pluginId, method, params),
      };
      b = { sessionId: p?.sessionId ?? b?.sessionId ?? '', generation: p?.generation ?? b?.generation ?? 0, client };
      this.plugins.set(pluginId, b);
      this.hub.bind(pluginId, b.sessionId, b.generation, client);
      this.pluginsChanged.fire();
    }
    return b;
  }

  /** What the hub asks of a Reasonix-session plugin: actions run as slash commands; no form answers. */
  private async clientRequest<R>(pluginId: string, method: string, params: object): Promise<R> {
    if (method === 'extension/ui/action') {
      const { actionId } = params as { actionId: string };
      return (await this.runAction(pluginId, actionId)) as R;
    }
    throw new AcpError('running', 'unsupported', FORM_NOT_ANSWERABLE);
  }

  private onCommands(list: unknown): void {
    if (!Array.isArray(list)) return;
    this.commands = list
      .filter(
        (c): c is { name: string; description?: unknown } => !!c && typeof c === 'object' && typeof c.name === 'string',
      )
      .slice(0, 1000)
      .map((c) => ({ name: c.name, description: typeof c.description === 'string' ? c.description : '' }));
    const byPlugin = new Map<string, UIActionDecl[]>();
    for (const c of this.commands) {
      const m = /^([A-Za-z0-9][A-Za-z0-9._-]*):([A-Za-z0-9][A-Za-z0-9._-]*)$/.exec(c.name);
      if (!m) continue;
      const list = byPlugin.get(m[1]) ?? [];
      list.push({ actionId: m[2], label: c.description || m[2] });
      byPlugin.set(m[1], list);
    }
    for (const [pluginId, actions] of byPlugin) {
      const b = this.ensureBinding(pluginId);
      b.client.uiActions = actions;
    }
    for (const [pluginId, b] of this.plugins) if (!byPlugin.has(pluginId)) b.client.uiActions = [];
    this.pluginsChanged.fire();
  }

  private actionsOf(pluginId: string): UIActionDecl[] {
    const out: UIActionDecl[] = [];
    for (const c of this.commands) {
      const i = c.name.indexOf(':');
      if (i > 0 && c.name.slice(0, i) === pluginId)
        out.push({ actionId: c.name.slice(i + 1), label: c.description || c.name.slice(i + 1) });
    }
    return out;
  }

  private onlyPlugin(): string | undefined {
    const ids = [...this.plugins.keys()].filter((id) => id !== SESSION_PLUGIN);
    return ids.length === 1 ? ids[0] : undefined;
  }

  private assertOpen(): void {
    if (this._failure) throw this._failure;
    if (this.closed) throw new AcpError('running', 'exit', 'this Reasonix session is closed');
  }
}

/** A form from a Reasonix session as a card: its title, the note why, its fields with their defaults. */
export function formAsCard(form: FormPayload): CardPayload {
  const card: CardPayload = { text: form.message ? `${form.message}\n\n${FORM_NOT_ANSWERABLE}` : FORM_NOT_ANSWERABLE };
  if (form.title) card.title = form.title;
  const fields = form.fields.slice(0, 32).map((f) => {
    const d = f.default;
    const value = d === undefined || d === '' ? '' : typeof d === 'string' ? d : JSON.stringify(d);
    return { key: f.label || f.key, value: value.slice(0, 200) };
  });
  if (fields.length) card.fields = fields;
  return card;
}

const text = (v: unknown, max = 200): string | undefined =>
  typeof v === 'string' ? redact(v).slice(0, max) : undefined;

function readModes(modes: unknown): Pick<SessionChoices, 'modes' | 'currentModeId'> {
  const m = modes as { availableModes?: unknown; currentModeId?: unknown } | undefined;
  const list = Array.isArray(m?.availableModes) ? (m.availableModes as Record<string, unknown>[]) : [];
  return {
    modes: list
      .filter((x) => x && typeof x.id === 'string')
      .slice(0, 64)
      .map((x) => ({ id: x.id as string, name: text(x.name) ?? (x.id as string) })),
    currentModeId: typeof m?.currentModeId === 'string' ? m.currentModeId : undefined,
  };
}

/** Select-type config options (the only type 1.38.11 offers); others are left out. */
function readConfigOptions(v: unknown): SessionChoices['configOptions'] {
  if (!Array.isArray(v)) return [];
  return (v as Record<string, unknown>[])
    .filter((o) => o && typeof o.id === 'string' && Array.isArray(o.options))
    .slice(0, 64)
    .map((o) => ({
      id: o.id as string,
      name: text(o.name) ?? (o.id as string),
      currentValue: typeof o.currentValue === 'string' ? o.currentValue : undefined,
      options: (o.options as Record<string, unknown>[])
        .filter((x) => x && typeof x.value === 'string')
        .slice(0, 256)
        .map((x) => ({ value: x.value as string, name: text(x.name) ?? (x.value as string) })),
    }));
}
