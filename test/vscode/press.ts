// Driving VS Code's own QuickPick/InputBox from an in-host suite.
import * as vscode from 'vscode';

/**
 * Runs `command` until `pending` settles: no guessing how long the UI takes to appear. After a
 * press it waits for the settle or 150 ms (300 ms after each of the first `times - 1` presses,
 * for a prompt of several steps); fails after `timeoutMs`.
 */
export async function pressUntil<T>(
  command: string,
  pending: Thenable<T>,
  opts: { times?: number; timeoutMs?: number } = {},
): Promise<T> {
  const times = opts.times ?? 1;
  let done = false;
  const p = Promise.resolve(pending).finally(() => (done = true));
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  let pressed = 0;
  while (!done) {
    if (Date.now() > deadline) throw new Error(`${command} never settled the prompt`);
    await vscode.commands.executeCommand(command);
    pressed++;
    await Promise.race([p, new Promise((r) => setTimeout(r, pressed < times ? 300 : 150))]);
  }
  return p;
}
