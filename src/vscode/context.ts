// The extension's context object (rust-analyzer style): everything that lives as long as the
// extension, plus the sessions, which own their per-run resources and are stopped on deactivate.
import * as vscode from 'vscode';
import { SurfaceStore, type SurfaceFeed } from '../host/ui';
import { runAction } from './actions';
import { AgentHooks } from './agentHooks';
import { createApi, type ReasonixApi } from './api';
import { registerAuthoring } from './author/register';
import { registerCommands } from './commands';
import type { SidecarFactory } from '../host/session';
import { engineModule } from './engineModule';
import { Enablement } from './enablement';
import { LinkedFolders } from './linking';
import { ModelDirectory } from './lm/directory';
import { registerLanguageModels } from './lm/provider';
import { createLog, type ExtensionLog } from './logging';
import { registerCopyMcpConfiguration } from './mcp/copyConfig';
import { hasMcpApi, registerMcpTools, windowMcpOptions, type McpLaunch } from './mcp/provider';
import { join } from 'node:path';
import { watchPackagesFile } from '../host/plugins';
import { DetailsDocuments } from './manage/details';
import { modalConsent, registerManageCommands, type Consent } from './manage/register';
import { lazyModule } from './lazyModule';
import { VsCodePrompts } from './prompts';
import { rowsOf } from './rows';
import { SessionManager } from './sessions';
import { debugLaunches, frameTaps } from './sidecarFactory';
import { readSettings, toolCardsEnabled } from './settings';
import { StatusBar } from './statusBar';
import { registerSurfaces, type SurfacesController } from './surfaces';
import { surfaceSink, surfacesViewFeed } from './surfacesBridge';
import { registerReasonixSessions, sessionActions, type SessionSurfaceTarget } from './reasonixSessions/register';
import { SupervisionTree } from './supervisionTree';

/** A tool call's path and its argument check (ajv): their own bundle, required on the first tool call. */
const toolCalls = lazyModule<typeof import('../toolCalls')>('tool-calls.js', 'toolCalls');

/**
 * What VS Code's agents get from the window: the private endpoint (agent hooks, and MCP clients
 * where VS Code lists MCP servers), the MCP server definitions, and Copy MCP Server Configuration.
 */
function agentFeatures(
  ext: vscode.ExtensionContext,
  sessions: SessionManager,
  log: ExtensionLog,
  isTrusted: () => boolean,
  store: SurfaceFeed,
): { agentHooks: AgentHooks; mcpLaunch: McpLaunch; disposables: vscode.Disposable[] } {
  const mcpLaunch: McpLaunch = {
    runtime: process.execPath,
    cli: join(ext.extensionPath, 'dist', 'cli.js'),
    version: String((ext.extension.packageJSON as { version?: string }).version ?? '0.0.0'),
  };
  const agentHooks = new AgentHooks(
    sessions,
    log,
    isTrusted,
    hasMcpApi()
      ? // Views on chat cards (issue 41) unless the user turned them off (read at activation).
        windowMcpOptions(sessions, mcpLaunch.version, toolCardsEnabled() ? store : undefined)
      : undefined,
  );
  const mcpTools = registerMcpTools({
    sessions,
    isTrusted,
    windowId: () => agentHooks.windowId,
    onDidChangeEndpoint: agentHooks.onDidChangeEndpoint,
    launch: mcpLaunch,
    log,
  });
  const disposables = [agentHooks, ...(mcpTools ? [mcpTools] : []), registerCopyMcpConfiguration(mcpLaunch)];
  return { agentHooks, mcpLaunch, disposables };
}

export class Ctx implements vscode.Disposable {
  readonly log: ExtensionLog;
  readonly store = new SurfaceStore();
  /** Reasonix sessions' surfaces by session key: where their buttons go (issue 44). */
  readonly sessionTargets = new Map<string, SessionSurfaceTarget>();
  readonly sessions: SessionManager;
  readonly api: ReasonixApi;
  readonly linked: LinkedFolders;
  readonly enablement: Enablement;
  readonly prompts: VsCodePrompts;
  readonly agentHooks: AgentHooks;
  /** How `reasonix-host mcp` is launched from this installation (VS Code's runtime, the shipped CLI). */
  readonly mcpLaunch: McpLaunch;
  /** Set by activate() once its own work is done; NaN until then. */
  activationMs = NaN;
  activationCpuMs = NaN;
  private surfaces: SurfacesController | undefined;
  private readonly subs: vscode.Disposable[] = [];
  /** How Install and Remove ask for agreement: a modal; replaced only by tests in Test mode. */
  private consent: Consent = modalConsent;
  private packagesWatch: { home: string; sub: { dispose(): void } } | undefined;

