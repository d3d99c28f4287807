// Every failure a user sees names the plugin, what was happening, how long it ran and the
// (redacted) end of its stderr, and offers the two ways forward: Show Logs and Restart.
import * as vscode from 'vscode';
import { redact } from '../host/redact';
import type { FailureInfo } from '../host/session';

export interface FailureActions {
  showLogs(): void;
  restart(): Promise<void>;
}

export function describeFailure(
  info: FailureInfo,
  folderName: string | undefined,
  what: 'crashed' | 'failed to start',
): string {
  const secs = (info.elapsedMs / 1000).toFixed(1);
  const where = folderName ? ` in ${folderName}` : '';
  const tail = info.stderrTail.trim().split(/\r?\n/).slice(-3).join(' ⏎ ');
  return redact(
    `Reasonix extension "${info.pluginId}"${where} ${what} during ${info.stage} after ${secs}s: ${info.message}` +
      (tail ? ` — stderr: ${tail}` : ''),
  );
}

/** Shows one error notification; resolves when the user picked a button or dismissed it. */
export async function showFailure(message: string, actions: FailureActions, extra?: string): Promise<void> {
  const choice = await vscode.window.showErrorMessage(extra ? `${message} ${extra}` : message, 'Show Logs', 'Restart');
  if (choice === 'Show Logs') actions.showLogs();
  else if (choice === 'Restart') await actions.restart();
}
