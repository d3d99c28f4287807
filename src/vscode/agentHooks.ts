// Wiring of the window's private endpoint: it answers agent hooks while the setting
// `reasonix.agentHooks.enabled` is on (the contributed agent plugin's `when` clause says the same),
// and serves the folders' extension tools to MCP clients where VS Code can list MCP servers
// (issue 24); it runs only in a trusted workspace. Every decision goes to the Reasonix output channel
// at Info and counts for the deciding extension (shown in its Extensions-view tooltip). A VS Code
// older than agent plugins (1.114) ignores the contribution: the endpoint still runs there, for
// agents in its terminals (`reasonix-host hook`), and the log says VS Code's own agents are not
// governed.
import * as vscode from 'vscode';
import type { DecisionRecord, HookWindow, McpCallRecord, WindowMcpOptions } from '../hooksWindow';
import { lazyModule } from './lazyModule';
import { labelledSessions } from './mcp/labels';
import type { ExtensionLog } from './logging';
import { agentHooksEnabled, ignoredWorkspaceValues, workspaceValue } from './settings';
import type { SessionManager } from './sessions';
import { showLogsLabel } from './failures';
import { AGENT_PLUGINS_SINCE, atLeast } from './vscodeVersion';

/** The window side of the endpoint (dist/hooks-window.js), required when the endpoint opens. */
const windowModule = lazyModule<typeof import('../hooksWindow')>('hooks-window.js', 'hooksWindow');

/** "PreToolUse rm_rf: deny by showcase — reason" (the log redacts it again). */
export function describeDecision(r: DecisionRecord, folderName: string | undefined): string {
  const where = folderName ? `[${folderName}] ` : '';
  const what = `${r.event}${r.tool ? ` ${r.tool}` : ''}`;
  const unheard = `${r.unheard ? `; could not ask ${r.unheard}` : ''}${r.toolUseId ? ` [tool_use_id ${r.toolUseId}]` : ''}`;
  if (r.decision === 'none') return `${where}agent hook ${what}: no decision${r.note ? ` (${r.note})` : ''}${unheard}`;
  return `${where}agent hook ${what}: ${r.decision}${r.extension ? ` by ${r.extension}` : ''}${r.reason ? ` — ${r.reason}` : ''}${unheard}`;
}

export class AgentHooks implements vscode.Disposable {
  private window: HookWindow | undefined;
  private opening: Promise<void> | undefined;
  /** What the last sync decided, so a change is logged once, plainly. */
  private governing: boolean | undefined;
  /** Ignored workspace values already named in the log (once each, not on every sync). */
  private readonly saidIgnored = new Set<string>();
  private readonly counts = new Map<string, number>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when an extension's decision count changed. */
  readonly onDidChange = this.changed.event;
  private readonly endpointChanged = new vscode.EventEmitter<void>();
  /** Fires when the endpoint opened or closed (`windowId` changed). */
  readonly onDidChangeEndpoint = this.endpointChanged.event;

  constructor(
    private readonly sessions: SessionManager,
    private readonly log: ExtensionLog,
    private readonly isTrusted: () => boolean,
    /** How MCP clients are served; absent where VS Code has no MCP server definition API. */
    private readonly mcp?: Omit<WindowMcpOptions, 'onCall'>,
  ) {}

  /** The open endpoint's window id (what `reasonix-host mcp --window` names), else undefined. */
  get windowId(): string | undefined {
    return this.window && !this.window.problem ? this.window.id : undefined;
  }

  /** Decisions the extension made for agents in this folder's session since the window opened. */
  decisions(sessionKey: string, pluginId: string): number {
    return this.counts.get(`${sessionKey}#${pluginId}`) ?? 0;
  }

  /** Starts or stops the endpoint to match the setting (the user's value only) and trust. */
  async sync(): Promise<void> {
    await this.opening;
    const enabled = agentHooksEnabled();
    // MCP clients need the endpoint too: with them it stays open while hooks are off.
    const wanted = (enabled || this.mcp !== undefined) && this.isTrusted();
    this.logGovernance(enabled, enabled && this.isTrusted());
    if (wanted && !this.window) {
      this.opening = this.open();
      await this.opening;
      this.opening = undefined;
    } else if (!wanted && this.window) {
      const w = this.window;
      this.window = undefined;
      await w.close();
      this.endpointChanged.fire();
      this.log.info(
        'window endpoint closed (reasonix.agentHooks.enabled is off in user settings and VS Code lists no MCP servers, or the workspace is not trusted)',
      );
    }
  }

  /** Says when governance turns on or off and why; a workspace's own value is named as ignored. */
  private logGovernance(enabled: boolean, wanted: boolean): void {
    const ignored = workspaceValue<boolean>(vscode.workspace.getConfiguration('reasonix'), 'agentHooks.enabled');
    const written = ignoredWorkspaceValues('agentHooks.enabled');
    if (ignored !== undefined) written.push({ file: 'the workspace settings', value: ignored });
    for (const { file, value } of written)
      if (value !== enabled && !this.saidIgnored.has(`${file}=${value}`)) {
        this.saidIgnored.add(`${file}=${value}`);
        this.log.warn(
          `agent hooks: the workspace setting reasonix.agentHooks.enabled = ${String(value)} (${file}) is ignored; whether Reasonix extensions govern agents is decided in user settings only`,
        );
      }
    if (this.governing === wanted) return;
    const was = this.governing;
    this.governing = wanted;
    if (was === undefined && wanted) return; // the normal start: the open line says it
    const why = !enabled ? 'turned off in user settings (reasonix.agentHooks.enabled)' : 'the workspace is not trusted';
    this.log.warn(
      wanted
        ? 'agent hooks: Reasonix extensions govern VS Code agents again (user setting reasonix.agentHooks.enabled is on)'
        : `agent hooks: Reasonix extensions no longer govern VS Code agents: ${why}`,
    );
  }

