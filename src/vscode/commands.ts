// Every `reasonix.*` command. Tree items pass their node; the palette passes nothing and gets
// a picker. Commands return their outcome so tests (and keybindings via the API) can check it.
import * as vscode from 'vscode';
import { inert } from '../host/inert';
import type { SidecarFailure } from '../host/sidecar';
import { pickAndRunAction, runAction, isRunActionArgs, type OtherActions, type RunOutcome } from './actions';
import { stateWord } from './displayStates';
import type { Enablement } from './enablement';
import { showLogsLabel } from './failures';
import { linkFolderCommand, unlinkFolderCommand, type LinkedFolders } from './linking';
import { rowsOf, type Row } from './rows';
import type { FolderSession, SessionManager } from './sessions';
import type { Node } from './supervisionTree';

export interface CommandDeps {
  sessions: SessionManager;
  linked: LinkedFolders;
  enablement: Enablement;
  showLogs(): void;
  /** Actions of Reasonix sessions (issue 44), listed beside the hosted ones. */
  otherActions?: OtherActions;
}

type Target = { sessionKey: string; pluginId: string };

function targetOf(arg: unknown): Target | undefined {
  const n = arg as Node | Target | undefined;
  if (n && typeof n === 'object') {
    if ('kind' in n && n.kind === 'plugin') return { sessionKey: n.row.sessionKey, pluginId: n.row.pluginId };
    if ('sessionKey' in n && typeof n.sessionKey === 'string' && typeof n.pluginId === 'string') return n;
  }
  return undefined;
}

async function pickPlugin(
  sessions: SessionManager,
  title: string,
  filter: (r: Row) => boolean,
): Promise<Target | undefined> {
  const rows = rowsOf(sessions.sessions()).filter(filter);
  if (rows.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('{0}: no Reasonix extension in a matching state.', title));
    return undefined;
  }
  const multi = sessions.sessions().length > 1;
  const picked = await vscode.window.showQuickPick(
    rows.map((r) => ({
      label: r.pluginId,
      description: `${stateWord(r.state, vscode.l10n)}${multi ? ` · ${r.folderName}` : ''}`,
      r,
    })),
    { title, placeHolder: vscode.l10n.t('Reasonix extension') },
  );
  return picked && { sessionKey: picked.r.sessionKey, pluginId: picked.r.pluginId };
}

/**
 * A command that acts on one plugin (the tree item's, or one picked among those `filter` keeps);
 * its failure is shown with a Show Logs button unless the failure notification is already up.
 */
function lifecycle(
  d: CommandDeps,
  title: string,
  filter: (r: Row) => boolean,
  run: (t: Target) => Promise<void>,
): (arg?: unknown) => Promise<void> {
  return async (arg?: unknown) => {
    const t = targetOf(arg) ?? (await pickPlugin(d.sessions, title, filter));
    if (!t) return;
    try {
      await run(t);
    } catch (err) {
      // By name: the engine is its own bundle (dist/engine.js), so its classes are not this bundle's.
      if ((err as Partial<SidecarFailure> | undefined)?.name === 'SidecarFailure' && (err as SidecarFailure).reported)
        return; // its failure notification is already up
      void vscode.window
        .showErrorMessage(
          inert(vscode.l10n.t('{0} "{1}" failed: {2}', title, t.pluginId, (err as Error).message)),
          showLogsLabel(),
        )
        .then((c) => c && d.showLogs());
    }
  };
}

/** From a tree item or the palette: a picker; from a keybinding or another extension: the named action. */
function runActionCommand(
  sessions: SessionManager,
  arg?: unknown,
  others?: OtherActions,
): Promise<RunOutcome | undefined> {
  if (arg === undefined || (typeof arg === 'object' && arg !== null && 'kind' in arg))
    return pickAndRunAction(sessions, others);
  if (!isRunActionArgs(arg)) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t(
        'reasonix.runAction expects {0}.',
        '{"plugin": "<id>", "action": "<action>", "folder"?: "<name>", "args"?: {"k": "v"}}',
      ),
    );
    return Promise.resolve(undefined);
  }
  return runAction(sessions, arg, others);
}

async function linkFolder(d: CommandDeps, folder?: unknown): Promise<boolean> {
  const ok = await linkFolderCommand(d.linked, typeof folder === 'string' ? () => Promise.resolve(folder) : undefined);
  if (ok) await d.sessions.reload();
  return ok;
}

