// New Reasonix Extension… (issue 42): asks the language (Node, or Python with the standard
// library), a folder (empty or new: a folder with anything in it is refused before anything is
// written) and a name, writes the v2 scaffold from the shipped templates (src/host/authoring
// writeScaffold), links the folder (the author made it here: linking is the trust decision, and
// this command is that decision), reloads the runtime as Link Extension Folder… does, and opens its
// sidecar. Part of dist/authoring.js.
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  scaffoldNameFor,
  scaffoldNameProblem,
  scaffoldTargetProblem,
  writeScaffold,
  type ScaffoldLanguage,
} from '../../host/authoring';
import type { LinkedFolders } from '../linking';

export interface NewExtensionArgs {
  language: ScaffoldLanguage;
  folder: string;
  name?: string;
}

export interface NewExtensionDeps {
  linked: LinkedFolders;
  /** templates/scaffold of the installed extension. */
  templates: string;
  /** The host's CLI as the generated test and launch configuration run it. */
  cli: string;
  /** Reloads the folder sessions, as Link Extension Folder… does after linking. */
  reload(): Promise<unknown>;
}

export interface Created {
  folder: string;
  name: string;
  files: string[];
}

async function ask(): Promise<NewExtensionArgs | undefined> {
  const lang = await vscode.window.showQuickPick(
    [
      { label: 'Node.js', description: vscode.l10n.t('no dependencies'), language: 'node' as const },
      { label: 'Python', description: vscode.l10n.t('standard library only'), language: 'python' as const },
    ],
    { placeHolder: vscode.l10n.t('The new extension’s language') },
  );
  if (!lang) return undefined;
  const picked = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: vscode.l10n.t('Create Here'),
    title: vscode.l10n.t('An empty folder for the new Reasonix extension'),
  });
  const folder = picked?.[0]?.fsPath;
  if (!folder) return undefined;
  if (scaffoldTargetProblem(folder)) {
    notEmpty(folder);
    return undefined;
  }
  const name = await vscode.window.showInputBox({
    prompt: vscode.l10n.t('The extension’s name (its tool is called ext__<name>__greet)'),
    value: scaffoldNameFor(folder),
    validateInput: (t) =>
      scaffoldNameProblem(t)
        ? vscode.l10n.t('Use lower-case letters, digits and dashes (at most 64), starting with a letter or digit.')
        : undefined,
  });
  if (name === undefined) return undefined;
  return { language: lang.language, folder, name };
}

function notEmpty(folder: string): void {
  void vscode.window.showErrorMessage(
    vscode.l10n.t('{0} is not empty: pick an empty or new folder for the new extension. Nothing was written.', folder),
  );
}

/** The command; `arg` answers the questions (tests, key bindings). */
export async function newExtension(deps: NewExtensionDeps, arg?: NewExtensionArgs): Promise<Created | undefined> {
  const a = arg ?? (await ask());
  if (!a) return undefined;
  const name = a.name ?? scaffoldNameFor(a.folder);
  if (scaffoldTargetProblem(a.folder)) {
    notEmpty(a.folder);
    return undefined;
  }
  let files: string[];
  try {
    files = writeScaffold({
      templates: deps.templates,
      language: a.language,
      target: a.folder,
      name,
      reasonixHost: deps.cli,
    });
  } catch (err) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('Creating the Reasonix extension {0} in {1} failed: {2}', name, a.folder, (err as Error).message),
    );
    return undefined;
  }
  await deps.linked.add(a.folder);
  await deps.reload();
  const sidecar = files.find((f) => /^sidecar\./.test(f));
  if (sidecar) await vscode.window.showTextDocument(vscode.Uri.file(path.join(a.folder, sidecar)), { preview: false });
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Created the Reasonix extension {0} in {1} and linked it: it runs in trusted workspaces, and restarts when you save.',
      name,
      a.folder,
    ),
  );
  return { folder: a.folder, name, files };
}
