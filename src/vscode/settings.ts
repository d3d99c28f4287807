// Typed reads of the `reasonix.*` settings. Anything that names an executable or the Reasonix
// home is machine-scoped in package.json, so a cloned repository's .vscode/settings.json cannot
// influence what runs; we additionally read `reasonix.home` from the global value only.
import * as vscode from 'vscode';
import { resolveReasonixHome } from '../host/plugins';

export interface Settings {
  home: string;
  autoRestart: boolean;
  maxParallelStarts: number;
  startupBudgetMs: number;
  fileChanges(folder: vscode.WorkspaceFolder): boolean;
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
    autoRestart: cfg.get<boolean>('autoRestart', true),
    maxParallelStarts: int('startup.maxParallel', 4, 1, 16),
    startupBudgetMs: int('startup.timeoutSeconds', 30, 1, 300) * 1000,
    fileChanges: (folder) =>
      vscode.workspace.getConfiguration('reasonix', folder.uri).get<boolean>('fileChanges.enabled', true),
  };
}
