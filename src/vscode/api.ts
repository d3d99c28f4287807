// The API other VS Code extensions get from `vscode.extensions.getExtension('reasonix.reasonix-vscode-host').exports`
// (documented in docs/api.md). It reads the live sessions; it never starts anything itself.
import type { UseReason } from '../host/folders';
import type { Surface, SurfaceChange } from '../protocol';
import type { RunActionArgs, RunOutcome } from './actions';
import type {
  ActionInfo,
  Disposable,
  HookOutcome,
  ModelInfo,
  StreamHandle,
  SurfaceFeed,
  ToolCallOutcome,
  ToolInfo,
} from '../host/session';
import { rowsOf, type Row } from './rows';
import type { FolderSession, SessionManager } from './sessions';

export interface SessionInfo {
  /** The folder URI string; pass it as `folder` to the other calls. */
  key: string;
  folderName: string;
  workspaceRoot: string;
  sessionId: string;
  generation: number;
  /** Whether the folder's extensions run: a window of several folders starts each on first use. */
  started: 'not-started' | 'starting' | 'started' | 'idle-stopped' | 'stopping';
}

export interface PluginInfo {
  sessionKey: string;
  folderName: string;
  pluginId: string;
  state: 'starting' | 'running' | 'crashed' | 'stopped' | 'failed' | 'disabled' | 'inactive';
  pid?: number;
  readyAt?: number;
  version?: string;
  source?: 'installed' | 'linked';
  /** For state 'disabled': turned off in Reasonix (every folder and Reasonix session) or for this folder only. */
  disabledIn?: 'reasonix' | 'folder';
  actions: ActionInfo[];
  detail?: string;
  /** Decisions it made for VS Code's agents through agent hooks since the window opened. */
  agentDecisions?: number;
}

export interface ReasonixApi {
  readonly apiVersion: 1;
  listSessions(): SessionInfo[];
  listPlugins(folder?: string): PluginInfo[];
  /**
   * Dispatches any of the 17 hook points in one session, exactly as the engine does. `knownTools`:
   * the caller's tools; a tool.before replacement naming another one fails the call.
   */
  dispatch(
    point: string,
    payload: unknown,
    opts?: { folder?: string; knownTools?: readonly string[] },
  ): Promise<HookOutcome>;
  /** Models served by extension-hosted providers (`plugin/<id>/<name>/<model>`). */
  listModels(opts?: { folder?: string }): Promise<ModelInfo[]>;
  /** Opens a provider stream: iterate it for chunks, await `outcome` for how it ended. */
  openStream(
    providerRef: string,
    request: unknown,
    opts?: { folder?: string; model?: string; signal?: AbortSignal },
  ): Promise<StreamHandle>;
  /** Tools the running protocol v2 extensions of a folder serve (`ext__<plugin>__<tool>`). */
  listTools(opts?: { folder?: string }): ToolInfo[];
  /**
   * Calls one by its model-facing name (or plugin id and tool name): the folder's tool.before and
   * permission.decision interceptors first, then the tool, then tool.after. Never rejects for the
   * call itself: a result (`isError` = the tool's own failure), a refusal or a failed call.
   */
  callTool(
    tool: string | { pluginId: string; name: string },
    args?: Record<string, unknown>,
    opts?: { folder?: string; signal?: AbortSignal },
  ): Promise<ToolCallOutcome>;
  /** The tool listing of some folder changed (an extension started, stopped or crashed, a reload). */
  onDidChangeTools(listener: () => void): Disposable;
  runAction(args: RunActionArgs): Promise<RunOutcome>;
  surfaces(): Surface[];
  onDidChangeSurfaces(listener: (change: SurfaceChange) => void): Disposable;
  onDidChangeSessions(listener: () => void): Disposable;
  /** A plugin crashed or failed to start (the user also sees a notification). */
  onDidFailPlugin(listener: (failure: PluginFailure) => void): Disposable;
  /** Read-only figures about this extension itself (what `npm run bench` reads in a real VS Code). */
  diagnostics(): ApiDiagnostics;
}

export interface ApiDiagnostics {
  /** Milliseconds `activate()` spent on its own work (the "activated in N ms" log line). */
  readonly activationMs: number;
  /** CPU time of this process during that work: less sensitive than wall time to a busy machine. */
  readonly activationCpuMs: number;
}

export interface PluginFailure {
  kind: 'crash' | 'start';
  sessionKey: string;
  folderName: string;
  pluginId: string;
  /** What was happening: spawn, handshake, running, shutdown, launch… */
  stage: string;
  reason: string;
  /** Redacted. */
  message: string;
  /** The notification text shown to the user (plugin, stage, elapsed time, stderr tail). */
  notification: string;
  elapsedMs: number;
}

