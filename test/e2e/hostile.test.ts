// Hostile content in the real webview: test/fixtures/hostile publishes a card and a status full
// of <script>, <img onerror>, javascript: and command: links, right-to-left and emoji text. It must
// arrive as inert text — nothing runs, no element carries a handler, no link navigates — and the
// rest of the view (the samples' cards) keeps working.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { repoRoot } from './support/paths';
import { SAMPLE_PLUGINS, reasonixSessionOptions } from './support/reasonix';
import { useSharedUiSession } from './support/session';
import { card, openSurfaces, textOf, waitForText } from './support/surfaces';
import { waitFor } from '../support/wait';

const HOSTILE = join(repoRoot, 'test', 'fixtures', 'hostile');

interface Probe {
  /** What the fixture's payloads set if any of them executed. */
  ran: string | null;
  scriptsInSurfaces: number;
  imgs: number;
  withHandlers: string[];
  dangerousLinks: string[];
}

// Runs inside the webview (a string: the tests compile without DOM types).
const PROBE = `(() => {
  const root = document.body;
  const links = [...root.querySelectorAll('a')].map((a) => a.getAttribute('href') || '');
  return {
    ran: window.__hostile ?? null,
    scriptsInSurfaces: root.querySelectorAll('.surface script').length,
    imgs: root.querySelectorAll('.surface img').length,
    withHandlers: [...root.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => /^on/i.test(a.name))).map((el) => el.tagName),
    dangerousLinks: links.filter((h) => /^\\s*(javascript|command|vbscript|data):/i.test(h)),
  };
})()`;

describe('Reasonix in the workbench: hostile surface content is rendered inert', function () {
  this.timeout(180_000);
  const session = useSharedUiSession(() => reasonixSessionOptions({ plugins: [...SAMPLE_PLUGINS, HOSTILE] }));

  it('shows the markup of the hostile card as text, with no script, handler or live link', async () => {
    const wb = session().workbench;
    const frame = await openSurfaces(wb);
    const hostile = frame.locator('article.surface.card').filter({ hasText: 'Hostile' });
    await hostile.first().waitFor({ state: 'visible', timeout: 60_000 });
    const text = await textOf(hostile.first());
    // The markup is visible as characters, not interpreted.
    assert.match(text, /Hostile <script>window\.__hostile = "script ran"<\/script> card/);
    assert.match(text, /<img src=x onerror=/);
    assert.match(text, /שלום עולם — مرحبا بالعالم/);
    assert.match(text, /🚀 ünïcødé 👩‍💻 🇺🇦/);

    const found = (await frame.evaluate(PROBE)) as Probe;
    assert.equal(found.ran, null, 'no hostile code ran in the webview');
    assert.equal(found.scriptsInSurfaces, 0, 'no <script> element inside a surface');
    assert.equal(found.imgs, 0, 'no <img> element inside a surface');
    assert.deepEqual(found.withHandlers, [], 'no element carries an inline event handler');
    assert.deepEqual(found.dangerousLinks, [], 'no javascript:/command: link');
  });

  it('clicking the hostile links does nothing: the workbench and its webview stay as they were', async () => {
    const wb = session().workbench;
    const frame = await openSurfaces(wb);
    const hostile = frame.locator('article.surface.card').filter({ hasText: 'Hostile' }).first();
    for (const label of ['javascript link', 'command link', 'html command link']) {
      const el = hostile.getByText(label, { exact: true }).first();
      if ((await el.count()) > 0) await el.click({ timeout: 5_000 });
    }
    // Still the same page, the same view, and the samples' content next to the hostile card.
    const again = await openSurfaces(wb);
    assert.equal(((await again.evaluate(PROBE)) as Probe).ran, null);
    // The showcase's group is below the hostile one (and longer since it publishes a panel and a view).
    const showcase = card(again, 'Showcase').first();
    await showcase.waitFor({ state: 'attached', timeout: 30_000 });
    await showcase.scrollIntoViewIfNeeded();
    await showcase.waitFor({ state: 'visible', timeout: 10_000 });
    await waitForText(again.locator('.surface.status').filter({ hasText: 'ünïcødé' }), /שלום עולם/);
    assert.ok(await wb.page.locator('.monaco-workbench').isVisible(), 'the workbench is still open');
  });

  it('its notification shows the link syntax as text: no link in the notification, nothing to click', async () => {
    const wb = session().workbench;
    const item = await wb.waitForNotification('Hostile notice', 60_000);
    const message = item.locator('.notification-list-item-message');
    assert.match(
      (await message.textContent())?.replaceAll('\u200b', '') ?? '',
      /Hostile notice \[Run the command\]\(command:workbench\.action\.closeWindow\).*\[a web link\]\(https:\/\/example\.com\/x\)/,
    );
    assert.equal(await message.locator('a, .monaco-link').count(), 0, 'VS Code made no link of the extension text');
    await wb.clearNotifications();
  });

  it('lists the hostile plugin running in the Extensions view, its status shown as plain text', async () => {
    const wb = session().workbench;
    await wb.openViewContainer('Reasonix');
    const view = wb.view('Extensions');
    let rows: string[] = [];
    await waitFor(async () => (rows = await wb.viewRows(view)).some((r) => r.includes('🚀 ünïcødé')) || undefined, {
      timeoutMs: 30_000,
      what: 'the hostile status row',
    }).catch(() => undefined);
    const at = rows.findIndex((r) => /^hostile.*running/.test(r));
    assert.ok(at >= 0, rows.join(' | '));
    assert.match(
      rows[at + 1] ?? '',
      /^🚀 ünïcødé 👩‍💻 🇺🇦 שלום עולם — مرحبا بالعالم.*<img src=x onerror=/,
      rows.join(' | '),
    );
    assert.equal(
      await view
        .locator('.monaco-list-row')
        .nth(at + 1)
        .locator('.codicon-warning')
        .count(),
      1,
      'the warn severity icon',
    );
    assert.equal(await view.locator('img').count(), 0);
  });
});
