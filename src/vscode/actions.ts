// Plugin actions as commands: "Reasonix: Run Extension Action…" (folder first in multi-root,
// then every declared `/<plugin>:<action>`), and `reasonix.runAction` with
// `{plugin, action, folder?, args?}` so people can bind keys in keybindings.json.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { inert } from '../host/inert';
import { redact } from '../host/redact';
import { showActionOutcome, type RunOutcome } from './actionOutcome';
import type { ActionEntry } from '../host/ui';
import { stateWord, toDisplayState } from './displayStates';
import { showLogsLabel } from './failures';
import type { FolderSession, SessionManager } from './sessions';

export interface RunActionArgs {
  plugin: string;
  action: string;
  /** Folder name, absolute path or URI; defaults to the active editor's folder, else the only/first one. */
  folder?: string;
  args?: Record<string, string>;
}

export function isRunActionArgs(v: unknown): v is RunActionArgs {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  if (typeof o.plugin !== 'string' || typeof o.action !== 'string') return false;
  if (o.folder !== undefined && typeof o.folder !== 'string') return false;
  if (o.args !== undefined) {
    if (typeof o.args !== 'object' || o.args === null) return false;
    if (!Object.values(o.args).every((x) => typeof x === 'string')) return false;
  }
  return true;
}

export type { RunOutcome } from './actionOutcome';

/**
 * Actions whose source is not a folder session VS Code hosts: a Reasonix session's
 * `/<plugin>:<action>` (issue 44). `entry.folderName` names the source in the picker; `run` shows
 * its own outcome.
 */
export interface OtherActions {
  (): { entry: ActionEntry; run(): Promise<RunOutcome> }[];
  /** Whether `folder` names one of these sources (its key or name), open but perhaps not listing its actions yet. */
  names?(folder: string): boolean;
}

/** How long an action named in a just-opened source may take to be listed (Reasonix sends its commands after the session opens). */
const LISTED_WITHIN_MS = 10_000;