  private async open(): Promise<void> {
    let dirs: readonly string[] = ['the agent hooks directory'];
    try {
      const { HookWindow, hooksDirs } = windowModule();
      dirs = hooksDirs();
      const w = (this.window = await HookWindow.open({
        dirs,
        runtime: process.execPath,
        folders: () =>
          (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
        sessions: () =>
          labelledSessions(this.sessions.sessions()).map(({ session: s, title }) => ({
            folder: s.folder.uri.fsPath,
            session: s.engine,
            sessionKey: s.key,
            // VS Code names the folder's MCP tools after its server's title (src/vscode/mcp/labels.ts).
            mcpLabel: title,
            ready: (reason = 'hook') => this.sessions.use(s.key, reason),
            waiting: () => this.sessions.waitingPlugins(s.key),
          })),
        onDecision: (r, folder) => this.onDecision(r, folder),
        hooksEnabled: agentHooksEnabled,
        mcp: this.mcp && { ...this.mcp, onCall: (r) => this.onMcpCall(r) },
        logger: this.log,
      }));
      this.endpointChanged.fire();
      if (w.problem) this.unavailable(w.problem, true);
      else if (!atLeast(vscode.version, AGENT_PLUGINS_SINCE))
        // The endpoint still serves agents that read Claude-Code-style hooks (README "Agent hooks").
        this.log.info(
          `agent hooks: VS Code ${vscode.version} loads no agent plugins (chatPlugins, ${AGENT_PLUGINS_SINCE} or later), so its own agents are not governed; agents in this window's terminals reach Reasonix through \`reasonix-host hook\` on ${w.endpoint}`,
        );
      else if (agentHooksEnabled()) this.log.info(`agent hooks: answering VS Code's agent hooks on ${w.endpoint}`);
      else
        this.log.info(
          `agent hooks: off (reasonix.agentHooks.enabled); the endpoint ${w.endpoint} stays open for MCP clients`,
        );
      if (!w.problem && this.mcp)
        this.log.info(`MCP: serving the folders' extension tools to MCP clients on ${w.endpoint}`);
    } catch (err) {
      this.unavailable(`${(err as Error).message} (looked in ${dirs.join(', ')})`, false);
    }
  }

  /** The endpoint could not be opened: said in the log and once to the user, with what it means. */
  private unavailable(why: string, recorded: boolean): void {
    const text = recorded
      ? vscode.l10n.t(
          'Reasonix: agent hooks cannot be answered in this window ({0}). Agents cannot be governed from this window: a required Reasonix extension refuses what it would rule on, the others give no ruling. Fix the directory, then run Reasonix: Reload Runtime.',
          why,
        )
      : vscode.l10n.t(
          'Reasonix: agent hooks cannot be answered in this window ({0}). Agents run without Reasonix rulings. Fix the directory, then run Reasonix: Reload Runtime.',
          why,
        );
    this.log.error(text);
    void vscode.window.showWarningMessage(text, showLogsLabel()).then((pick) => {
      if (pick) this.log.show();
    });
  }

  /** Workspace folders (or the extensions running in them) changed: the record must say so. */
  foldersChanged(): void {
    this.window?.updateFolders();
  }

  private onDecision(r: DecisionRecord, folder: string | undefined): void {
    const s = folder ? this.sessions.sessions().find((x) => x.folder.uri.fsPath === folder) : undefined;
    const line = describeDecision(r, s?.folder.name);
    // An extension that could not be asked is never quiet (issue 28 item 4).
    if (r.unheard) this.log.warn(line);
    else if (r.decision === 'none') return this.log.debug(line);
    else this.log.info(line);
    if (r.decision === 'none') return;
    if (!s || !r.extension) return;
    for (const id of r.extension.split(', ')) {
      const key = `${s.key}#${id}`;
      this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    }
    this.changed.fire();
  }

  /** "[folder] MCP tool ext__p__t: result in 12 ms (tool.after only: PreToolUse had ruled)". */
  private onMcpCall(r: McpCallRecord): void {
    const s = this.sessions.sessions().find((x) => x.folder.uri.fsPath === r.folder);
    const where = s ? `[${s.folder.name}] ` : '';
    const o = r.outcome;
    const how =
      o.kind === 'result'
        ? o.isError
          ? 'tool error'
          : 'result'
        : o.kind === 'refused'
          ? `refused by ${o.by}`
          : `failed (${o.reason})`;
    const chain = r.ruledByHook ? 'tool.after only: PreToolUse had ruled' : 'the whole interceptor chain';
    const line = `${where}MCP tool ${o.modelName}: ${how} in ${r.elapsedMs.toFixed(0)} ms (${chain})`;
    if (o.kind === 'failed') this.log.warn(`${line}: ${o.message}`);
    else this.log.info(line);
  }

  async close(): Promise<void> {
    await this.opening;
    const w = this.window;
    this.window = undefined;
    await w?.close();
    if (w) this.endpointChanged.fire();
  }

  dispose(): void {
    void this.close();
    this.changed.dispose();
    this.endpointChanged.dispose();
  }
}