  constructor(
    readonly ext: vscode.ExtensionContext,
    makeSidecarFactory: (log: ExtensionLog) => SidecarFactory,
  ) {
    this.log = createLog();
    const createSidecar = makeSidecarFactory(this.log);
    this.linked = new LinkedFolders(ext.globalState);
    this.enablement = new Enablement(ext.workspaceState);
    this.prompts = new VsCodePrompts(() => this.surfaces);
    const isTrusted = () => vscode.workspace.isTrusted;
    this.sessions = new SessionManager({
      createEngine: (o) =>
        engineModule().createSessionEngine(o, { createSidecar, store: this.store, logger: this.log, toolCalls }),
      log: this.log,
      settings: readSettings,
      linked: this.linked,
      enablement: this.enablement,
      frontEnd: this.prompts,
      isTrusted,
      showLogs: () => this.log.show(),
      slotsDir: join(ext.globalStorageUri.fsPath, 'session-slots'),
    });
    const agents = agentFeatures(ext, this.sessions, this.log, isTrusted, this.store);
    this.mcpLaunch = agents.mcpLaunch;
    this.agentHooks = agents.agentHooks;
    const models = new ModelDirectory(this.sessions, isTrusted);
    const authoring = registerAuthoring({
      linked: this.linked,
      launch: this.mcpLaunch, // VS Code's runtime and the shipped CLI, as for MCP
      log: this.log,
      sessions: this.sessions,
      taps: frameTaps,
      debugs: debugLaunches,
      extensionPath: ext.extensionPath,
      changed: () => tree.refresh(),
    });
    const tree = new SupervisionTree(this.sessions, this.store, {
      agentDecisions: (row) => this.agentHooks.decisions(row.sessionKey, row.pluginId),
      reasonixSessions: () => [...this.sessionTargets.values()],
      models,
      note: (row) => row.status.spec && authoring.note(row.status.spec.root), // linked roots only
    });
    const lm = registerLanguageModels(models, this.log);
    this.surfaces = registerSurfaces(
      ext,
      surfacesViewFeed(this.store, this.sessions, isTrusted),
      surfaceSink(this.sessions, this.sessionTargets),
      this.log.channel,
    );
    // Opening a folder's group in the Surfaces view is a use of the folder (multi-root: it starts then).
    const surfaces = this.surfaces;
    this.subs.push(
      surfaces.onDidOpenFolderGroup((key) => {
        if (this.sessions.get(key)) void this.sessions.use(key, 'view');
      }),
    );
    this.api = createApi(
      this.sessions,
      this.store,
      (a) => runAction(this.sessions, a),
      () => ({ activationMs: this.activationMs, activationCpuMs: this.activationCpuMs }),
      (key, id) => this.agentHooks.decisions(key, id),
    );
    this.subs.push(
      this.log,
      this.linked,
      this.enablement,
      models,
      ...(lm ? [lm] : []),
      ...agents.disposables,
      tree,
      this.agentHooks.onDidChange(() => tree.refresh()),
      vscode.window.registerTreeDataProvider('reasonix.extensions', tree),
      // The folder the user is in starts first (multi-root windows start a folder on first use).
      vscode.window.onDidChangeActiveTextEditor((e) => void this.sessions.focus(e?.document.uri)),
      new StatusBar(this.sessions, this.store, isTrusted),
      ...registerCommands({
        sessions: this.sessions,
        linked: this.linked,
        enablement: this.enablement,
        showLogs: () => this.log.show(),
        otherActions: sessionActions(this.sessionTargets),
      }),
      ...this.followWorkspace(),
      this.linked.onDidChange(() => this.updateContextKeys()),
      authoring,
      ...registerReasonixSessions({
        store: this.store,
        prompts: this.prompts,
        log: this.log,
        isTrusted,
        targets: this.sessionTargets,
        hosted: {
          running: (key) =>
            (this.sessions.get(key)?.engine.plugins() ?? [])
              .filter((p) => p.state === 'running')
              .map((p) => p.pluginId),
          // Its cards leave with it: the session shows the same extension's live ones (no two sets).
          stop: async (key, id) => {
            await this.sessions.stopPlugin(key, id);
            this.store.clearStale(key, id);
          },
          start: (key, id) => this.sessions.startPlugin(key, id),
        },
        changed: () => tree.refresh(),
        home: () => readSettings().home,
      }),
    );
    const details = new DetailsDocuments();
    this.subs.push(
      details,
      ...registerManageCommands({
        sessions: this.sessions,
        log: this.log,
        home: () => readSettings().home,
        details,
        consent: () => this.consent,
      }),
    );
    if (ext.extensionMode === vscode.ExtensionMode.Test)
      (this.api as ReasonixApi & { testing?: ReasonixTesting }).testing = {
        setConsent: (c) => (this.consent = c ?? modalConsent),
        fromSurfacesView: (raw) => this.surfaces?.receiveAsView(raw) ?? Promise.resolve(),
      };
    this.watchPackages();
    this.updateContextKeys();
  }

