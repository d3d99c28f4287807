// What activation carries of the authoring aids: one listener for saves of reasonix-plugin.json.
// The rest (dist/authoring.js) is required on the first such save.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { MANIFEST_FILE } from '../../host/plugins';
import { lazyModule } from '../lazyModule';
import type { LinkedFolders } from '../linking';
import type { ExtensionLog } from '../logging';
import type { CheckLaunch, ManifestDiagnostics } from './manifestDiagnostics';

const authoring = lazyModule<typeof import('../../authoring')>('authoring.js', 'authoring');

export interface Authoring extends vscode.Disposable {
  /** The diagnostics once the first manifest was saved (tests read its collection). */
  diagnostics(): ManifestDiagnostics | undefined;
}

export function registerAuthoring(linked: LinkedFolders, launch: CheckLaunch, log: ExtensionLog): Authoring {
  let diagnostics: ManifestDiagnostics | undefined;
  const sub = vscode.workspace.onDidSaveTextDocument((doc) => {
    if (path.basename(doc.uri.fsPath) !== MANIFEST_FILE) return;
    diagnostics ??= new (authoring().ManifestDiagnostics)(linked, launch, log);
    void diagnostics.refresh(doc);
  });
  return {
    diagnostics: () => diagnostics,
    dispose: () => {
      sub.dispose();
      diagnostics?.dispose();
    },
  };
}
