// The window's Reasonix sessions (issue 44): one `reasonix acp` process, a session per folder
// opened from the Extensions view (no chat: its extensions run, nothing else) and one per
// `@reasonix` conversation (chat.ts), each one's surfaces in the Surfaces view under that session,
// its prompts through the same front end, the agent's tool permission requests as a modal naming
// the tool and its input, its file reads and writes through the editor's documents (documents.ts),
// the state of the session last used in the status bar.
import * as vscode from 'vscode';
import {
  AcpError,
  ReasonixAcpClient,
  type ReasonixSession,
  type SessionPluginRow,
  type ToolPermission,
} from '../../host/acp';
import { redact } from '../../host/redact';
import type { ActionResult } from '../../host/ui';
import { showActionOutcome, type RunOutcome } from '../actionOutcome';
import { inert } from '../../host/inert';
import { ReasonixError } from '../../host/reasonix';
import { configuredPath } from '../manage/userReasonix';
import { locateReasonix } from '../../host/reasonix';
import type { ReasonixSessionsDeps } from './register';
import { ReasonixChat, type ChatSessions } from './chat';
import { editorDocuments } from './documents';

let current: SessionsWindow | undefined;

export function sessionsWindow(d: ReasonixSessionsDeps): SessionsWindow {
  current ??= new SessionsWindow(d);
  return current;
}

export async function disposeSessionsWindow(): Promise<void> {
  const w = current;
  current = undefined;
  await w?.dispose();
}

/** The agent's tool permission request: a modal naming the tool and its input, with Reasonix's options. */
export async function askToolPermission(req: ToolPermission): Promise<string | undefined> {
  const names = req.options.map((o) => o.name);
  const chosen = await vscode.window.showWarningMessage(
    inert(vscode.l10n.t('Reasonix ({0}) wants to run the tool "{1}".', req.folderName, req.tool)),
    { modal: true, detail: inert(req.input) },
    ...names,
  );
  return req.options.find((o) => o.name === chosen)?.optionId;
}

/** A tracked session: its folder (for VS Code's copies of its extensions) and the copies it stopped. */
interface Tracked {
  folderKey: string;
  session: ReasonixSession;
  stopped: string[];
}

