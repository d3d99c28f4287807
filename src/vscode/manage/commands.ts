// Install, enable, disable, remove, show details and migrate: Reasonix extensions managed from
// VS Code through the user's own Reasonix (bundled as dist/manage.js, required on the first such
// command: register.ts). Reasonix does every change (we never edit its files);
// the sessions then start and stop only what changed (SessionManager.reconcileAll), and the
// plugin-packages.json watcher does the same when anyone else changes it.
import * as vscode from 'vscode';
import { ReasonixError, type InstallFlags, type InstallPlan } from '../../host/reasonix';
import { showLogsLabel } from '../failures';
import { rowsOf } from '../rows';
import type { Node } from '../supervisionTree';
import { failureText, planDetail, planTitle } from './planText';
import { findUserReasonix, type UserReasonix } from './userReasonix';
import type { ManageDeps } from './register';

/** What the install command did (returned for tests and keybindings). */
export interface InstallOutcome {
  outcome: 'installed' | 'declined' | 'failed' | 'cancelled';
  names?: string[];
  planId?: string;
  /** The message shown for a failure. */
  message?: string;
}

export type InstallArgs = { source: string } & InstallFlags;

function isInstallArgs(v: unknown): v is InstallArgs {
  return typeof v === 'object' && v !== null && typeof (v as { source?: unknown }).source === 'string';
}

/** Managing Reasonix's extensions starts programs: never in an untrusted workspace. */
function trusted(): boolean {
  if (vscode.workspace.isTrusted) return true;
  void vscode.window.showWarningMessage(
    vscode.l10n.t('Reasonix extensions can be installed and managed only in a trusted workspace.'),
  );
  return false;
}

function showFailure(d: ManageDeps, subject: string, err: unknown): string {
  const text =
    err instanceof ReasonixError
      ? failureText(subject, err, vscode.l10n)
      : vscode.l10n.t('Reasonix failed ({0}): {1}', subject, (err as Error).message);
  d.log.error(text);
  void vscode.window.showErrorMessage(text, showLogsLabel()).then((c) => c && d.log.show());
  return text;
}

async function reasonix(d: ManageDeps, subject: string): Promise<UserReasonix | undefined> {
  try {
    return await findUserReasonix(d.home(), d.log);
  } catch (err) {
    showFailure(d, subject, err);
    return undefined;
  }
}

/** Planning is quick and ends in the modal: the status bar says so. Installing gets a notification. */
function progress<T>(title: string, op: () => Promise<T>, where = vscode.ProgressLocation.Notification): Thenable<T> {
  return vscode.window.withProgress({ location: where, title }, op);
}

/** The source and flags: given by the caller, or asked (a folder, or any source Reasonix accepts). */
async function askSource(): Promise<InstallArgs | undefined> {
  const folder = vscode.l10n.t('Folder…');
  const other = vscode.l10n.t('Git URL or marketplace entry…');
  const kind = await vscode.window.showQuickPick(
    [
      { label: folder, detail: vscode.l10n.t('A folder containing reasonix-plugin.json') },
      { label: other, detail: vscode.l10n.t('A GitHub repository pinned to a commit, or a name your Reasonix knows') },
    ],
    { title: vscode.l10n.t('Install Reasonix Extension'), placeHolder: vscode.l10n.t('Where is the extension?') },
  );
  if (!kind) return undefined;
  if (kind.label === other) {
    const source = await vscode.window.showInputBox({
      title: vscode.l10n.t('Install Reasonix Extension'),
      prompt: vscode.l10n.t('The source, exactly as reasonix plugin install takes it'),
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('A value is required.')),
    });
    return source?.trim() ? { source: source.trim() } : undefined;
  }
  const picked = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: vscode.l10n.t('Install from Folder'),
    title: vscode.l10n.t('Choose a folder containing {0}', 'reasonix-plugin.json'),
  });
  const dir = picked?.[0]?.fsPath;
  if (!dir) return undefined;
  const copy = vscode.l10n.t('Copy into Reasonix');
  const link = vscode.l10n.t('Link the folder');
  const mode = await vscode.window.showQuickPick(
    [
      { label: copy, detail: vscode.l10n.t('Reasonix keeps its own copy; later edits to the folder do not change it') },
      { label: link, detail: vscode.l10n.t('Reasonix runs the folder as it is (for developing the extension)') },
    ],
    { title: vscode.l10n.t('Install Reasonix Extension') },
  );
  if (!mode) return undefined;
  return { source: dir, link: mode.label === link };
}

