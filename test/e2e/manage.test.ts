// Install Reasonix Extension… as a user does it: the Extensions view's title-bar button, a source
// typed in, the plan in a modal (screenshot: test-results/manage/plan-dialog.png), Install, and the
// new extension's row running in the Extensions view without a reload; its context menu offers
// Disable in Reasonix beside the per-folder switch, and after it Enable in Reasonix. The real Reasonix 1.38.11
// (the pinned devDependency) is named by the user setting reasonix.path; code-server's sandbox
// gives it a scratch HOME and the session a scratch REASONIX_HOME.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { resultsDir } from './support/paths';
import { reasonixSessionOptions } from './support/reasonix';
import { useUiSession } from './support/session';
import { textOf } from './support/surfaces';
import { waitFor } from '../support/wait';
import { FIXTURES, realReasonixBinary } from '../support/reasonix';

describe('Install Reasonix Extension… (UI, the real Reasonix)', function () {
  this.timeout(180_000);
  const session = useUiSession(() => ({
    ...reasonixSessionOptions(),
    machineSettings: { 'reasonix.path': realReasonixBinary() },
  }));
  const shots = join(resultsDir, 'manage');

  it('shows the plan in a modal with every risk reason; Install adds a running row', async () => {
    const s = session();
    const wb = s.workbench;
    mkdirSync(shots, { recursive: true });
    const source = join(s.sandbox, 'greeter');
    cpSync(join(FIXTURES, 'greeter'), source, { recursive: true });

    await wb.openViewContainer('Reasonix');
    const view = wb.view('Extensions');
    await waitFor(async () => (await wb.viewRows(view)).filter((r) => /running/.test(r)).length >= 2, {
      timeoutMs: 60_000,
      what: 'the samples running',
    });
    // The title-bar button of the Extensions view.
    await view.hover();
    await wb.page.locator('.part.sidebar .action-label[aria-label="Install Reasonix Extension…"]').first().click();
    await wb.pickQuickItem('Git URL or marketplace entry…');
    await wb.fillInputBox(source, { submit: true });

    const dialog = await wb.modalDialog();
    const text = await textOf(dialog);
    for (const want of [
      'Install "greeter" 1.0.0 with Reasonix?',
      'Risk: high',
      'installs a plugin package that can add skills, commands, hooks, and MCP servers',
      'FULL TRUST: declares a runtime process',
      'Runtime command: ${REASONIX_PLUGIN_ROOT}/bin/greeter',
      'Hook points: tool.before',
      'Capabilities: ui, interceptors',
      'Compatibility: full',
      'Planned by Reasonix 1.38.11',
      'Reasonix plan hmac-v1:',
    ])
      assert.ok(text.includes(want), `the dialog says "${want}": ${text}`);
    await wb.page.mouse.move(5, 5); // no hover over the buttons
    await wb.page.screenshot({ path: join(shots, 'plan-dialog.png') });
    await dialog.screenshot({ path: join(shots, 'plan-dialog-box.png') });

    await wb.clickDialogButton('Install');
    const row = await waitFor(
      async () => (await wb.viewRows(view)).find((r) => /greeter/.test(r) && /running/.test(r)),
      {
        timeoutMs: 60_000,
        what: 'a running greeter row',
      },
    );
    assert.match(row, /greeter/);
    await wb.waitForNotification('Installed "greeter" with Reasonix');
    await wb.page.locator('.part.sidebar').screenshot({ path: join(shots, 'installed.png') });

    // The row's context menu: the Reasonix-wide switch beside the per-folder one, each saying which.
    const menuOf = async (): Promise<string[]> => {
      await view.locator('.monaco-list-row', { hasText: 'greeter' }).first().click({ button: 'right' });
      const menu = wb.page.locator('.monaco-menu .action-label');
      await menu.first().waitFor({ state: 'visible', timeout: 10_000 });
      return (await menu.allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    };
    const entries = await menuOf();
    for (const e of [
      'Disable in Reasonix (All Folders and Sessions)',
      'Enable/Disable Extension for This Folder…',
      'Show Details (Reasonix)',
      'Remove from Reasonix…',
    ])
      assert.ok(entries.includes(e), `"${e}" in the context menu: ${entries.join(', ')}`);
    for (const e of ['Enable in Reasonix (All Folders and Sessions)', 'Migrate to v2 (Reasonix)'])
      assert.ok(!entries.includes(e), `no "${e}" for a running v2 package: ${entries.join(', ')}`);
    await wb.page.screenshot({ path: join(shots, 'context-menu.png') });
    await wb.page.locator('.monaco-menu .action-label', { hasText: 'Disable in Reasonix' }).first().click();
    await waitFor(
      async () => (await wb.viewRows(view)).find((r) => /greeter/.test(r) && /disabled · in Reasonix/.test(r)),
      {
        timeoutMs: 30_000,
        what: 'greeter disabled in Reasonix',
      },
    );
    const off = await menuOf();
    assert.ok(off.includes('Enable in Reasonix (All Folders and Sessions)'), off.join(', '));
    assert.ok(!off.includes('Disable in Reasonix (All Folders and Sessions)'), off.join(', '));
    await wb.page.keyboard.press('Escape');
  });
});
