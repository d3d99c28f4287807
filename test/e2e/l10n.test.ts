// Issue 29 as a Chinese-speaking user sees it: the packaged .vsix in code-server with VS Code's
// display language zh-cn (see registerLocale in support/codeServer.ts). The Reasonix side bar's
// view titles, the Extensions rows' states and the Surfaces webview's own labels are Chinese;
// what the sample extensions publish stays as they wrote it. Screenshot:
// test-results/l10n/sidebar-zh-cn.png.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { resultsDir } from './support/paths';
import { reasonixSessionOptions } from './support/reasonix';
import { useUiSession } from './support/session';
import { waitFor } from '../support/wait';

describe('UI in Simplified Chinese (display language zh-cn)', function () {
  this.timeout(180_000);
  const session = useUiSession(() => ({ ...reasonixSessionOptions(), locale: 'zh-cn' }));
  const shots = join(resultsDir, 'l10n');

  it('shows the side bar, its states and the webview labels in Chinese; extension text unchanged', async () => {
    const wb = session().workbench;
    mkdirSync(shots, { recursive: true });
    await wb.openViewContainer('Reasonix');
    const extensions = wb.view('扩展');
    const rows = await waitFor(
      async () => {
        const r = await wb.viewRows(extensions);
        return r.filter((x) => /运行中/.test(x)).length >= 2 ? r : undefined;
      },
      { timeoutMs: 60_000, what: 'two Extensions rows saying 运行中 (running)' },
    );
    assert.ok(
      rows.some((r) => r.includes('showcase')),
      `rows: ${rows.join(' | ')}`,
    );
    assert.equal(await wb.view('界面').count(), 1, 'the Surfaces view is titled 界面');

    const frame = await wb.webviewFrame('section.surface.form', 60_000);
    const buttons = (await frame.locator('section.surface.form vscode-button').allTextContents()).map((t) => t.trim());
    assert.ok(buttons.includes('提交'), `form buttons: ${buttons.join(', ')}`);
    assert.ok(!buttons.includes('Submit'), `form buttons: ${buttons.join(', ')}`);
    assert.equal(await frame.locator('html').getAttribute('lang'), 'zh-cn');
    // What the sample extension published (card titles) is its own English, untouched.
    const titles = (await frame.locator('h3.surface-title').allTextContents()).map((t) => t.trim());
    assert.ok(titles.length > 0 && titles.every((t) => !/[\u4e00-\u9fff]/.test(t)), `titles: ${titles.join(', ')}`);

    await wb.page.locator('.part.sidebar').screenshot({ path: join(shots, 'sidebar-zh-cn.png') });
  });
});