/** `find()` once it answers, polling until `LISTED_WITHIN_MS` has passed. */
async function listedSoon<T>(find: () => T | undefined): Promise<T | undefined> {
  const until = Date.now() + LISTED_WITHIN_MS;
  for (let hit = find(); ; hit = find()) {
    if (hit || Date.now() >= until) return hit;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The other source's entry for `a`: named by its folder (its session key or name), else the only one offering it. */
function findOther(others: OtherActions | undefined, a: RunActionArgs, hostedHasIt: boolean) {
  const list = (others?.() ?? []).filter((o) => o.entry.pluginId === a.plugin && o.entry.actionId === a.action);
  if (a.folder) return list.find((o) => o.entry.sessionKey === a.folder || o.entry.folderName === a.folder);
  return hostedHasIt ? undefined : list[0];
}

interface ActionItem extends vscode.QuickPickItem {
  session: FolderSession;
  pluginId: string;
  actionId: string;
}

function findSession(sessions: SessionManager, plugin: string, folder?: string): FolderSession | undefined {
  const all = sessions.sessions();
  if (folder) {
    return all.find(
      (s) => s.folder.name === folder || s.key === folder || path.resolve(s.folder.uri.fsPath) === path.resolve(folder),
    );
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  const activeFolder = active ? vscode.workspace.getWorkspaceFolder(active) : undefined;
  const inActive = all.find(
    (s) => s.key === activeFolder?.uri.toString() && s.engine.plugins().some((p) => p.pluginId === plugin),
  );
  return inActive ?? all.find((s) => s.engine.plugins().some((p) => p.pluginId === plugin)) ?? all[0];
}

/** Runs one action and shows its outcome; explains instead when it cannot run. */
export async function runAction(
  sessions: SessionManager,
  a: RunActionArgs,
  others?: OtherActions,
): Promise<RunOutcome> {
  const name = `/${a.plugin}:${a.action}`;
  const hostedHasIt = sessions.sessions().some((s) => s.engine.plugins().some((p) => p.pluginId === a.plugin));
  let other = findOther(others, a, hostedHasIt);
  const namesOther = a.folder !== undefined && others?.names?.(a.folder) === true;
  if (!other && namesOther) other = await listedSoon(() => findOther(others, a, hostedHasIt));
  if (other) return other.run();
  if (namesOther) {
    const msg = vscode.l10n.t(
      'Cannot run {0}: the Reasonix session {1} offers no such action (Reasonix: Run Extension Action… lists the ones it offers).',
      name,
      a.folder ?? '',
    );
    void vscode.window.showWarningMessage(inert(msg));
    return { ran: false, accepted: false, message: msg };
  }
  const session = findSession(sessions, a.plugin, a.folder);
  if (!session) {
    const msg =
      sessions.sessions().length === 0
        ? vscode.l10n.t('Cannot run {0}: no Reasonix session is running (open a trusted folder first).', name)
        : vscode.l10n.t('Cannot run {0}: no workspace folder matches "{1}".', name, a.folder ?? '');
    void vscode.window.showWarningMessage(inert(msg));
    return { ran: false, accepted: false, message: msg };
  }
  await sessions.use(session.key, 'action'); // a folder not started yet starts now (multi-root, on first use)
  const plugin = session.engine.plugins().find((p) => p.pluginId === a.plugin);
  if (!plugin) {
    const msg = vscode.l10n.t(
      'Cannot run {0}: no Reasonix extension "{1}" in {2}.',
      name,
      a.plugin,
      session.folder.name,
    );
    void vscode.window.showWarningMessage(inert(msg));
    return { ran: false, accepted: false, message: msg };
  }
  if (plugin.state !== 'running') {
    const why = plugin.lastFailure
      ? ` (${plugin.lastFailure.stage}: ${plugin.lastFailure.message})`
      : plugin.detail
        ? ` (${plugin.detail})`
        : '';
    const msg = redact(
      vscode.l10n.t(
        'Cannot run {0}: extension "{1}" is {2}{3}. Start it, then try again.',
        name,
        a.plugin,
        stateWord(toDisplayState(plugin.state), vscode.l10n),
        why,
      ),
    );
    const start = vscode.l10n.t('Start Extension');
    void vscode.window.showWarningMessage(inert(msg), start, showLogsLabel()).then((c) => {
      if (c === start) void sessions.startPlugin(session.key, a.plugin);
      else if (c === showLogsLabel()) void vscode.commands.executeCommand('reasonix.showLogs');
    });
    return { ran: false, accepted: false, message: msg };
  }
  if (!plugin.actions.some((x) => x.actionId === a.action)) {
    const msg = vscode.l10n.t('Cannot run {0}: "{1}" declares no action "{2}".', name, a.plugin, a.action);
    void vscode.window.showWarningMessage(inert(msg));
    return { ran: false, accepted: false, message: msg };
  }
  try {
    return showActionOutcome(name, await session.engine.invokeAction(a.plugin, a.action, a.args));
  } catch (err) {
    const msg = redact(vscode.l10n.t('{0} failed: {1}', name, (err as Error).message));
    void vscode.window
      .showErrorMessage(inert(msg), showLogsLabel())
      .then((c) => c && vscode.commands.executeCommand('reasonix.showLogs'));
    return { ran: true, accepted: false, message: msg };
  }
}

function actionCount(n: number): string {
  return n === 1 ? vscode.l10n.t('1 action') : vscode.l10n.t('{0} actions', n);
}

/** Every declared action of a session, plus placeholders for plugins that are not running. */
export function actionItems(session: FolderSession): ActionItem[] {
  const items: ActionItem[] = [];
  for (const p of session.engine.plugins()) {
    for (const a of p.actions) {
      items.push({
        label: `/${p.pluginId}:${a.actionId}`,
        description: a.label,
        detail:
          p.state === 'running'
            ? undefined
            : `$(circle-slash) ${vscode.l10n.t('{0} is {1}', p.pluginId, stateWord(toDisplayState(p.state), vscode.l10n))}`,
        session,
        pluginId: p.pluginId,
        actionId: a.actionId,
      });
    }
  }
  return items;
}

/** The palette entry: folder first (multi-root), then the action. */
export async function pickAndRunAction(
  sessions: SessionManager,
  others?: OtherActions,
): Promise<RunOutcome | undefined> {
  const all = sessions.sessions();
  const extra = others?.() ?? [];
  if (all.length === 0 && extra.length > 0) return pickOther(extra);
  if (all.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('No Reasonix session is running: open a trusted folder with Reasonix extensions installed.'),
    );
    return undefined;
  }
  let session = all[0];
  if (all.length > 1) {
    const picked = await vscode.window.showQuickPick(
      all.map((s) => ({
        label: s.folder.name,
        description: s.folder.uri.fsPath,
        detail: actionCount(actionItems(s).length),
        s,
      })),
      { title: vscode.l10n.t('Run Extension Action: choose a folder'), placeHolder: vscode.l10n.t('Workspace folder') },
    );
    if (!picked) return undefined;
    session = picked.s;
  }
  const items: (ActionItem | OtherItem)[] = [...actionItems(session), ...otherItems(extra)];
  if (items.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('No Reasonix extension in {0} declares actions.', session.folder.name),
    );
    return undefined;
  }
  const item = await vscode.window.showQuickPick(items, {
    title:
      all.length > 1
        ? vscode.l10n.t('Run Extension Action ({0})', session.folder.name)
        : vscode.l10n.t('Run Extension Action'),
    placeHolder: '/<extension>:<action>',
    matchOnDescription: true,
  });
  if (!item) return undefined;
  if ('other' in item) return item.other.run();
  return runAction(sessions, { plugin: item.pluginId, action: item.actionId, folder: session.key });
}

interface OtherItem extends vscode.QuickPickItem {
  other: ReturnType<OtherActions>[number];
}

/** Another source's actions as picker items, the source named in their detail. */
function otherItems(extra: ReturnType<OtherActions>): OtherItem[] {
  return extra.map((o) => ({ label: o.entry.name, description: o.entry.label, detail: o.entry.folderName, other: o }));
}

async function pickOther(extra: ReturnType<OtherActions>): Promise<RunOutcome | undefined> {
  const item = await vscode.window.showQuickPick(otherItems(extra), {
    title: vscode.l10n.t('Run Extension Action'),
    placeHolder: '/<extension>:<action>',
    matchOnDescription: true,
  });
  return item ? item.other.run() : undefined;
}