  /**
   * Reasonix's plugin-packages.json in the home this host reads: whoever changes it (our commands,
   * a terminal, another window), each session starts and stops only what changed.
   */
  private watchPackages(): void {
    const home = readSettings().home;
    if (this.packagesWatch?.home === home) return;
    this.packagesWatch?.sub.dispose();
    const sub = watchPackagesFile(home, () => {
      this.log.info(`${join(home, 'plugin-packages.json')} changed: applying the installed extensions`);
      void this.sessions.reconcileAll();
    });
    this.packagesWatch = { home, sub };
  }

  /** Folders, trust and settings changing under the running sessions and the window endpoint. */
  private followWorkspace(): vscode.Disposable[] {
    return [
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        void this.sessions.syncFolders();
        this.agentHooks.foldersChanged();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.log.info('workspace trusted: starting Reasonix extensions');
        void this.sessions.syncFolders();
        void this.agentHooks.sync();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        // Any reasonix change: a workspace settings file that VS Code read may carry an agentHooks value
        // it ignores (machine scope, so its own change is not reported), which sync names in the log.
        if (e.affectsConfiguration('reasonix')) void this.agentHooks.sync();
        if (e.affectsConfiguration('reasonix.home') || e.affectsConfiguration('reasonix.startup')) {
          this.watchPackages();
          void this.sessions.restartAll();
        }
      }),
      this.sessions.onDidChange(() => {
        this.updateContextKeys();
        // The window's record says which required extensions govern which folder.
        this.agentHooks.foldersChanged();
      }),
    ];
  }

  private updateContextKeys(): void {
    const rows = rowsOf(this.sessions.sessions());
    void vscode.commands.executeCommand('setContext', 'reasonix.hasPlugins', rows.length > 0);
    void vscode.commands.executeCommand('setContext', 'reasonix.hasLinked', this.linked.list().length > 0);
    void vscode.commands.executeCommand('setContext', 'reasonix.ready', true);
  }

  /** Starts the sessions; called once start-up has finished. */
  async start(): Promise<void> {
    await Promise.all([this.sessions.syncFolders(), this.agentHooks.sync()]);
  }

  /** Stops every session in parallel within 4 s. */
  async stop(): Promise<void> {
    await Promise.all([this.sessions.stopAll(), this.agentHooks.close()]);
  }

  dispose(): void {
    this.packagesWatch?.sub.dispose();
    this.subs.forEach((d) => d.dispose());
    this.sessions.dispose();
  }
}

/** Only in Test extension mode (never for users): tests answer the Install and Remove modals. */
export interface ReasonixTesting {
  setConsent(consent: Consent | undefined): void;
  /** A message as the Surfaces view sends it (webviewProtocol), through the window's hub. */
  fromSurfacesView(raw: unknown): Promise<void>;
}
