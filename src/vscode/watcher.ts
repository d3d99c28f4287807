// One FileSystemWatcher per workspace folder feeding the engine's change batcher, which sends
// `extension/resources/changed` to the session's initialized sidecars (HOST_SPEC §8, our policy).
import * as vscode from 'vscode';
import type { Logger } from '../host/log';
import { ChangeBatcher } from '../host/resources';

/** The enabled keys of `files.exclude` for a folder (conditional `when` entries are not paths). */
export function excludeGlobs(folder: vscode.WorkspaceFolder): string[] {
  const map = vscode.workspace.getConfiguration('files', folder.uri).get<Record<string, unknown>>('exclude', {});
  return Object.entries(map)
    .filter(([, v]) => v === true)
    .map(([k]) => k);
}

export class FolderWatcher implements vscode.Disposable {
  readonly batcher: ChangeBatcher;
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    folder: vscode.WorkspaceFolder,
    send: (paths: string[]) => number,
    log: Logger,
    opts: { coalesceMs?: number } = {},
  ) {
    this.batcher = new ChangeBatcher({
      root: folder.uri.fsPath,
      exclude: excludeGlobs(folder),
      coalesceMs: opts.coalesceMs,
      send: (paths) => {
        const n = send(paths);
        log.trace(`[${folder.name}] resources/changed: ${paths.length} path(s) to ${n} sidecar(s)`);
      },
      onError: (err) => log.warn(`[${folder.name}] could not deliver file changes: ${String(err)}`),
    });
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '**/*'));
    const add = (uri: vscode.Uri) => {
      if (uri.scheme === 'file') this.batcher.add(uri.fsPath);
    };
    this.subs.push(
      watcher,
      watcher.onDidCreate(add),
      watcher.onDidChange(add),
      watcher.onDidDelete(add),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('files.exclude', folder.uri)) this.batcher.setExcludes(excludeGlobs(folder));
      }),
    );
  }

  dispose(): void {
    this.batcher.dispose();
    this.subs.forEach((d) => d.dispose());
  }
}
