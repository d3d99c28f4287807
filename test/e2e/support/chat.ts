// VS Code's chat view as the UI suites read it: its text (normalised), waiting for a pattern in it
// (answers stream in word by word), and a key pressed with the editor area focused.
import assert from 'node:assert/strict';
import { waitFor } from '../../support/wait';
import { normalise } from './text';
import type { Workbench } from './workbench';

/** The chat view's text (the auxiliary bar), whitespace normalised. */
export async function chatText(wb: Workbench): Promise<string> {
  return normalise(await wb.page.locator('.part.auxiliarybar').innerText());
}

/** Waits for `pattern` in the chat view; fails showing the chat's text. */
export async function chatShows(wb: Workbench, pattern: RegExp, what: string, timeoutMs = 120_000): Promise<void> {
  await waitFor(async () => pattern.test(await chatText(wb)), { timeoutMs, what }).catch(() => undefined);
  assert.match(await chatText(wb), pattern);
}

/** Presses a key with the editor area focused (a keybinding without a `when` fires there). */
export async function pressInEditor(wb: Workbench, key: string): Promise<void> {
  await wb.page.mouse.click(700, 400);
  await wb.page.keyboard.press(key);
}