export class SessionsWindow implements ChatSessions {
  private client: ReasonixAcpClient | undefined;
  /** The settings the client started with (clientFor). */
  private clientConfig = '';
  /** Sessions opened from the Extensions view, by folder URI. */
  private readonly open = new Map<string, ReasonixSession>();
  /** Every open session (Extensions view and chat conversations), by session key. */
  private readonly tracked = new Map<string, Tracked>();
  private lastUsed: ReasonixSession | undefined;
  private readonly conversations = new ReasonixChat(this);
  private readonly status: vscode.StatusBarItem;
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly d: ReasonixSessionsDeps) {
    this.status = vscode.window.createStatusBarItem('reasonix.session', vscode.StatusBarAlignment.Left, 99);
    this.status.name = vscode.l10n.t('Reasonix session');
    this.status.command = 'reasonix.reloadReasonixSession';
    this.subs.push(this.status);
  }

  /** Opens a Reasonix session in a folder (the argument, the active editor's, the only one, or picked). */
  async openReasonixSession(arg?: unknown): Promise<string | undefined> {
    if (!this.d.isTrusted()) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Reasonix sessions run only in a trusted workspace.'));
      return undefined;
    }
    const folder = await this.pickFolder(arg, vscode.l10n.t('Open a Reasonix session in which folder?'));
    if (!folder) return undefined;
    const existing = this.open.get(folder.uri.toString());
    if (existing) return existing.sessionKey;
    const r = await this.openIn(folder, vscode.l10n.t('{0} · Reasonix session', folder.name));
    if (!r.session) return undefined;
    this.open.set(folder.uri.toString(), r.session);
    return r.session.sessionKey;
  }

  /** A session for a chat conversation (chat.ts): new, or with `load` the conversation's own one again. */
  async openChatSession(
    folder: vscode.WorkspaceFolder,
    label: string,
    load?: string,
  ): Promise<{ session?: ReasonixSession; error?: string }> {
    if (!this.d.isTrusted()) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Reasonix sessions run only in a trusted workspace.'));
      return { error: vscode.l10n.t('the workspace is not trusted') };
    }
    return this.openIn(folder, label, load);
  }

  async closeChatSession(session: ReasonixSession): Promise<void> {
    this.untrack(session);
    await session.close();
  }

  canLoad(): boolean | undefined {
    return this.client?.state === 'running' ? this.client.canLoad : undefined;
  }

  used(session: ReasonixSession): void {
    this.lastUsed = session;
    this.showStatus();
  }

  /** Opens and tracks a session; a failure is shown (a failed load only logged: the chat says it). */
  private async openIn(
    folder: vscode.WorkspaceFolder,
    label: string,
    load?: string,
  ): Promise<{ session?: ReasonixSession; error?: string }> {
    let client: ReasonixAcpClient;
    try {
      client = await this.clientFor(folder);
    } catch (err) {
      this.explainMissing(err);
      return { error: String((err as Error)?.message ?? err) };
    }
    try {
      const session = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Window,
          title: vscode.l10n.t('Opening a Reasonix session in {0}…', folder.name),
        },
        () =>
          client.openSession({
            cwd: folder.uri.fsPath,
            folderName: label,
            store: this.d.store,
            frontEnd: this.d.prompts,
            permissions: (req) => askToolPermission(req),
            load,
          }),
      );
      this.track(folder, session);
      return { session };
    } catch (err) {
      const what = err instanceof AcpError ? err.message : String((err as Error)?.message ?? err);
      if (load && client.state === 'running') this.d.log.warn(`Reasonix could not load session ${load}: ${what}`);
      else this.showFailure(err, folder.name);
      return { error: what };
    }
  }

  /** A `@reasonix` turn (chat.ts): the conversation's own session, its prompt, `/mode` `/model` `/approval`. */
  chat(
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    response: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> {
    return this.conversations.handle(request, context, response, token);
  }

  /** The session's mode, model or tool approval, as Reasonix offers them. */
  async configureReasonixSession(arg?: unknown): Promise<boolean> {
    const folder = await this.pickFolder(arg, vscode.l10n.t('Configure which Reasonix session?'), true);
    const session = folder && this.open.get(folder.uri.toString());
    if (!session) return false;
    const c = session.choices();
    const what = await vscode.window.showQuickPick(
      [
        ...(c.modes.length ? [{ label: vscode.l10n.t('Mode'), description: c.currentModeId, id: '' }] : []),
        ...c.configOptions.map((o) => ({ label: o.name, description: o.currentValue, id: o.id })),
      ],
      { title: session.folderName },
    );
    if (!what) return false;
    const values = what.id
      ? (c.configOptions.find((o) => o.id === what.id)?.options ?? []).map((o) => ({ label: o.name, value: o.value }))
      : c.modes.map((m) => ({ label: m.name, value: m.id }));
    const value = await vscode.window.showQuickPick(values, { title: `${session.folderName}: ${what.label}` });
    if (!value) return false;
    try {
      if (what.id) await session.setConfigOption(what.id, value.value);
      else await session.setMode(value.value);
      this.showStatus();
      return true;
    } catch (err) {
      this.showFailure(err, folder.name);
      return false;
    }
  }

  async closeReasonixSession(arg?: unknown): Promise<void> {
    const folder = await this.pickFolder(arg, vscode.l10n.t('Close the Reasonix session of which folder?'), true);
    const session = folder && this.open.get(folder.uri.toString());
    if (!session) return;
    this.open.delete(folder.uri.toString());
    this.untrack(session);
    await session.close();
  }

  /** Reload Runtime for a Reasonix session: `_reasonix.io/session/reloadExtensions` (queued during a turn). */
  async reloadReasonixSession(arg?: unknown): Promise<{ queued: boolean } | undefined> {
    const folder = await this.pickFolder(arg, vscode.l10n.t('Reload the extensions of which Reasonix session?'), true);
    const session = folder && this.open.get(folder.uri.toString());
    if (!session) return undefined;
    try {
      const r = await session.reloadExtensions();
      void vscode.window.showInformationMessage(
        r.queued
          ? vscode.l10n.t('Reasonix queued the reload of {0}: it runs when the current turn ends.', session.folderName)
          : vscode.l10n.t('Reasonix reloaded the extensions of {0}.', session.folderName),
      );
      return r;
    } catch (err) {
      this.showFailure(err, folder.name);
      return undefined;
    }
  }

  async dispose(): Promise<void> {
    await this.conversations.dispose();
    this.open.clear();
    for (const t of [...this.tracked.values()]) this.untrack(t.session);
    this.subs.forEach((s) => s.dispose());
    await this.client?.dispose();
    this.client = undefined;
  }

  /**
   * The window's `reasonix acp`, started with the settings as they are now. When reasonix.path,
   * reasonix.home or reasonix.sessions.model changed since it started, it is stopped first (its
   * sessions close; a conversation's next turn loads its session in the new one).
   */
  private async clientFor(folder: vscode.WorkspaceFolder): Promise<ReasonixAcpClient> {
    const binary = locateReasonix({ configured: configuredPath(this.d.log) });
    const home = this.d.home();
    const args = sessionArgs();
    const config = JSON.stringify([binary.path, home, args]);
    if (this.client && this.client.state !== 'failed' && this.clientConfig === config) return this.client;
    if (this.client && this.client.state !== 'failed') {
      this.d.log.info('Reasonix settings changed (path, home or sessions.model): its ACP process restarts');
      await this.conversations.dispose();
      this.open.clear();
      for (const t of [...this.tracked.values()]) this.untrack(t.session);
      await this.client.dispose();
    }
    const client = new ReasonixAcpClient({
      bin: binary.path,
      cwd: folder.uri.fsPath,
      env: { ...process.env, REASONIX_HOME: home },
      args,
      logger: this.d.log,
      documents: editorDocuments,
    });
    this.clientConfig = config;
    client.onDidFail((err) => {
      this.open.clear();
      for (const t of [...this.tracked.values()]) {
        this.conversations.forget(t.session);
        this.untrack(t.session, true);
      }
      this.showFailure(err);
    });
    this.client = client;
    return client;
  }

  private track(folder: vscode.WorkspaceFolder, session: ReasonixSession): void {
    const folderKey = folder.uri.toString();
    const stopped: string[] = [];
    this.tracked.set(session.sessionKey, { folderKey, session, stopped });
    this.d.targets.set(session.sessionKey, {
      folderName: session.folderName,
      treeItem: () => reasonixSessionItem(session.folderName, stopped),
      pluginItems: () => session.pluginRows().map((row) => sessionPluginItem(session.sessionKey, row)),
      runAction: (entry) => runShown(entry.name, () => session.hub.invokeAction(entry.pluginId, entry.actionId)),
      stoppedCopies: stopped,
      listActions: () => session.listActions(),
      invokeAction: (pluginId, actionId) => session.hub.invokeAction(pluginId, actionId),
      submit: (pluginId, surfaceId, values) => session.hub.submit(pluginId, surfaceId, values),
    });
    session.onDidChangeStatus(() => {
      this.lastUsed = session;
      this.showStatus();
    });
    session.onDidChangePlugins(() => {
      void this.stopHostedCopies(session);
      this.d.changed();
    });
    void this.stopHostedCopies(session);
    this.lastUsed = session;
    this.d.changed();
    this.showStatus();
    this.d.log.info(`Reasonix session opened in ${folder.name} (${session.acpSessionId})`);
  }

  /**
   * Forgets the session; its surfaces stay (stale) when Reasonix failed, so the user sees what was
   * there. VS Code's copies it stopped run again unless another open session of the folder runs them.
   */
  private untrack(session: ReasonixSession, failed = false): void {
    const t = this.tracked.get(session.sessionKey);
    this.tracked.delete(session.sessionKey);
    if (!failed) this.d.targets.delete(session.sessionKey);
    if (this.lastUsed === session) this.lastUsed = undefined;
    for (const id of t?.stopped.splice(0) ?? []) {
      const heir = [...this.tracked.values()].find(
        (o) => o.folderKey === t!.folderKey && o.session.pluginRows().some((r) => r.pluginId === id),
      );
      if (heir) heir.stopped.push(id);
      else void this.d.hosted.start(t!.folderKey, id);
    }
    this.d.changed();
    this.showStatus();
  }

  /**
   * No double hosting by surprise: with reasonix.sessions.hostedCopies "stop" (the default), an
   * extension the session runs is stopped in VS Code's hosting of the same folder while the session
   * is open; "keep" leaves both running (the Extensions view says so).
   */
  private async stopHostedCopies(session: ReasonixSession): Promise<void> {
    if (vscode.workspace.getConfiguration('reasonix').get<string>('sessions.hostedCopies', 'stop') !== 'stop') return;
    const t = this.tracked.get(session.sessionKey);
    if (!t) return;
    const inSession = new Set(session.pluginRows().map((r) => r.pluginId));
    for (const id of this.d.hosted.running(t.folderKey)) {
      if (!inSession.has(id) || t.stopped.includes(id)) continue;
      t.stopped.push(id);
      this.d.log.info(
        `${id} runs in the Reasonix session of ${session.folderName}: its VS Code-hosted copy is stopped while the session is open (reasonix.sessions.hostedCopies)`,
      );
      await this.d.hosted.stop(t.folderKey, id);
    }
  }

  private showStatus(): void {
    const s = this.lastUsed ?? [...this.tracked.values()][0]?.session;
    if (!s) {
      this.status.hide();
      return;
    }
    const state = s.status?.state ?? vscode.l10n.t('open');
    this.status.text = `$(hubot) ${inert(vscode.l10n.t('Reasonix: {0}', state))}`;
    this.status.tooltip = inert(
      [s.folderName, s.status?.model, s.status?.phase, s.status?.mode].filter((x) => !!x).join(' · '),
    );
    this.status.show();
  }

  async pickFolder(arg: unknown, title: string, openOnly = false): Promise<vscode.WorkspaceFolder | undefined> {
    const all = (vscode.workspace.workspaceFolders ?? []).filter(
      (f) => f.uri.scheme === 'file' && (!openOnly || this.open.has(f.uri.toString())),
    );
    if (typeof arg === 'string')
      return all.find((f) => f.name === arg || f.uri.fsPath === arg || f.uri.toString() === arg);
    if (all.length <= 1) return all[0];
    const active = vscode.window.activeTextEditor?.document.uri;
    const activeFolder = active && vscode.workspace.getWorkspaceFolder(active);
    if (activeFolder && all.includes(activeFolder)) return activeFolder;
    const picked = await vscode.window.showQuickPick(
      all.map((f) => ({ label: f.name, description: f.uri.fsPath, folder: f })),
      { title },
    );
    return picked?.folder;
  }

  private explainMissing(err: unknown): void {
    const why = err instanceof ReasonixError ? err.message : String(err);
    void vscode.window.showWarningMessage(
      inert(
        vscode.l10n.t(
          'Reasonix was not found ({0}). Install it (npm install -g reasonix) or set reasonix.path in your user settings, then open the session again.',
          why,
        ),
      ),
    );
  }

  private showFailure(err: unknown, folderName?: string): void {
    const e = err instanceof AcpError ? err : undefined;
    const what = e ? e.message : String((err as Error)?.message ?? err);
    // Killed by a signal, its stderr tail (start-up warnings) says nothing about why; the log keeps it.
    const killed = e?.kind === 'exit' && / by SIG[A-Z0-9]+$/.test(e.message);
    const said = e?.said && !killed ? ` (${e.said.slice(0, 300)})` : '';
    void vscode.window
      .showErrorMessage(
        inert(
          folderName
            ? vscode.l10n.t(
                'Reasonix session in {0}: {1}{2}. Check Reasonix in a terminal (reasonix doctor), then open the session again; the extensions VS Code hosts are not affected.',
                folderName,
                what,
                said,
              )
            : vscode.l10n.t(
                'Reasonix stopped: {0}{1}. Its sessions are closed; open them again with "Open Reasonix Session" (reasonix doctor says what is wrong); the extensions VS Code hosts are not affected.',
                what,
                said,
              ),
        ),
        vscode.l10n.t('Show Logs'),
      )
      .then((b) => b && this.d.log.show());
  }
}

