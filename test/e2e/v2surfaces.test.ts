// Protocol v2 panels and views in the real workbench (issue 23): a v2 fixture extension
// (test/fixtures/ui/dashboard.js) publishes a panel and a view; the test finds both in the
// Reasonix side bar, its panel title under the extension's row in the Extensions view, presses a
// panel button from the keyboard (the panel is republished in place and keeps focus), and takes
// screenshots of panel and view in Light Modern, Dark Modern and Dark High Contrast into
// test-results/v2-surfaces/ (UPDATE_SCREENSHOTS=1 also writes docs/images/v2-surfaces-*.png for
// the README gallery).
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { repoRoot, resultsDir } from './support/paths';
import { reasonixSessionOptions } from './support/reasonix';
import { useSharedUiSession } from './support/session';
import { waitForText } from './support/surfaces';
import { waitFor } from '../support/wait';
import type { Workbench } from './support/workbench';

const FIXTURE = join(repoRoot, 'test', 'fixtures', 'ui', 'dashboard');
const THEMES = [
  { label: 'Light Modern', kind: 'vscode-light', doc: 'light' },
  { label: 'Dark High Contrast', kind: 'vscode-high-contrast', doc: 'high-contrast' },
  { label: 'Dark Modern', kind: 'vscode-dark', doc: 'dark' },
] as const;

interface PElement {
  getAttribute(name: string): string | null;
  closest(selector: string): PElement | null;
}
type PWindow = {
  document: { activeElement: PElement | null; body: { scrollHeight: number; dataset: Record<string, string> } };
};

async function surfacesFrame(wb: Workbench): Promise<Frame> {
  await wb.openViewContainer('Reasonix');
  return wb.webviewFrame("section.surface.panel[data-key*='dashboard']", 60_000);
}

async function focusedAction(frame: Frame): Promise<string | undefined> {
  return frame.evaluate(() => {
    const a = (globalThis as unknown as PWindow).document.activeElement;
    return a?.closest('section.surface.panel') ? (a.getAttribute('data-action-id') ?? undefined) : undefined;
  });
}

describe('Reasonix Surfaces: a v2 extension’s panel and view (dashboard fixture)', function () {
  this.timeout(180_000);
  const session = useSharedUiSession(() => reasonixSessionOptions({ plugins: [FIXTURE] }));

  it('shows the panel and the view in the side bar, and the panel title under the extension row', async () => {
    const wb = session().workbench;
    const frame = await surfacesFrame(wb);
    const panel = frame.locator("section.surface.panel[data-key*='dashboard']");
    assert.equal(await panel.getAttribute('aria-label'), 'dashboard: Deploy');
    await waitForText(panel.locator('.progress-text'), '25%');
    const view = frame.locator("section.surface.view[data-key*='dashboard']");
    await view.locator('[role=meter]').waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await view.locator('[role=meter]').getAttribute('aria-valuenow'), '72');
    assert.equal(await view.getAttribute('aria-label'), 'dashboard: health');
    // The panel comes first in its extension's area.
    const kinds = await frame
      .locator(".plugin[data-plugin='dashboard'] .plugin-body > .surface")
      .evaluateAll((es) => es.map((e) => e.className));
    assert.match(kinds[0] ?? '', /\bpanel\b/, kinds.join(' | '));

    const rows = wb.view('Extensions').locator('.monaco-list-row');
    await waitFor(
      async () => {
        const all = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
        return all.some((l) => /^dashboard panel: Deploy/.test(l)) ? all : undefined;
      },
      { timeoutMs: 60_000, what: 'the Extensions view to list "dashboard panel: Deploy" under the dashboard row' },
    );
  });

  it('presses a panel button from the keyboard: the panel updates in place and the button keeps focus', async () => {
    const wb = session().workbench;
    const frame = await surfacesFrame(wb);
    await wb.runCommandByKeyboard('Reasonix: Focus on Surfaces View');
    const seen: (string | undefined)[] = [];
    for (let i = 0; i < 40 && (await focusedAction(frame)) !== 'advance'; i++) {
      await wb.page.keyboard.press('Tab');
      seen.push(await focusedAction(frame));
    }
    assert.equal(await focusedAction(frame), 'advance', `Tab reaches "Advance": ${seen.join(' → ')}`);
    const panel = frame.locator("section.surface.panel[data-key*='dashboard']");
    await wb.page.keyboard.press('Enter');
    await waitForText(panel.locator('.result'), 'Step 2 of 4');
    await waitForText(panel.locator('.progress-text'), '50%');
    assert.equal(await focusedAction(frame), 'advance', 'the pressed button still has focus');
    await wb.page.keyboard.press('Enter');
    await waitForText(panel.locator('.progress-text'), '75%');
    assert.equal(await focusedAction(frame), 'advance');
  });

  it('looks native in Light Modern, Dark High Contrast and Dark Modern (screenshots)', async () => {
    const wb = session().workbench;
    let frame = await surfacesFrame(wb);
    const dir = join(resultsDir, 'v2-surfaces');
    mkdirSync(dir, { recursive: true });
    // Room for the Extensions rows and the whole Surfaces content.
    const original = wb.page.viewportSize();
    await wb.page.setViewportSize({ width: 1280, height: 1400 });
    await wb.page.mouse.move(900, 700);
    try {
      for (const theme of THEMES) {
        await wb.runCommandByKeyboard('Preferences: Color Theme');
        await wb.pickQuickItemByKeyboard(theme.label);
        frame = await surfacesFrame(wb);
        await waitFor(
          async () =>
            (await frame.evaluate(() => (globalThis as unknown as PWindow).document.body.dataset.vscodeThemeKind)) ===
              theme.kind || undefined,
          { timeoutMs: 30_000, what: `the webview to take the theme "${theme.label}"` },
        );
        const side = await wb.page.locator('.part.sidebar').boundingBox();
        const web = await (await frame.frameElement()).boundingBox();
        const contentHeight = await frame.evaluate(() => (globalThis as unknown as PWindow).document.body.scrollHeight);
        assert.ok(side && web, 'the side bar and the Surfaces webview are on screen');
        const bottom = Math.min(side.y + side.height, web.y + contentHeight + 8);
        const file = join(dir, `${theme.doc}.png`);
        await wb.page.screenshot({
          path: file,
          clip: { x: side.x, y: side.y, width: side.width, height: bottom - side.y },
        });
        if (process.env.UPDATE_SCREENSHOTS === '1')
          copyFileSync(file, join(repoRoot, 'docs', 'images', `v2-surfaces-${theme.doc}.png`));
      }
    } finally {
      if (original) await wb.page.setViewportSize(original);
    }
  });
});
