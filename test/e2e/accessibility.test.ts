// Surfaces in every theme, from the keyboard, for screen readers, in the real workbench. One
// session (a session costs 30–40 s) with two fixture extensions (test/fixtures/ui/gallery.js):
// `gallery` publishes every surface kind, `archive` publishes and exits, so its surfaces are
// stale. Its tests run in order: accessible names, the four themes (switched through
// "Preferences: Color Theme", which writes workbench.colorTheme to the test profile's settings;
// screenshots in test-results/themes/, the prompt open), then a keyboard-only pass that also
// cancels the prompt.
//
// UPDATE_SCREENSHOTS=1 also writes docs/images/theme-{light,dark,high-contrast}.png for the
// README; UPDATE_THEME_VARS=1 writes the webview's real --vscode-* variables of each theme to
// test/webview/themes/*.css, which the webview suite's axe checks use.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { repoRoot, resultsDir } from './support/paths';
import { reasonixSessionOptions } from './support/reasonix';
import { useSharedUiSession } from './support/session';
import { card, waitForText } from './support/surfaces';
import { waitFor } from '../support/wait';
import type { Workbench } from './support/workbench';

const FIXTURES = join(repoRoot, 'test', 'fixtures', 'ui');

/** The four themes, in the order the test visits them (ending on the default, Dark Modern). */
const THEMES = [
  { id: 'Light Modern', label: 'Light Modern', kind: 'vscode-light', file: 'light-modern', doc: 'theme-light' },
  {
    id: 'Default High Contrast',
    label: 'Dark High Contrast',
    kind: 'vscode-high-contrast',
    file: 'hc-dark',
    doc: 'theme-high-contrast',
  },
  {
    id: 'Default High Contrast Light',
    label: 'Light High Contrast',
    kind: 'vscode-high-contrast-light',
    file: 'hc-light',
    doc: undefined,
  },
  { id: 'Dark Modern', label: 'Dark Modern', kind: 'vscode-dark', file: 'dark-modern', doc: 'theme-dark' },
] as const;

// What the callbacks below touch in the webview's page (the root tsconfig has no DOM lib).
interface PElement {
  tagName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  closest(selector: string): PElement | null;
  shadowRoot: { activeElement: PElement | null } | null;
}
interface PDocument {
  activeElement: PElement | null;
  body: { scrollHeight: number; dataset: Record<string, string | undefined> };
  documentElement: { style: { length: number; [i: number]: string; getPropertyValue(n: string): string } };
  addEventListener(type: string, cb: () => void, capture: boolean): void;
}
type PWindow = { document: PDocument; __pointerEvents?: number };

async function surfacesFrame(wb: Workbench): Promise<Frame> {
  await wb.openViewContainer('Reasonix');
  return wb.webviewFrame("article.surface.card[data-key*='gallery']", 60_000);
}

/** Where keyboard focus is in the webview: the focused element's key attributes. */
async function focused(
  frame: Frame,
): Promise<{ action?: string; field?: string; prompt: boolean; form?: string; text: string }> {
  return frame.evaluate(() => {
    const a = (globalThis as unknown as PWindow).document.activeElement;
    return {
      action: a?.getAttribute('data-action-id') ?? undefined,
      field: a?.getAttribute('data-field-key') ?? undefined,
      prompt: !!a?.closest('[data-prompt-id]'),
      form: a?.closest('section.surface.form')?.getAttribute('data-key') ?? undefined,
      text: a ? `${a.tagName} ${a.getAttribute('aria-label') ?? (a.textContent ?? '').trim().slice(0, 30)}` : '(none)',
    };
  });
}

