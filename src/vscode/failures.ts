// Every failure a user sees names the plugin, what was happening, how long it ran and the
// (redacted) end of its stderr, and offers the two ways forward: Show Logs and Restart.
import * as vscode from 'vscode';
import { inert } from '../host/inert';
import { redact } from '../host/redact';
import type { FailureInfo } from '../host/session';

export interface FailureActions {
  showLogs(): void;
  restart(): Promise<void>;
}

/** The button that opens the Reasonix output channel, in the display language. */
export function showLogsLabel(): string {
  return vscode.l10n.t('Show Logs');
}

/** The button that restarts the failed extension, in the display language. */
export function restartLabel(): string {
  return vscode.l10n.t('Restart');
}

/** The sentence's frame is translated; the stage, the host's reason and stderr stay as they came. */
export function describeFailure(
  info: FailureInfo,
  folderName: string | undefined,
  what: 'crashed' | 'failed to start',
): string {
  const secs = (info.elapsedMs / 1000).toFixed(1);
  const tail = info.stderrTail.trim().split(/\r?\n/).slice(-3).join(' ⏎ ');
  const args = [info.pluginId, info.stage, secs, info.message] as const;
  const head =
    what === 'crashed'
      ? folderName
        ? vscode.l10n.t('Reasonix extension "{0}" in {4} crashed during {1} after {2}s: {3}', ...args, folderName)
        : vscode.l10n.t('Reasonix extension "{0}" crashed during {1} after {2}s: {3}', ...args)
      : folderName
        ? vscode.l10n.t(
            'Reasonix extension "{0}" in {4} failed to start during {1} after {2}s: {3}',
            ...args,
            folderName,
          )
        : vscode.l10n.t('Reasonix extension "{0}" failed to start during {1} after {2}s: {3}', ...args);
  return redact(head + (tail ? vscode.l10n.t(' — stderr: {0}', tail) : ''));
}

/** Shows one error notification; resolves when the user picked a button or dismissed it. */
export async function showFailure(message: string, actions: FailureActions, extra?: string): Promise<void> {
  const [logs, restart] = [showLogsLabel(), restartLabel()];
  const choice = await vscode.window.showErrorMessage(inert(extra ? `${message} ${extra}` : message), logs, restart);
  if (choice === logs) actions.showLogs();
  else if (choice === restart) await actions.restart();
}
