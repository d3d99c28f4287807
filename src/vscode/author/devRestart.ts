// Restart on change (issue 42): each linked development folder (never an installed package) is
// watched; a change to its manifest or its sources (node_modules, .git and caches left out) reloads
// the runtime through the normal supervised path, as Reload Runtime does (every sidecar restarted,
// fail-atomic: a new generation that does not start leaves the previous one running). Bursts of
// saves are throttled into one reload. The Extensions view says "restarted after a change to
// <file>" on the folder's row. Part of dist/authoring.js.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { devChangeOf, RestartThrottle, type DevChange } from '../../host/authoring';
import type { LinkedFolders } from '../linking';
import type { ExtensionLog } from '../logging';

export interface DevRestartDeps {
  linked: LinkedFolders;
  /** Reload Runtime for every folder session. */
  reload(): Promise<void>;
  log: ExtensionLog;
  /** The Extensions view repaints (the notes changed). */
  changed(): void;
  /** Whether restart on change is on (the reasonix.restartOnChange setting). */
  enabled(): boolean;
  quietMs?: number;
  minIntervalMs?: number;
}

export class DevRestart implements vscode.Disposable {
  private watchers = new Map<string, vscode.Disposable>();
  /** The last change that restarted each linked folder's sidecar (root → relative file). */
  private readonly notes = new Map<string, string>();
  private readonly throttle: RestartThrottle;
  private readonly subs: vscode.Disposable[];

  constructor(private readonly deps: DevRestartDeps) {
    this.throttle = new RestartThrottle((changes) => this.restart(changes), deps);
    this.subs = [deps.linked.onDidChange(() => this.sync())];
    this.sync();
  }

  /** "restarted after a change to src/index.js" for a linked folder's row, or undefined. */
  note(root: string): string | undefined {
    const file = this.notes.get(path.resolve(root));
    return file === undefined ? undefined : vscode.l10n.t('restarted after a change to {0}', file);
  }

  private sync(): void {
    const wanted = new Set(this.deps.linked.list().map((f) => path.resolve(f)));
    for (const [root, w] of this.watchers)
      if (!wanted.has(root)) {
        w.dispose();
        this.watchers.delete(root);
        this.notes.delete(root);
      }
    for (const root of wanted) if (!this.watchers.has(root)) this.watchers.set(root, this.watch(root));
  }

  private watch(root: string): vscode.Disposable {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), '**/*'));
    const on = (uri: vscode.Uri) => {
      if (uri.scheme !== 'file' || !this.deps.enabled()) return;
      const file = devChangeOf(root, uri.fsPath);
      if (file !== undefined) this.throttle.add({ root, file });
    };
    return vscode.Disposable.from(watcher, watcher.onDidCreate(on), watcher.onDidChange(on), watcher.onDidDelete(on));
  }

  private async restart(changes: DevChange[]): Promise<void> {
    const what = changes.map((c) => `${path.basename(c.root)}/${c.file}`).join(', ');
    this.deps.log.info(`restarting after a change to ${what} (linked development folder)`);
    await this.deps.reload();
    for (const c of changes) this.notes.set(c.root, c.file);
    this.deps.changed();
  }

  dispose(): void {
    this.throttle.dispose();
    this.subs.forEach((s) => s.dispose());
    this.watchers.forEach((w) => w.dispose());
  }
}
