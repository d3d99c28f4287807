// What activation carries of the authoring aids: a listener for saves of reasonix-plugin.json and
// one for the list of linked folders. The rest (dist/authoring.js, aids.ts) is required on the
// first such save, or at start when a development folder is linked (restart on change watches it).
import type * as vscode from 'vscode';
import { workspace } from 'vscode';
import { MANIFEST_FILE } from '../../host/plugins';
import { lazyModule } from '../lazyModule';
import type { LinkedFolders } from '../linking';
import type { ExtensionLog } from '../logging';
import type { AuthoringAids } from './aids';
import type { CheckLaunch } from './manifestDiagnostics';

const authoring = lazyModule<typeof import('../../authoring')>('authoring.js', 'authoring');

export interface AuthoringDeps {
  linked: LinkedFolders;
  launch: CheckLaunch;
  log: ExtensionLog;
  /** Reload Runtime for every folder session (restart on change). */
  reload(): Promise<void>;
  /** The Extensions view repaints. */
  changed(): void;
  /** Restart on change timings (tests shorten them). */
  quietMs?: number;
  minIntervalMs?: number;
}

export interface Authoring extends vscode.Disposable {
  /** The aids once loaded (tests read the diagnostics' collection). */
  aids(): AuthoringAids | undefined;
  /** "restarted after a change to <file>" for a linked folder's row. */
  note(root: string): string | undefined;
}

export function registerAuthoring(deps: AuthoringDeps): Authoring {
  let aids: AuthoringAids | undefined;
  const load = () => (aids ??= new (authoring().AuthoringAids)(deps));
  const subs = [
    workspace.onDidSaveTextDocument((doc) => doc.uri.path.endsWith(`/${MANIFEST_FILE}`) && load().saved(doc)),
    deps.linked.onDidChange(() => load().sync()), // linking is an author's act: load the aids
  ];
  if (deps.linked.list().length) load();
  return {
    aids: () => aids,
    note: (root) => aids?.note(root),
    dispose: () => {
      subs.forEach((s) => s.dispose());
      aids?.dispose();
    },
  };
}
