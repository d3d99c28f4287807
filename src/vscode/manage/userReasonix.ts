// The user's Reasonix as the VS Code face finds it: the user's own `reasonix.path` (machine
// scope; a workspace value is ignored and logged), else `reasonix` on PATH; its version read once
// per binary. Never in an untrusted workspace: callers check trust first (canManage).
import { statSync } from 'node:fs';
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { Logger } from '../../host/log';
import { locateReasonix, ReasonixCli, reasonixVersion, type ReasonixBinary } from '../../host/reasonix';
import { workspaceValue } from '../settings';

export interface UserReasonix {
  binary: ReasonixBinary;
  version: string;
  cli: ReasonixCli;
}

const versions = new Map<string, { mtimeMs: number; version: string }>();

/** The user's (or machine's) `reasonix.path`; never a workspace or folder value. */
export function configuredPath(log?: Logger): string {
  const cfg = vscode.workspace.getConfiguration('reasonix');
  if (workspaceValue<string>(cfg, 'path') !== undefined)
    log?.warn('reasonix.path is set in the workspace; ignored (only your user setting names the Reasonix to run)');
  return cfg.inspect<string>('path')?.globalValue?.trim() ?? '';
}

/** Where commands without a local source run: the first folder, else the home folder. */
function defaultCwd(): string {
  const f = vscode.workspace.workspaceFolders?.find((w) => w.uri.scheme === 'file');
  return f?.uri.fsPath ?? os.homedir();
}

/** Finds Reasonix and reads its version; throws a ReasonixError (step find or version). */
export async function findUserReasonix(home: string, log: Logger, timeoutMs?: number): Promise<UserReasonix> {
  const binary = locateReasonix({ configured: configuredPath(log) });
  const cwd = defaultCwd();
  let mtimeMs = 0;
  try {
    mtimeMs = statSync(binary.path).mtimeMs;
  } catch {
    // reasonixVersion reports the failure
  }
  let version = versions.get(binary.path)?.mtimeMs === mtimeMs ? versions.get(binary.path)?.version : undefined;
  if (!version) {
    version = await reasonixVersion(binary.path, cwd, process.env);
    versions.set(binary.path, { mtimeMs, version });
    log.info(
      `using Reasonix ${version} at ${binary.path} (from ${binary.from === 'setting' ? 'reasonix.path' : 'PATH'})`,
    );
  }
  return { binary, version, cli: new ReasonixCli({ bin: binary.path, home, cwd, timeoutMs }) };
}
