// Development folders a user links as extra plugins. Linking is the trust decision (HOST_SPEC §10),
// so it happens only after a modal that shows the FULL TRUST details, and the list lives in the
// extension's global state: never in settings, where a cloned repository could add to it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readManifest, MANIFEST_FILE } from '../host/plugins';
import { fullTrustLines } from './displayStates';

const KEY = 'reasonix.linkedFolders';

export class LinkedFolders {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {}

  list(): string[] {
    return [...this.state.get<string[]>(KEY, [])];
  }

  async add(folder: string): Promise<void> {
    const all = new Set(this.list());
    all.add(path.resolve(folder));
    await this.state.update(KEY, [...all].sort());
    this.changed.fire();
  }

  async remove(folder: string): Promise<void> {
    await this.state.update(
      KEY,
      this.list().filter((f) => f !== folder),
    );
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export type LinkCheck = { ok: true; name: string; details: string[] } | { ok: false; message: string };

/** Validates a folder's manifest and, when it can run, returns the FULL TRUST lines to show. */
export async function checkLinkable(folder: string): Promise<LinkCheck> {
  const m = await readManifest(folder);
  if (m.status !== 'runnable') {
    return {
      ok: false,
      message: vscode.l10n.t('{0} cannot be linked: {1}', path.join(folder, MANIFEST_FILE), m.reason),
    };
  }
  const name = m.name ?? path.basename(folder);
  return { ok: true, name, details: fullTrustLines({ id: name, root: folder, ...m }, vscode.l10n) };
}

/** The Link Extension Folder… command. `pick` is injectable so tests skip the folder dialog. */
export async function linkFolderCommand(
  linked: LinkedFolders,
  pick: () => Promise<string | undefined> = pickFolder,
): Promise<boolean> {
  const folder = await pick();
  if (!folder) return false;
  const check = await checkLinkable(folder);
  if (!check.ok) {
    void vscode.window.showErrorMessage(check.message);
    return false;
  }
  const consent = vscode.l10n.t('Link and Run');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Link "{0}" as a Reasonix extension?', check.name),
    {
      modal: true,
      detail: `${check.details.join('\n')}\n\n${vscode.l10n.t('It starts in every trusted workspace until you unlink it.')}`,
    },
    consent,
  );
  if (answer !== consent) return false;
  await linked.add(folder);
  void vscode.window.showInformationMessage(vscode.l10n.t('Linked "{0}" from {1}.', check.name, folder));
  return true;
}

async function pickFolder(): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: vscode.l10n.t('Link Folder'),
    title: vscode.l10n.t('Choose a folder containing {0}', MANIFEST_FILE),
  });
  return picked?.[0]?.fsPath;
}

export async function unlinkFolderCommand(linked: LinkedFolders, folder?: string): Promise<boolean> {
  const all = linked.list();
  if (all.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No extension folders are linked.'));
    return false;
  }
  const target =
    folder ??
    (
      await vscode.window.showQuickPick(
        all.map((f) => ({ label: path.basename(f), description: f, folder: f })),
        {
          title: vscode.l10n.t('Unlink Extension Folder'),
          placeHolder: vscode.l10n.t('The extension stops and no longer starts'),
        },
      )
    )?.folder;
  if (!target || !all.includes(target)) return false;
  await linked.remove(target);
  return true;
}
