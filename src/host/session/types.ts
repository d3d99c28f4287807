// The port between a front end (the VS Code face, the CLI) and one session of the engine. Front
// ends talk to a session only through this interface; `composition.ts` builds it from the
// runtime, UI hub, intercepts and streams, so a change in one engine module touches one adapter.
import type { ProviderDescriptor } from '../../protocol';
import type { PluginSpec } from '../plugins';
import type { Unmet } from '../generations';
import type { FormValues } from '../../protocol';
import type { UiFrontEnd } from '../ui';
import type { StartSlots } from '../generations';
import type { Disposable } from '../emitter';
import type { ToolCallOptions, ToolCallOutcome, ToolInfo, ToolRef } from '../tools';

export type { Disposable };
export type { ToolCallOptions, ToolCallOutcome, ToolFailureReason, ToolInfo, ToolPoint, ToolRef } from '../tools';

/** Why a sidecar failed to start or crashed (redacted; declared with the sidecar). */
export type { FailureInfo } from '../sidecar';
import type { FailureInfo } from '../sidecar';

/**
 * Sidecar states (src/host/sidecar) plus the states a plugin has without a process: `disabled`
 * for this folder, `inactive` when a capability it requires is missing (HOST_SPEC_V2 §11).
 */
export type EngineState =
  'idle' | 'starting' | 'running' | 'stopping' | 'stopped' | 'crashed' | 'failed' | 'disabled' | 'inactive';

export interface ActionInfo {
  actionId: string;
  label: string;
}

/** One plugin of one session as the views show it. */
export interface PluginStatus {
  pluginId: string;
  /** Absent for records discovery refused (then `detail` says why). */
  spec?: PluginSpec;
  state: EngineState;
  pid?: number;
  readyAt?: number;
  actions: ActionInfo[];
  lastFailure?: FailureInfo;
  /** Readable reason for disabled, inactive and not runnable plugins. */
  detail?: string;
  /** Inactive: every required capability it lacks, with Reasonix's reason (`dependency_unsatisfied`, `schema_mismatch`). */
  inactive?: readonly Unmet[];
  /** Installed by Reasonix (plugin-packages.json) or a linked development folder. */
  origin: PluginSpec['source'];
  /** For state 'disabled': off in Reasonix (every session) or for this folder only. */
  disabledBy?: 'reasonix' | 'folder';
}

export interface ActionResult {
  accepted: boolean;
  message?: string;
}

export interface ModelInfo {
  pluginId: string;
  /** `plugin/<pluginId>/<name>/<model>`. */
  ref: string;
  label?: string;
  /** The model segment `stream/open` carries for this ref, when the declaration names one. */
  model?: string;
  /** The catalog entry as the plugin declared it (display name, context window, tools, vision…). */
  descriptor?: ProviderDescriptor;
}

export interface DispatchCallOptions {
  knownTools?: readonly string[];
  /**
   * The caller gives up: the dispatch rejects with the signal's reason and every intercept still
   * waiting is abandoned (its late answer ignored), so nothing keeps running for a caller that left.
   */
  signal?: AbortSignal;
}

/** One plugin asked at a hook point (the dispatcher's own list; see SessionEngine.interceptorsAt). */
export interface HookMember {
  pluginId: string;
  required: boolean;
  running: boolean;
  /** Its state in words when not running ("crashed", "stopped", "failed"…). */
  state?: string;
}

/** What a dispatched hook point came to (the engine's outcome, passed through). */
export interface HookOutcome {
  decision: string;
  payload: unknown;
  changedBy: string[];
  warnings: string[];
  reason?: string;
  /** The plugin whose block/allow/deny decided the outcome. */
  blockedBy?: string;
  /** Set when decision is 'failed': the required-class failure that aborted the operation. */
  error?: { reason: string; message: string; pluginId: string };
  /** Optional chain members whose ruling could not be had (not running, too large, timed out…). */
  skipped: { pluginId: string; reason: string; message: string }[];
}

export interface StreamHandle extends AsyncIterable<unknown> {
  readonly streamId: string;
  /** One terminal outcome: completed, failed or interrupted. */
  readonly outcome: Promise<{ kind: 'completed' | 'failed' | 'interrupted'; reason?: string; message?: string }>;
  cancel(): void;
}