export async function installExtension(d: ManageDeps, arg?: unknown): Promise<InstallOutcome> {
  if (!trusted()) return { outcome: 'cancelled' };
  const args = isInstallArgs(arg) ? arg : await askSource();
  if (!args) return { outcome: 'cancelled' };
  const flags: InstallFlags = { link: args.link === true, replace: args.replace === true };
  let rx: UserReasonix;
  try {
    rx = await findUserReasonix(d.home(), d.log);
  } catch (err) {
    return { outcome: 'failed', message: showFailure(d, args.source, err) };
  }
  let plan: InstallPlan;
  try {
    plan = await progress(
      vscode.l10n.t('Reasonix: planning the install of {0}…', args.source),
      () => rx.cli.plan(args.source, flags),
      vscode.ProgressLocation.Window,
    );
  } catch (err) {
    return { outcome: 'failed', message: showFailure(d, args.source, err) };
  }
  const names = plan.actions.map((a) => a.name);
  d.log.info(`install plan ${plan.planId} for ${args.source}: ${names.join(', ')} (shown for approval)`);
  const install = vscode.l10n.t('Install');
  const answer = await d.consent()(planTitle(plan, vscode.l10n), planDetail(plan, vscode.l10n, rx.version), install);
  if (answer !== install) {
    d.log.info(`install plan ${plan.planId} declined; nothing was installed`);
    return { outcome: 'declined', names, planId: plan.planId };
  }
  try {
    await progress(vscode.l10n.t('Reasonix: installing {0}…', names.join(', ')), () =>
      rx.cli.install(args.source, flags, plan),
    );
  } catch (err) {
    await d.sessions.reconcileAll(); // whatever Reasonix did write shows as it is
    return { outcome: 'failed', names, planId: plan.planId, message: showFailure(d, args.source, err) };
  }
  d.log.info(`installed ${names.join(', ')} with Reasonix ${rx.version} (plan ${plan.planId})`);
  await d.sessions.reconcileAll();
  const rows = rowsOf(d.sessions.sessions()).filter((r) => names.includes(r.pluginId));
  const running = new Set(rows.filter((r) => r.state === 'running').map((r) => r.sessionKey)).size;
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Installed {0} with Reasonix; running in {1} of {2} open folder(s).',
      names.map((n) => `"${n}"`).join(', '),
      running,
      d.sessions.sessions().length,
    ),
  );
  return { outcome: 'installed', names, planId: plan.planId };
}

/** The installed package a command acts on: the tree item's, a name, or one picked. */
async function packageName(d: ManageDeps, arg: unknown, title: string, keep: (globallyOff: boolean) => boolean) {
  if (typeof arg === 'string') return arg;
  const n = arg as Node | undefined;
  if (n && typeof n === 'object' && 'kind' in n && n.kind === 'plugin') return n.row.pluginId;
  const seen = new Map<string, boolean>();
  for (const r of rowsOf(d.sessions.sessions()))
    if (r.status.origin === 'installed') seen.set(r.pluginId, r.status.disabledBy === 'reasonix');
  const names = [...seen].filter(([, off]) => keep(off)).map(([name]) => name);
  if (names.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('{0}: no installed Reasonix extension fits.', title));
    return undefined;
  }
  return vscode.window.showQuickPick(names, { title, placeHolder: vscode.l10n.t('Reasonix extension') });
}

