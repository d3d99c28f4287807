// How an action's answer is shown, the same for an action of a VS Code-hosted extension
// (actions.ts) and of a Reasonix session (reasonixSessions/window.ts): its message (inert), or
// done / not accepted, as information when accepted and as a warning when not.
import * as vscode from 'vscode';
import { inert } from '../host/inert';
import type { ActionResult } from '../host/ui';

export type RunOutcome = ActionResult & { ran: boolean };

export function showActionOutcome(name: string, result: ActionResult): RunOutcome {
  const text = result.message
    ? `${name}: ${result.message}`
    : result.accepted
      ? vscode.l10n.t('{0} done.', name)
      : vscode.l10n.t('{0} was not accepted.', name);
  if (result.accepted) void vscode.window.showInformationMessage(inert(text));
  else void vscode.window.showWarningMessage(inert(text));
  return { ran: true, ...result };
}
