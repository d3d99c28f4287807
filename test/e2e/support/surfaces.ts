// Reading and driving the Reasonix Surfaces webview the way a user sees it: cards by their title,
// the form's @vscode-elements controls, a card's inline result line. All lookups go through the
// webview frame found by content, since the webview lives in nested iframes outside the side bar.
import type { Frame, Locator } from 'playwright-core';
import { normalise } from './text';
import { waitFor } from '../../support/wait';
import type { Workbench } from './workbench';

/** Opens the Reasonix container and returns the Surfaces webview's frame once a card shows. */
export async function openSurfaces(wb: Workbench, timeoutMs = 60_000): Promise<Frame> {
  await wb.openViewContainer('Reasonix');
  return wb.webviewFrame('article.surface.card', timeoutMs);
}

/** A card (`article.surface.card`) by its exact title. */
export function card(frame: Frame, title: string): Locator {
  return frame
    .locator('article.surface.card')
    .filter({ has: frame.locator('h3.surface-title', { hasText: new RegExp(`^\\s*${escapeRe(title)}\\s*$`) }) });
}

/** A published form (`section.surface.form`, not a prompt) by its title. */
export function form(frame: Frame, title: string): Locator {
  return frame
    .locator('section.surface.form:not(.prompt)')
    .filter({ has: frame.locator('h3.surface-title', { hasText: title }) });
}

/** The control of a form field by its key (the element carrying data-field-key). */
export function control(formEl: Locator, key: string): Locator {
  return formEl.locator(`[data-field-key="${key}"]:not(.field)`);
}

/** The visible text of an element, whitespace-normalised. */
export async function textOf(el: Locator): Promise<string> {
  return normalise((await el.innerText({ timeout: 10_000 })) ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Waits until the element's text matches `wanted`; returns the text. */
export async function waitForText(el: Locator, wanted: RegExp | string, timeoutMs = 30_000): Promise<string> {
  let last = '';
  try {
    return await waitFor(
      async () => {
        last = (await el.count()) ? await textOf(el.first()) : '';
        return (typeof wanted === 'string' ? last.includes(wanted) : wanted.test(last)) ? last : undefined;
      },
      { timeoutMs, what: `text matching ${String(wanted)}`, intervalMs: 200 },
    );
  } catch (e) {
    throw new Error(`${(e as Error).message}; last text: "${last}"`);
  }
}

/** Value of a card's key/value field (`dl.kv`: dt key → dd value). */
export async function cardField(cardEl: Locator, key: string): Promise<string | undefined> {
  const keys = await cardEl.locator('dl.kv dt').allInnerTexts();
  const values = await cardEl.locator('dl.kv dd').allInnerTexts();
  const i = keys.findIndex((k) => k.trim() === key);
  return i < 0 ? undefined : values[i]?.trim();
}

/** Picks an option of a `vscode-single-select` the way a user does: open it, click the option. */
export async function chooseOption(select: Locator, option: string): Promise<void> {
  await select.click();
  await select
    .locator('li[role="option"]', { hasText: new RegExp(`^\\s*${escapeRe(option)}\\s*$`) })
    .first()
    .click();
}

/** For `locator.evaluate`: the `value` property of a form control (custom elements included). */
export function valueOf(el: unknown): string {
  return String((el as { value?: unknown }).value);
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
