// Reasonix extension tools offered to VS Code's agents (issue 24): an MCP server definition per
// workspace folder whose extensions serve tools. The definition runs the CLI shipped in the
// extension (`dist/cli.js mcp --window <id>`) with the runtime VS Code already has; that process
// only relays its stdio to this window's private endpoint, where the folder's running session
// answers (src/host/mcp/windowKind.ts), so no extension is started twice and the agent's hooks and
// the MCP call meet in one place. Feature-detected: where VS Code has no MCP server definition API
// nothing is registered. Untrusted workspaces run no session, so they are offered nothing.
import * as vscode from 'vscode';
import type { PluginStatus, SurfaceFeed } from '../../host/session';
import type { Logger } from '../../host/log';
import type { PluginSpec } from '../../host/plugins';
import { lazyModule } from '../lazyModule';
import type { WindowMcpOptions } from '../../hooksWindow';
import type { FolderSession, SessionManager } from '../sessions';
import { labelledSessions } from './labels';
import {
  detectMcpApi,
  type McpApi,
  type McpServerDefinitionProvider,
  type McpStdioServerDefinition,
} from './vscodeMcp';

/** The id contributed in package.json `contributes.mcpServerDefinitionProviders`. */
export const MCP_PROVIDER_ID = 'reasonix.tools';

/**
 * States in which an extension keeps its folder's definition: a crashed one is being restarted,
 * and tearing the server down meanwhile would make VS Code forget it until the next chat turn.
 */
const SERVING = new Set<PluginStatus['state']>(['idle', 'starting', 'running', 'crashed']);

/**
 * Folders whose extensions serve (or are about to serve) tools, in workspace order. A folder waiting
 * for its first use counts when its manifests declare tools: its server lists them and the first
 * call starts it (docs/scale.md).
 */
export function toolFolders(
  sessions: readonly FolderSession[],
  waitingPlugins: (key: string) => readonly PluginSpec[] | undefined = () => undefined,
): FolderSession[] {
  const serves = (s: FolderSession) => {
    const waiting = waitingPlugins(s.key);
    if (waiting) return waiting.some((p) => p.runtime.tools.length > 0);
    return s.engine.plugins().some((p) => (p.spec?.runtime.tools.length ?? 0) > 0 && SERVING.has(p.state));
  };
  return sessions.filter(serves).sort((a, b) => a.folder.index - b.folder.index);
}

/** What the bundled CLI is run with and where it is. */
export interface McpLaunch {
  /** VS Code's own runtime (Electron run as Node, or the remote server's Node). */
  runtime: string;
  cli: string;
  version: string;
}

/** The stdio launch of `reasonix-host mcp` for one folder of one window (also what Copy… puts on the clipboard). */
export function mcpArgs(launch: McpLaunch, folder: string, windowId?: string): string[] {
  return [launch.cli, 'mcp', ...(windowId ? ['--window', windowId] : []), '--workspace', folder];
}

/** ELECTRON_RUN_AS_NODE makes desktop VS Code's executable run the script as Node; Node ignores it. */
export const MCP_ENV: Readonly<Record<string, string>> = { ELECTRON_RUN_AS_NODE: '1' };

export interface McpToolsDeps {
  sessions: SessionManager;
  /** Asked on every listing too, not only by the session manager (nothing is offered untrusted). */
  isTrusted(): boolean;
  /** The open endpoint's window id, else undefined (then nothing is offered). */
  windowId(): string | undefined;
  onDidChangeEndpoint: vscode.Event<void>;
  launch: McpLaunch;
  log: Logger;
}

/** The provider VS Code asks; exported for the in-host tests, which construct it over their own sessions. */
export class McpDefinitions implements McpServerDefinitionProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private key = '';
  private readonly subs: vscode.Disposable[];

  constructor(
    private readonly StdioDefinition: McpApi['StdioDefinition'],
    private readonly deps: McpToolsDeps,
  ) {
    this.key = this.currentKey();
    const check = () => {
      const next = this.currentKey();
      if (next === this.key) return;
      this.key = next;
      this.changed.fire();
    };
    this.subs = [
      deps.sessions.onDidChange(check),
      deps.onDidChangeEndpoint(check),
      vscode.workspace.onDidGrantWorkspaceTrust(check),
      this.changed,
    ];
  }

  /** Equal keys mean equal definitions: VS Code restarts a server whose definition changed. */
  private currentKey(): string {
    const id = this.deps.isTrusted() ? this.deps.windowId() : undefined;
    return id
      ? JSON.stringify([id, ...this.served().map(({ session, label, title }) => [session.key, label, title])])
      : '';
  }

  /** The folders serving tools, each with its label (decided over all the window's folders). */
  private served(): { session: FolderSession; label: string; title: string }[] {
    const all = this.deps.sessions.sessions();
    const serving = new Set(toolFolders(all, (key) => this.deps.sessions.waitingPlugins(key)));
    return labelledSessions(all).filter(({ session }) => serving.has(session));
  }

  provideMcpServerDefinitions(): McpStdioServerDefinition[] {
    const windowId = this.deps.windowId();
    if (!windowId || !this.deps.isTrusted()) return [];
    return this.served().map(({ session, label, title }) => {
      const def = new this.StdioDefinition(
        label,
        this.deps.launch.runtime,
        mcpArgs(this.deps.launch, session.folder.uri.fsPath, windowId),
        // The title is the window's to give (windowMcpOptions); in the launch too, so a new title
        // (a second folder opened) is a changed definition and VS Code restarts the server.
        { ...MCP_ENV, REASONIX_MCP_TITLE: title },
        this.deps.launch.version,
      );
      def.cwd = session.folder.uri;
      return def;
    });
  }

  dispose(): void {
    this.subs.forEach((d) => d.dispose());
  }
}

/** Registers the provider where VS Code has the API; returns what to dispose, or undefined. */
export function registerMcpTools(deps: McpToolsDeps): vscode.Disposable | undefined {
  const api = detectMcpApi(vscode);
  if (!api) {
    deps.log.info(
      'this VS Code has no MCP server definition API (vscode.lm.registerMcpServerDefinitionProvider, VS Code 1.101+): Reasonix extension tools are not offered to its agents; reasonix-host mcp serves them to other MCP clients',
    );
    return undefined;
  }
  const provider = new McpDefinitions(api.StdioDefinition, deps);
  return vscode.Disposable.from(provider, api.register(MCP_PROVIDER_ID, provider));
}

/** Whether this VS Code can list MCP servers an extension provides (the endpoint then serves MCP). */
export function hasMcpApi(): boolean {
  return detectMcpApi(vscode) !== undefined;
}

/** The MCP SDK server (dist/mcp-window.js), required on the first MCP connection. */
const mcpModule = lazyModule<ReturnType<WindowMcpOptions['load']>>('mcp-window.js', 'mcpWindow');

/** How the window's endpoint serves MCP clients. */
export function windowMcpOptions(
  sessions: SessionManager,
  version: string,
  surfaces?: SurfaceFeed,
): Omit<WindowMcpOptions, 'onCall'> {
  // The window's surfaces: views anchored to a call show on its chat card (issue 41, docs/webview.md).
  return {
    load: mcpModule,
    version,
    // Each folder's server names itself as labels.ts says, so VS Code names its tools the same every run.
    title: (folder) =>
      labelledSessions(sessions.sessions()).find(({ session }) => session.folder.uri.fsPath === folder)?.title,
    onDidChangeSessions: (listener) => sessions.onDidChange(listener),
    ...(surfaces ? { surfaces } : {}),
  };
}
