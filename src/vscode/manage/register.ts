// The manage commands as activation registers them: the commands and the Show Details documents.
// Their work (the reasonix room, the plan modal) is dist/manage.js, required on the first use, so
// the activation bundle stays within its size budget (src/vscode/lazyModule.ts).
import * as vscode from 'vscode';
import type { ExtensionLog } from '../logging';
import { lazyModule } from '../lazyModule';
import type { SessionManager } from '../sessions';
import { DETAILS_SCHEME, type DetailsDocuments } from './details';

/** Asks the user to agree (a modal); resolves with the button pressed. Tests in Test mode replace it. */
export type Consent = (title: string, detail: string, button: string) => Thenable<string | undefined>;

export const modalConsent: Consent = (title, detail, button) =>
  vscode.window.showWarningMessage(title, { modal: true, detail }, button);

export interface ManageDeps {
  sessions: SessionManager;
  log: ExtensionLog;
  /** The Reasonix home this host reads (settings). */
  home(): string;
  details: DetailsDocuments;
  consent(): Consent;
}

const handlers = lazyModule<typeof import('../../manageCommands')>('manage.js', 'manageCommands');

type Handlers = ReturnType<typeof handlers>['manageHandlers'];
const COMMANDS: readonly (keyof Handlers)[] = [
  'installExtension',
  'enableGlobally',
  'disableGlobally',
  'removeExtension',
  'showExtensionDetails',
  'migrateExtension',
];

export function registerManageCommands(d: ManageDeps): vscode.Disposable[] {
  return [
    vscode.workspace.registerTextDocumentContentProvider(DETAILS_SCHEME, d.details),
    ...COMMANDS.map((name) =>
      vscode.commands.registerCommand(`reasonix.${name}`, (arg?: unknown) => handlers().manageHandlers[name](d, arg)),
    ),
  ];
}
