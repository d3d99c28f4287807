// What activation carries of the authoring aids: one listener for the list of linked folders. The
// aids themselves (dist/authoring.js, aids.ts) serve linked development folders only, so they are
// required at start when a folder is linked, or when one is linked.
import * as vscode from 'vscode';
import { lazyModule } from '../lazyModule';
import type { FrameTap } from '../../host/wire';
import type { DebugLaunch } from '../../host/sidecar';
import type { LinkedFolders } from '../linking';
import type { SessionManager } from '../sessions';
import type { ExtensionLog } from '../logging';
import type { AuthoringAids } from './aids';
import type { CheckLaunch } from './manifestDiagnostics';

const authoring = lazyModule<typeof import('../../authoring')>('authoring.js', 'authoring');

export interface AuthoringDeps {
  linked: LinkedFolders;
  launch: CheckLaunch;
  log: ExtensionLog;
  /** The folder sessions (restart on change reloads them; Fire Hook Point…, Call Tool…). */
  sessions: SessionManager;
  /** The Extensions view repaints. */
  changed(): void;
  /** Package root → frame tap, read by the sidecar factory (the protocol trace fills it). */
  taps: Map<string, FrameTap>;
  /** Package root → its debug start while Debug Extension… holds it, read by the sidecar factory. */
  debugs?: Map<string, DebugLaunch>;
  /** The extension's folder: the scaffold's templates and the preview's webview bundle (default: beside launch.cli's dist/). */
  extensionPath?: string;
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

/** Registered at activation (every contributed command is); each loads the aids when run. */
const COMMANDS = [
  'reasonix.showProtocolTrace',
  'reasonix.copyProtocolTrace',
  'reasonix.fireHookPoint',
  'reasonix.callTool',
  'reasonix.previewView',
  'reasonix.newExtension',
  'reasonix.debugExtension',
];

/** `commands: false`: a second instance beside the extension's own (the in-host tests). */
export function registerAuthoring(deps: AuthoringDeps, commands = true): Authoring {
  let aids: AuthoringAids | undefined;
  const load = () => (aids ??= new (authoring().AuthoringAids)(deps));
  // Linking is an author's act: the aids load with the first linked folder (or at start with one).
  const subs = [
    deps.linked.onDidChange(() => load().sync()),
    ...(commands ? COMMANDS.map((c) => vscode.commands.registerCommand(c, (arg) => load().run(c, arg))) : []),
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
