// Typed reads of the `reasonix.*` settings, by one rule (issue 28): a workspace may make the host
// stricter, never looser. Anything that names an executable or the Reasonix home, and whether
// agent governance applies, is the user's alone: machine-scoped in package.json (VS Code ignores a
// workspace value) and read from the user's value only here as well. Where a workspace may take
// part, only in the stricter direction: it may turn automatic restarts on, and stop file-change
// notices, never the reverse. README "Settings" has the table.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { resolveReasonixHome } from '../host/plugins';

export interface Settings {
  home: string;
  autoRestart: boolean;
  maxParallelStarts: number;
  startupBudgetMs: number;
  fileChanges(folder: vscode.WorkspaceFolder): boolean;
  /**
   * `all`: the folder's extensions start with the window; `onUse` (default): in a window of several
   * folders, when the folder is first used. A workspace or folder may ask for `all`, never the reverse.
   */
  startFolders?(folder: vscode.WorkspaceFolder): 'all' | 'onUse';
  /** Minutes a started folder not in use may stay quiet before its extensions stop; 0 (default): never. The user's alone. */
  idleStopMinutes?: number;
}

/** The user's own value (user/machine settings, or the default): never a workspace or folder value. */
export function userValue<T>(cfg: vscode.WorkspaceConfiguration, key: string, def: T): T {
  const i = cfg.inspect<T>(key);
  return i?.globalValue ?? i?.defaultValue ?? def;
}

/** A workspace or folder value of `key`, if one is written (for logging that it is ignored). */
export function workspaceValue<T>(cfg: vscode.WorkspaceConfiguration, key: string): T | undefined {
  const i = cfg.inspect<T>(key);
  return i?.workspaceFolderValue ?? i?.workspaceValue;
}

/**
 * Values of a machine-scoped `reasonix.<key>` written in the workspace's own settings files (each
 * folder's .vscode/settings.json and a .code-workspace file), for saying that they are ignored: VS
 * Code drops them before `inspect()` could tell (issue 38). Read as text, comments and all; only a
 * literal `true` or `false` counts.
 */
export function ignoredWorkspaceValues(key: string): { file: string; value: boolean }[] {
  const files = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => join(f.uri.fsPath, '.vscode', 'settings.json'));
  const ws = vscode.workspace.workspaceFile;
  if (ws?.scheme === 'file') files.push(ws.fsPath);
  const pattern = new RegExp(`"reasonix\\.${key.replace(/\./g, '\\.')}"\\s*:\\s*(true|false)\\b`);
  const out: { file: string; value: boolean }[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue; // no settings file there
    }
    const m = pattern.exec(text);
    if (m) out.push({ file, value: m[1] === 'true' });
  }
  return out;
}

/** Whether views anchored to a tool call are drawn on its chat card (MCP Apps): on by default, the user's. */
export function toolCardsEnabled(): boolean {
  return userValue(vscode.workspace.getConfiguration('reasonix'), 'chat.toolCards', true);
}

/** Whether agent hooks govern VS Code's agents: the user's decision only. */
export function agentHooksEnabled(): boolean {
  return userValue(vscode.workspace.getConfiguration('reasonix'), 'agentHooks.enabled', true);
}

export function readSettings(): Settings {
  const cfg = vscode.workspace.getConfiguration('reasonix');
  // inspect().globalValue: never a workspace or folder value, even if one were written by hand.
  const homeSetting = cfg.inspect<string>('home')?.globalValue?.trim();
  const int = (key: string, def: number, min: number, max: number) => {
    const v = cfg.inspect<number>(key)?.globalValue ?? def;
    return Number.isInteger(v) ? Math.min(max, Math.max(min, v)) : def;
  };
  return {
    home: homeSetting ? homeSetting : resolveReasonixHome(),
    // A workspace may turn restarts on (keeping a policy extension up), never off.
    autoRestart: userValue(cfg, 'autoRestart', true) || workspaceValue<boolean>(cfg, 'autoRestart') === true,
    maxParallelStarts: int('startup.maxParallel', 4, 1, 16),
    startupBudgetMs: int('startup.timeoutSeconds', 30, 1, 300) * 1000,
    // A workspace (or folder) may ask for its extensions to start with the window, never to start later.
    startFolders: (folder) => {
      const folderCfg = vscode.workspace.getConfiguration('reasonix', folder.uri);
      return userValue<string>(folderCfg, 'startup.folders', 'onUse') === 'all' ||
        workspaceValue<string>(folderCfg, 'startup.folders') === 'all'
        ? 'all'
        : 'onUse';
    },
    idleStopMinutes: int('startup.idleStopMinutes', 0, 0, 7 * 24 * 60),
    // A workspace may stop telling extensions about its files, never start it against the user.
    fileChanges: (folder) => {
      const folderCfg = vscode.workspace.getConfiguration('reasonix', folder.uri);
      return (
        userValue(folderCfg, 'fileChanges.enabled', true) &&
        workspaceValue<boolean>(folderCfg, 'fileChanges.enabled') !== false
      );
    },
  };
}