/** A Reasonix session in the Extensions view: its name, and whether VS Code's copies of its extensions were stopped. */
function reasonixSessionItem(folderName: string, stopped: readonly string[]): vscode.TreeItem {
  const item = new vscode.TreeItem(folderName, vscode.TreeItemCollapsibleState.Expanded);
  item.iconPath = new vscode.ThemeIcon('hubot');
  item.contextValue = 'reasonixSession';
  item.description = stopped.length
    ? vscode.l10n.t("VS Code's copies stopped: {0}", stopped.join(', '))
    : vscode.l10n.t('inside the Reasonix session');
  return item;
}

function sessionPluginItem(sessionKey: string, row: SessionPluginRow): vscode.TreeItem {
  const item = new vscode.TreeItem(row.pluginId, vscode.TreeItemCollapsibleState.None);
  item.id = `${sessionKey}#plugin#${row.pluginId}`;
  item.iconPath = new vscode.ThemeIcon(
    row.state === 'running' ? 'pass' : row.state === 'failed' ? 'error' : 'circle-slash',
  );
  const state =
    row.state === 'running'
      ? vscode.l10n.t('running in Reasonix')
      : row.state === 'failed'
        ? vscode.l10n.t('Reasonix stopped')
        : vscode.l10n.t('stale');
  item.description = row.actions ? `${state} · ${vscode.l10n.t('{0} actions', row.actions)}` : state;
  item.contextValue = 'reasonixSessionPlugin';
  return item;
}

/** Runs a session action and shows its outcome as the hosted actions do. */
async function runShown(name: string, run: () => Promise<ActionResult>): Promise<RunOutcome> {
  try {
    return showActionOutcome(name, await run());
  } catch (err) {
    const msg = redact(vscode.l10n.t('{0} failed: {1}', name, (err as Error).message));
    void vscode.window.showErrorMessage(inert(msg));
    return { ran: true, accepted: false, message: msg };
  }
}

/** `--model <m>` from the user's reasonix.sessions.model (machine scope: never a workspace's). */
function sessionArgs(): string[] {
  const model = vscode.workspace.getConfiguration('reasonix').inspect<string>('sessions.model')?.globalValue?.trim();
  return model ? ['--model', model] : [];
}