/** The folder to unlink: a path as given, or a tree item's plugin folder. */
function linkedFolderOf(sessions: SessionManager, arg?: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  const t = targetOf(arg);
  if (!t) return undefined;
  const row = rowsOf(sessions.sessions()).find((r) => r.sessionKey === t.sessionKey && r.pluginId === t.pluginId);
  return row?.status.spec?.root;
}

async function unlinkFolder(d: CommandDeps, arg?: unknown): Promise<boolean> {
  const ok = await unlinkFolderCommand(d.linked, linkedFolderOf(d.sessions, arg));
  if (ok) await d.sessions.reload();
  return ok;
}

async function toggleEnablement(d: CommandDeps, arg?: unknown): Promise<void> {
  const { sessions } = d;
  const t =
    targetOf(arg) ??
    (await pickPlugin(sessions, vscode.l10n.t('Enable/Disable Extension for This Folder'), () => true));
  const s = t && sessions.get(t.sessionKey);
  if (!t || !s) return;
  const nowDisabled = d.enablement.isDisabled(s.folder.uri, t.pluginId);
  await d.enablement.set(s.folder.uri, t.pluginId, nowDisabled);
  void vscode.window.showInformationMessage(
    nowDisabled
      ? vscode.l10n.t('"{0}" is now enabled for {1}.', t.pluginId, s.folder.name)
      : vscode.l10n.t('"{0}" is now disabled for {1}.', t.pluginId, s.folder.name),
  );
  await sessions.reconcileAll(s.key); // only that extension stops or starts
}

export function registerCommands(d: CommandDeps): vscode.Disposable[] {
  const { sessions } = d;
  return [
    vscode.commands.registerCommand('reasonix.runAction', (arg?: unknown) =>
      runActionCommand(sessions, arg, d.otherActions),
    ),
    vscode.commands.registerCommand('reasonix.reload', () => sessions.reload()),
    vscode.commands.registerCommand(
      'reasonix.restartExtension',
      lifecycle(
        d,
        vscode.l10n.t('Restart Extension'),
        (r) => r.state !== 'disabled',
        (t) => sessions.restartPlugin(t.sessionKey, t.pluginId),
      ),
    ),
    vscode.commands.registerCommand(
      'reasonix.stopExtension',
      lifecycle(
        d,
        vscode.l10n.t('Stop Extension'),
        (r) => r.state === 'running' || r.state === 'starting',
        (t) => sessions.stopPlugin(t.sessionKey, t.pluginId),
      ),
    ),
    vscode.commands.registerCommand(
      'reasonix.startExtension',
      lifecycle(
        d,
        vscode.l10n.t('Start Extension'),
        (r) => ['stopped', 'crashed', 'failed'].includes(r.state),
        (t) => sessions.startPlugin(t.sessionKey, t.pluginId),
      ),
    ),
    vscode.commands.registerCommand('reasonix.startFolder', (arg?: unknown) => startFolder(sessions, arg)),
    vscode.commands.registerCommand('reasonix.showLogs', () => d.showLogs()),
    vscode.commands.registerCommand('reasonix.linkFolder', (folder?: unknown) => linkFolder(d, folder)),
    vscode.commands.registerCommand('reasonix.unlinkFolder', (arg?: unknown) => unlinkFolder(d, arg)),
    vscode.commands.registerCommand('reasonix.toggleEnablement', (arg?: unknown) => toggleEnablement(d, arg)),
  ];
}

/**
 * Start Extensions of Folder: from the Extensions view's folder row (its node), with a folder key or
 * path, or picked among the folders that wait for a first use.
 */
async function startFolder(sessions: SessionManager, arg?: unknown): Promise<void> {
  const waiting = sessions.sessions().filter((s) => {
    const state = sessions.startState(s.key);
    return state === 'not-started' || state === 'idle-stopped';
  });
  const named =
    arg && typeof arg === 'object' && 'session' in arg
      ? (arg as { session: FolderSession }).session.key
      : typeof arg === 'string'
        ? sessions.sessions().find((s) => s.key === arg || s.folder.uri.fsPath === arg || s.folder.name === arg)?.key
        : undefined;
  let key = named;
  if (!key) {
    if (!waiting.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Reasonix: the extensions of every folder are running.'));
      return;
    }
    const pick = await vscode.window.showQuickPick(
      waiting.map((s) => ({ label: s.folder.name, description: s.folder.uri.fsPath, key: s.key })),
      { placeHolder: vscode.l10n.t('Start the Reasonix extensions of which folder?') },
    );
    key = pick?.key;
  }
  if (key) await sessions.use(key, 'user');
}