/** The UI hub's ports, part of the session's port: the front end it asks, the surfaces it feeds. */
export type { SurfaceFeed, UiFrontEnd } from '../ui';

export interface SessionEngine {
  readonly sessionId: string;
  /** Grows on every reload and restart; starts at 1. */
  readonly generation: number;
  plugins(): PluginStatus[];
  start(): Promise<void>;
  /** Fail-atomic: on failure the previous generation keeps running and the error is thrown. */
  reload(): Promise<void>;
  /**
   * Discovers again and changes only what changed: stand-alone plugins added, removed or changed
   * start or stop alone and the rest keep running; anything else reloads (fail-atomic, throws as
   * reload() does). Plugins that fail to start are reported through onStartFailure.
   */
  reconcile(): Promise<'unchanged' | 'in-place' | 'rebuilt'>;
  restartPlugin(pluginId: string): Promise<void>;
  stopPlugin(pluginId: string): Promise<void>;
  startPlugin(pluginId: string): Promise<void>;
  stop(): Promise<void>;
  /** Sends `extension/resources/changed` to every initialized sidecar; returns how many got it. */
  notifyResourcesChanged(paths: string[]): number;
  invokeAction(pluginId: string, actionId: string, args?: Record<string, string>): Promise<ActionResult>;
  submit(pluginId: string, surfaceId: string, values: FormValues): Promise<ActionResult>;
  /**
   * `knownTools`: the tools the caller's agent has; a `tool.before` replacement naming another
   * tool then fails the call (contract violation, every plugin class). Omitted: any name passes.
   */
  dispatch(point: string, payload: unknown, opts?: DispatchCallOptions): Promise<HookOutcome>;
  /** Who is asked at `point` in the current generation, in order, as the dispatcher walks it. */
  interceptorsAt(point: string): HookMember[];
  /** Catalog entries the plugin also declared at handshake (each one resolves in openStream). */
  models(): Promise<ModelInfo[]>;
  /**
   * Resolves `providerRef` against the handshake declarations (streams/resolve.ts) and opens the
   * stream with the declared ref and model; an undeclared ref rejects with UnknownModelError
   * ("unknown model …", reason invalid_params) before anything is sent.
   */
  openStream(
    providerRef: string,
    request: unknown,
    opts?: { model?: string; signal?: AbortSignal },
  ): Promise<StreamHandle>;
  /**
   * The tools the running extensions of the published generation serve (HOST_SPEC_V2 §12):
   * declared in `runtime.tools` and named in `InitializeResult.tools`, with the model-facing name
   * `ext__<plugin>__<tool>` and the manifest's description, input schema and readOnly hint.
   */
  tools(): ToolInfo[];
  /** Fires when `tools()` would answer differently: an extension started, stopped, crashed, or a reload. */
  onDidChangeTools(listener: () => void): Disposable;
  /**
   * Calls a tool by its model-facing name or by plugin id and tool name; never rejects. The call
   * first passes the folder's `tool.before` and `permission.decision` chain with the model-facing
   * name (unless `opts.interceptors` is `'after'`: the caller did), and its result `tool.after`.
   * `args`: a JSON object, `{}` when absent.
   */
  callTool(tool: ToolRef, args?: unknown, opts?: ToolCallOptions): Promise<ToolCallOutcome>;
  onDidChange(listener: () => void): Disposable;
  onCrash(listener: (info: FailureInfo) => void): Disposable;
  onStartFailure(listener: (info: FailureInfo) => void): Disposable;
}

export interface SessionEngineOptions {
  sessionKey: string;
  sessionId: string;
  folderName: string;
  workspaceRoot: string;
  home: string;
  /** Read at every discovery (start and reload), so linking or disabling takes effect on reload. */
  linked(): readonly string[];
  disabled(): readonly string[];
  frontEnd: UiFrontEnd;
  maxParallelStarts: number;
  startupBudgetMs: number;
  /** The window's start queue shared by every folder (absent: `maxParallelStarts` bounds this session alone). */
  startSlots?: StartSlots;
  /** This folder's standing in that queue (higher first: the folder the user is in). */
  startPriority?: () => number;
}