/** Presses Tab until `pred` holds for the focused element (at most 60 presses). */
async function tabTo(
  wb: Workbench,
  frame: Frame,
  pred: (f: Awaited<ReturnType<typeof focused>>) => boolean,
  what: string,
): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < 60; i++) {
    const f = await focused(frame);
    if (pred(f)) return;
    seen.push(f.text);
    await wb.page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${what}; focus went through: ${seen.join(' → ')}`);
}

describe('Reasonix Surfaces: every theme, the keyboard, screen readers (gallery + archive fixtures)', function () {
  this.timeout(180_000);
  const session = useSharedUiSession(() => ({
    ...reasonixSessionOptions({ plugins: [join(FIXTURES, 'gallery'), join(FIXTURES, 'archive')] }),
    // The archive fixture exits after publishing: keep it crashed so its surfaces stay stale.
    settings: { 'reasonix.autoRestart': false },
  }));

  it('names each Extensions row and the status bar item with the plugin state ("gallery, running, pid N")', async () => {
    const wb = session().workbench;
    await wb.openViewContainer('Reasonix');
    const rows = wb.view('Extensions').locator('.monaco-list-row');
    const labels = await waitFor(
      async () => {
        const all = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
        return all.some((l) => /^gallery, running, pid \d+/.test(l)) && all.some((l) => /^archive, crashed/.test(l))
          ? all
          : undefined;
      },
      { timeoutMs: 60_000, what: 'tree rows named "gallery, running, pid N" and "archive, crashed"' },
    );
    assert.ok(
      labels.some((l) => /^gallery status: Error: Lint failed, 3 errors/.test(l)),
      labels.join(' | '),
    );
    const item = wb.page.locator('.part.statusbar [aria-label^="Reasonix"]').first();
    await item.waitFor({ state: 'attached', timeout: 30_000 });
    const name = (await item.getAttribute('aria-label')) ?? '';
    assert.match(name, /gallery, running, pid \d+/);
    assert.match(name, /archive, crashed/);

    // The row's inline buttons have keyboard equivalents in its context menu (Shift+F10).
    await wb.runCommandByKeyboard('Reasonix: Focus on Extensions View');
    // A tree keeps DOM focus on the list and marks the focused row.
    const focusedRow = wb.view('Extensions').locator('.monaco-list-row.focused');
    const rowName = async () =>
      (await focusedRow.count()) ? ((await focusedRow.first().getAttribute('aria-label')) ?? '') : '';
    for (let i = 0; i < 10 && !/^gallery, running/.test(await rowName()); i++)
      await wb.page.keyboard.press('ArrowDown');
    assert.match(await rowName(), /^gallery, running/, 'the arrow keys reach the gallery row');
    await wb.page.keyboard.press('Shift+F10');
    const menu = wb.page.locator('.monaco-menu .action-label');
    await menu.first().waitFor({ state: 'visible', timeout: 10_000 });
    const entries = (await menu.allInnerTexts()).map((t) => t.trim());
    await wb.page.keyboard.press('Escape');
    for (const e of ['Restart Extension…', 'Stop Extension…', 'Show Logs'])
      assert.ok(entries.includes(e), `"${e}" in the context menu: ${entries.join(', ')}`);
  });

  it('renders every surface kind in Light Modern, High Contrast Dark, High Contrast Light and Dark Modern', async () => {
    const s = session();
    const wb = s.workbench;
    // The prompt of a multi-field request shows in the Surfaces view while it is visible.
    let frame = await surfacesFrame(wb);
    await wb.runCommandByKeyboard('Reasonix: Run Extension Action…');
    await wb.pickQuickItem('/gallery:ask');
    await frame
      .locator('[data-prompt-id] h3.surface-title', { hasText: 'Gallery prompt' })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await frame.locator(".plugin[data-plugin='archive'].stale").waitFor({ state: 'attached', timeout: 30_000 });
    // Room for every surface: a tall window, the Extensions view collapsed.
    const original = wb.page.viewportSize();
    await wb.page.setViewportSize({ width: 1280, height: 1800 });
    const extensionsHeader = wb.view('Extensions').locator('.pane-header');
    if ((await extensionsHeader.getAttribute('aria-expanded')) === 'true') await extensionsHeader.click();
    await wb.page.mouse.move(900, 700); // off the side bar: no hover, no tooltip
    const dir = join(resultsDir, 'themes');
    mkdirSync(dir, { recursive: true });
    try {
      for (const theme of THEMES) {
        // "Preferences: Color Theme" writes workbench.colorTheme into the test profile's user
        // settings (code-server does not pick up an edit of settings.json made behind its back).
        await wb.runCommandByKeyboard('Preferences: Color Theme');
        await wb.pickQuickItemByKeyboard(theme.label);
        frame = await surfacesFrame(wb);
        let seen = '';
        await waitFor(
          async () => {
            const d = await frame.evaluate(() => ({ ...(globalThis as unknown as PWindow).document.body.dataset }));
            seen = `${d.vscodeThemeKind} / ${d.vscodeThemeName} / ${d.vscodeThemeId}`;
            return d.vscodeThemeKind === theme.kind &&
              (d.vscodeThemeId === theme.id || d.vscodeThemeName === theme.label)
              ? true
              : undefined;
          },
          { timeoutMs: 30_000, what: `the webview to take the theme "${theme.id}"` },
        ).catch((e: Error) => {
          throw new Error(`${e.message}; the webview says ${seen}`);
        });
        if (process.env.UPDATE_THEME_VARS === '1') {
          const vars = await frame.evaluate(() => {
            const st = (globalThis as unknown as PWindow).document.documentElement.style;
            const out: string[] = [];
            for (let i = 0; i < st.length; i++)
              if (st[i].startsWith('--vscode-')) out.push(`  ${st[i]}: ${st.getPropertyValue(st[i]).trim()};`);
            return out.sort();
          });
          assert.ok(vars.length > 100, `only ${vars.length} theme variables`);
          writeFileSync(
            join(repoRoot, 'test', 'webview', 'themes', `${theme.file}.css`),
            `/* "${theme.id}": the --vscode-* variables code-server 1.139 gives a webview (captured by test/e2e/accessibility.test.ts with UPDATE_THEME_VARS=1). */\nhtml {\n${vars.join('\n')}\n}\n`,
          );
        }
        const file = join(dir, `${theme.file}.png`);
        // The side bar down to the end of the Surfaces content (no empty tail: smaller PNGs).
        const side = await wb.page.locator('.part.sidebar').boundingBox();
        const web = await (await frame.frameElement()).boundingBox();
        const contentHeight = await frame.evaluate(() => (globalThis as unknown as PWindow).document.body.scrollHeight);
        assert.ok(side && web, 'the side bar and the Surfaces webview are on screen');
        const bottom = Math.min(side.y + side.height, web.y + contentHeight + 8);
        await wb.page.screenshot({
          path: file,
          clip: { x: side.x, y: side.y, width: side.width, height: bottom - side.y },
        });
        if (process.env.UPDATE_SCREENSHOTS === '1' && theme.doc)
          copyFileSync(file, join(repoRoot, 'docs', 'images', `${theme.doc}.png`));
      }
    } finally {
      if ((await extensionsHeader.getAttribute('aria-expanded')) === 'false') await extensionsHeader.click();
      if (original) await wb.page.setViewportSize(original);
    }
  });

  it('works from the keyboard alone: presses a card button, fills and submits a form, cancels the prompt with Escape', async () => {
    const wb = session().workbench;
    const frame = await surfacesFrame(wb);
    // Proof that nothing below clicks: count every pointer event the webview receives.
    await frame.evaluate(() => {
      const w = globalThis as unknown as PWindow;
      w.__pointerEvents = 0;
      for (const t of ['pointerdown', 'mousedown', 'mouseup'])
        w.document.addEventListener(t, () => (w.__pointerEvents = (w.__pointerEvents ?? 0) + 1), true);
    });
    await wb.runCommandByKeyboard('Reasonix: Focus on Surfaces View');

    const gallery = card(frame, 'Gallery card');
    await tabTo(wb, frame, (f) => f.action === 'press', 'the "Press me" button');
    await wb.page.keyboard.press('Enter');
    await waitForText(gallery.locator('.result'), 'Pressed 1 time');
    await waitFor(async () => (await focused(frame)).action === 'press' || undefined, {
      timeoutMs: 10_000,
      what: 'focus to stay on "Press me" after the card was re-published',
    });

    await tabTo(wb, frame, (f) => f.field === 'name' && !f.prompt, 'the Name field of the gallery form');
    await wb.page.keyboard.type('Ada');
    await tabTo(wb, frame, (f) => f.field === 'urgent' && !f.prompt, 'the Urgent checkbox');
    await wb.page.keyboard.press('Space');
    await tabTo(
      wb,
      frame,
      (f) => !f.prompt && !!f.form && /Submit/.test(f.text),
      'the Submit button of the gallery form',
    );
    await wb.page.keyboard.press('Space');
    const formEl = frame.locator('section.surface.form:not(.prompt)').filter({ hasText: 'Gallery form' });
    await waitForText(formEl.locator('.result'), 'Submitted');
    const submitted = await waitForText(gallery, /Last submit\s*\{/);
    assert.match(submitted, /"name":"Ada"/);
    assert.match(submitted, /"urgent":true/);

    // The prompt sits on top of the view: Shift+Tab back up into it, then Escape.
    for (let i = 0; i < 60 && !(await focused(frame)).prompt; i++) await wb.page.keyboard.press('Shift+Tab');
    assert.equal((await focused(frame)).prompt, true, 'Shift+Tab reaches the prompt');
    await wb.page.keyboard.press('Escape');
    await waitFor(async () => (await frame.locator('[data-prompt-id]').count()) === 0 || undefined, {
      timeoutMs: 30_000,
      what: 'the prompt to close',
    });
    await waitFor(async () => /Last answer\s*cancelled/.test(await gallery.innerText()) || undefined, {
      timeoutMs: 30_000,
      what: 'the gallery card to report the cancelled prompt',
    });

    assert.equal(
      await frame.evaluate(() => (globalThis as unknown as PWindow).__pointerEvents),
      0,
      'no pointer event reached the webview',
    );
  });
});