async function setGlobally(d: ManageDeps, arg: unknown, enabled: boolean): Promise<boolean> {
  if (!trusted()) return false;
  const title = enabled ? vscode.l10n.t('Enable in Reasonix') : vscode.l10n.t('Disable in Reasonix');
  const name = await packageName(d, arg, title, (off) => off === enabled);
  if (!name) return false;
  const rx = await reasonix(d, name);
  if (!rx) return false;
  try {
    const said = await rx.cli.setEnabled(name, enabled);
    d.log.info(`reasonix plugin ${enabled ? 'enable' : 'disable'} ${name}: ${said}`);
  } catch (err) {
    showFailure(d, name, err);
    return false;
  }
  await d.sessions.reconcileAll();
  void vscode.window.showInformationMessage(
    enabled
      ? vscode.l10n.t('"{0}" is now enabled in Reasonix: in every folder and every Reasonix session.', name)
      : vscode.l10n.t('"{0}" is now disabled in Reasonix: in every folder and every Reasonix session.', name),
  );
  return true;
}

async function removeExtension(d: ManageDeps, arg: unknown): Promise<boolean> {
  if (!trusted()) return false;
  const name = await packageName(d, arg, vscode.l10n.t('Remove Reasonix Extension'), () => true);
  if (!name) return false;
  const remove = vscode.l10n.t('Remove');
  const answer = await d.consent()(
    vscode.l10n.t('Remove "{0}" from Reasonix?', name),
    vscode.l10n.t('It stops in every folder and every Reasonix session, and Reasonix forgets it.'),
    remove,
  );
  if (answer !== remove) return false;
  const rx = await reasonix(d, name);
  if (!rx) return false;
  try {
    await rx.cli.remove(name);
  } catch (err) {
    showFailure(d, name, err);
    await d.sessions.reconcileAll();
    return false;
  }
  d.log.info(`removed ${name} with Reasonix ${rx.version}`);
  await d.sessions.reconcileAll();
  void vscode.window.showInformationMessage(vscode.l10n.t('Removed "{0}" from Reasonix.', name));
  return true;
}

async function showDetails(d: ManageDeps, arg: unknown): Promise<vscode.Uri | undefined> {
  if (!trusted()) return undefined;
  const name = await packageName(d, arg, vscode.l10n.t('Show Details'), () => true);
  if (!name) return undefined;
  const rx = await reasonix(d, name);
  if (!rx) return undefined;
  const section = async (label: string, read: () => Promise<string>) => {
    try {
      return `$ ${label}\n${await read()}`;
    } catch (err) {
      if (err instanceof ReasonixError) return `$ ${label}\n${err.said || err.message}\n(${err.message})`;
      throw err;
    }
  };
  const text = [
    vscode.l10n.t('Reasonix {0} at {1}', rx.version, rx.binary.path),
    await section(`reasonix plugin show ${name}`, () => rx.cli.show(name)),
    await section(`reasonix plugin doctor ${name}`, () => rx.cli.doctor(name)),
  ].join('\n\n');
  const uri = d.details.set(name, `${text}\n`);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: true });
  return uri;
}

async function migrate(d: ManageDeps, arg: unknown): Promise<boolean> {
  if (!trusted()) return false;
  const name = await packageName(d, arg, vscode.l10n.t('Migrate to v2'), () => true);
  if (!name) return false;
  const rx = await reasonix(d, name);
  if (!rx) return false;
  try {
    const said = await rx.cli.migrate(name);
    d.log.info(`reasonix plugin migrate ${name} --to-v2: ${said}`);
    await d.sessions.reconcileAll();
    void vscode.window.showInformationMessage(vscode.l10n.t('Reasonix migrated "{0}": {1}', name, said));
    return true;
  } catch (err) {
    showFailure(d, name, err);
    return false;
  }
}

/** The commands' work, by command (src/vscode/manage/register.ts registers them at activation). */
export const manageHandlers = {
  installExtension,
  enableGlobally: (d: ManageDeps, arg?: unknown) => setGlobally(d, arg, true),
  disableGlobally: (d: ManageDeps, arg?: unknown) => setGlobally(d, arg, false),
  removeExtension,
  showExtensionDetails: showDetails,
  migrateExtension: migrate,
};