/** The session of `folder` (its key, name or path), or the first session when none is named. */
function sessionFor(sessions: SessionManager, folder?: string): FolderSession {
  const all = sessions.sessions();
  const s =
    folder === undefined
      ? all[0]
      : all.find((x) => x.key === folder || x.folder.name === folder || x.folder.uri.fsPath === folder);
  if (!s)
    throw new Error(
      folder === undefined ? 'no Reasonix session is running' : `no Reasonix session for folder "${folder}"`,
    );
  return s;
}

function sessionInfo(s: FolderSession, started: SessionInfo['started']): SessionInfo {
  return {
    key: s.key,
    folderName: s.folder.name,
    workspaceRoot: s.folder.uri.fsPath,
    sessionId: s.sessionId,
    generation: s.engine.generation,
    started,
  };
}

function pluginInfo(r: Row, agentDecisions?: (sessionKey: string, pluginId: string) => number): PluginInfo {
  return {
    sessionKey: r.sessionKey,
    folderName: r.folderName,
    pluginId: r.pluginId,
    state: r.state,
    pid: r.pid,
    readyAt: r.readyAt,
    version: r.status.spec?.version,
    source: r.status.spec?.source ?? r.status.origin,
    disabledIn: r.status.disabledBy,
    actions: r.status.actions,
    detail: r.detail,
    agentDecisions: agentDecisions?.(r.sessionKey, r.pluginId),
  };
}

/** Every session's tool listing, including sessions that start later; a removed one is let go. */
function followTools(sessions: SessionManager, listener: () => void): Disposable {
  const subs = new Map<FolderSession, Disposable>();
  const follow = () => {
    const now = new Set(sessions.sessions());
    for (const [s, d] of subs)
      if (!now.has(s)) {
        d.dispose();
        subs.delete(s);
      }
    for (const s of now) if (!subs.has(s)) subs.set(s, s.engine.onDidChangeTools(listener));
  };
  follow();
  const onSessions = sessions.onDidChange(follow);
  return {
    dispose: () => {
      onSessions.dispose();
      for (const d of subs.values()) d.dispose();
    },
  };
}

export function createApi(
  sessions: SessionManager,
  surfaces: SurfaceFeed,
  run: (a: RunActionArgs) => Promise<RunOutcome>,
  diagnostics: () => ApiDiagnostics,
  agentDecisions?: (sessionKey: string, pluginId: string) => number,
): ReasonixApi {
  const pick = (folder?: string): FolderSession => sessionFor(sessions, folder);
  const used = async (folder: string | undefined, why: UseReason): Promise<FolderSession> => {
    const s = pick(folder);
    await sessions.use(s.key, why);
    return s;
  };
  return {
    apiVersion: 1,
    listSessions: () => sessions.sessions().map((s) => sessionInfo(s, sessions.startState(s.key) ?? 'not-started')),
    listPlugins: (folder) =>
      rowsOf(folder === undefined ? sessions.sessions() : [pick(folder)]).map((r) => pluginInfo(r, agentDecisions)),
    // A call naming a folder starts its extensions first when they wait for a first use (multi-root).
    dispatch: async (point, payload, opts) =>
      (await used(opts?.folder, 'hook')).engine.dispatch(point, payload, { knownTools: opts?.knownTools }),
    listModels: async (opts) => (await used(opts?.folder, 'model')).engine.models(),
    openStream: async (ref, request, opts) =>
      (await used(opts?.folder, 'model')).engine.openStream(ref, request, { model: opts?.model, signal: opts?.signal }),
    listTools: (opts) => pick(opts?.folder).engine.tools(),
    callTool: async (tool, args, opts) =>
      (await used(opts?.folder, 'tool')).engine.callTool(tool, args, { signal: opts?.signal }),
    onDidChangeTools: (l) => followTools(sessions, l),
    runAction: run,
    diagnostics,
    surfaces: () => surfaces.snapshot(),
    onDidChangeSurfaces: (l) => surfaces.onDidChange(l),
    onDidChangeSessions: (l) => sessions.onDidChange(l),
    onDidFailPlugin: (l) =>
      sessions.onDidFail(({ session, info, kind, notification }) =>
        l({
          kind,
          sessionKey: session.key,
          folderName: session.folder.name,
          pluginId: info.pluginId,
          stage: info.stage,
          reason: info.reason,
          message: info.message,
          notification,
          elapsedMs: info.elapsedMs,
        }),
      ),
  };
}
