// The Surfaces view at scale (issue 43): 2,000 surfaces (20 folders × 5 extensions × 20) in a
// side-bar sized page. What is drawn is only what is open and near the viewport (the rest a moment
// later, in idle time); collapsed groups draw nothing; keyboard order, accessible names and the
// live region are as with a small list.
import * as assert from 'node:assert/strict';
import type { Surface } from '../../src/protocol';
import type { HostToView } from '../../src/webviewProtocol/messages';
import { manySurfaces, notification, republish, status } from '../unit/webview/fixtures';
import { RetryableError, waitFor } from '../support/wait';
import { useHarness, type Harness } from './harness';

// The page's DOM, typed just enough for the callbacks below (they run in the browser).
interface PElement {
  className: string;
  textContent: string | null;
  closest(selector: string): PElement | null;
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): ArrayLike<PElement>;
}
declare const document: {
  querySelector(selector: string): PElement | null;
  querySelectorAll(selector: string): ArrayLike<PElement>;
  activeElement: PElement | null;
};

const ALL = manySurfaces(20, 5, 20);
const snapshot = (surfaces: Surface[]): HostToView => ({
  type: 'snapshot',
  surfaces,
  emptyState: null,
  prompts: [],
  drafts: {},
});
const folderSel = (i: number) => `section.folder[aria-label='Folder folder-${String(i).padStart(2, '0')}']`;
const pluginSel = (f: number, e: number) => `${folderSel(f)} .plugin[data-plugin='ext-${e}']`;

describe('Surfaces webview at scale (Chromium, 2,000 surfaces)', function () {
  this.timeout(120_000);
  const harness = useHarness();
  let h: Harness;
  beforeEach(async () => {
    h = harness();
    await h.page.setViewportSize({ width: 320, height: 900 });
  });

  const drawn = (sel = '') => h.page.evaluate((s) => document.querySelectorAll(`${s} .surface`).length, sel);
  /** Waits until the idle-time drawing is done: `expected` surfaces drawn in all. */
  const settled = (expected: number) =>
    waitFor(
      async () => {
        const n = await drawn();
        if (n !== expected) throw new RetryableError(`${n} of ${expected} drawn`);
        return true;
      },
      { timeoutMs: 60_000, what: 'the view to draw the rest in idle time', intervalMs: 100 },
    );
  /** The one live region says `re` (it speaks 100 ms after a burst). */
  const said = (re: RegExp) =>
    waitFor(
      async () => {
        const t = (await h.page.locator('[data-announcer]').textContent()) ?? '';
        if (!re.test(t)) throw new RetryableError(`the live region says "${t}"`);
        return true;
      },
      { timeoutMs: 5_000, what: 'the live region to announce the delta', intervalMs: 20 },
    );
  const active = () =>
    h.page.evaluate(() => {
      const a = document.activeElement;
      const plugin = a?.closest('.plugin');
      return {
        cls: a?.className ?? '',
        name: a?.textContent ?? '',
        folder: a?.closest('.folder')?.getAttribute('aria-label') ?? '',
        plugin: plugin?.getAttribute('data-plugin') ?? '',
        inBody: !!a?.closest('.plugin-body'),
      };
    });

  it('draws every header with its count but only the surfaces near the viewport, then the rest in idle time', async () => {
    // Counted by a listener after the view's own, in the same task as the snapshot (before idle time).
    await h.page.evaluate(() => {
      const w = globalThis as unknown as {
        __first?: number;
        addEventListener(t: string, f: () => void, o: object): void;
      };
      w.addEventListener('message', () => (w.__first = document.querySelectorAll('.surface').length), { once: true });
    });
    await h.send(snapshot(ALL));
    assert.equal(await h.page.locator('.folder-toggle').count(), 20);
    assert.equal(await h.page.locator('.plugin-header').count(), 100);
    const first = await h.page.evaluate(() => (globalThis as unknown as { __first: number }).__first);
    assert.ok(first > 0 && first <= 100, `${first} surfaces drawn at first (of 2,000)`);
    // A button named by its text (Chromium puts a space before the screen-reader-only comma).
    assert.equal(await h.page.getByRole('button', { name: /^folder-07 ?, 100 items$/ }).count(), 1);
    assert.equal(await h.page.locator(`${folderSel(7)} .folder-toggle`).textContent(), 'folder-07, 100 items');
    assert.equal(await h.page.locator(`${pluginSel(7, 3)} .plugin-header`).textContent(), 'ext-3, 20 items');
    await settled(2000);
    assert.equal(await drawn(pluginSel(19, 4)), 20);
  });

  it('draws nothing of a collapsed folder or plugin group, even in idle time, and remembers it across a reload', async () => {
    await h.send(snapshot(ALL));
    await h.page.locator(`${folderSel(1)} .folder-toggle`).click();
    await h.page.locator(`${pluginSel(0, 2)} .plugin-header`).click();
    await h.reload();
    await h.page.setViewportSize({ width: 320, height: 900 });
    await h.send(snapshot(ALL));
    await settled(2000 - 100 - 20);
    assert.equal(await drawn(folderSel(1)), 0);
    assert.equal(await drawn(pluginSel(0, 2)), 0);
    assert.equal(await h.page.locator(`${folderSel(1)} .folder-toggle`).getAttribute('aria-expanded'), 'false');
    assert.equal(await h.page.locator(`${folderSel(1)} .folder-body`).isHidden(), true);
    assert.equal(await h.page.locator(`${folderSel(1)} .folder-toggle`).textContent(), 'folder-01, 100 items');
    assert.equal(await h.page.locator(`${pluginSel(0, 2)} .plugin-header`).getAttribute('aria-expanded'), 'false');

    // A delta to a collapsed group changes its count, draws nothing, and is still announced.
    const added = notification(
      { title: 'Deployed' },
      { sessionKey: 'ws-1', folderName: 'folder-01', pluginId: 'ext-0' },
    );
    await h.send({ type: 'upsert', surface: added });
    assert.equal(await drawn(folderSel(1)), 0);
    assert.equal(await h.page.locator(`${folderSel(1)} .folder-toggle`).textContent(), 'folder-01, 101 items');
    assert.equal(await h.page.locator(`${pluginSel(1, 0)} .plugin-header`).textContent(), 'ext-0, 21 items');
    await said(/ext-0: Deployed/);

    // Opening the folder draws what is near and tells the extension the folder is in use.
    await h.clearPosted();
    await h.page.locator(`${folderSel(1)} .folder-toggle`).click();
    await h.waitForPosted((m) => m.type === 'folderOpened');
    assert.deepEqual(
      (await h.posted()).filter((m) => m.type === 'folderOpened'),
      [{ type: 'folderOpened', sessionKey: 'ws-1' }],
    );
    await settled(2000 - 20 + 1);
    assert.equal(
      await h.page.locator('.surface.notification', { hasText: 'Deployed' }).count(),
      1,
      'the delta is drawn once the group opens',
    );
    assert.equal(await drawn(pluginSel(0, 2)), 0, 'the collapsed plugin group still draws nothing');
    await h.page.locator(`${pluginSel(0, 2)} .plugin-header`).click();
    assert.equal(await drawn(pluginSel(0, 2)), 20, 'expanding a plugin group draws it at once');
  });

  it('keeps the keyboard order across undrawn groups: End, Tab into the last group, Shift+Tab into the one before', async () => {
    await h.send(snapshot(ALL));
    await h.page.keyboard.press('Tab');
    assert.deepEqual(await active(), {
      cls: 'folder-toggle',
      name: 'folder-00, 100 items',
      folder: 'Folder folder-00',
      plugin: '',
      inBody: false,
    });
    await h.page.keyboard.press('End');
    assert.deepEqual(await active(), {
      cls: 'plugin-header',
      name: 'ext-4, 20 items',
      folder: 'Folder folder-19',
      plugin: 'ext-4',
      inBody: false,
    });
    await h.page.keyboard.press('Tab');
    const into = await active();
    assert.equal(into.folder, 'Folder folder-19');
    assert.equal(into.plugin, 'ext-4');
    assert.equal(into.inBody, true, `Tab from the header goes into its first surface (${into.cls})`);
    await h.page.keyboard.press('Shift+Tab');
    assert.equal((await active()).cls, 'plugin-header');
    await h.page.keyboard.press('Shift+Tab');
    const back = await active();
    assert.deepEqual(
      [back.folder, back.plugin, back.inBody],
      ['Folder folder-19', 'ext-3', true],
      'Shift+Tab from a header goes to the last control of the group before it',
    );
  });

  it('collapses and opens a folder from the keyboard; arrow keys skip the headers of a collapsed folder', async () => {
    await h.send(snapshot(ALL));
    await h.page.keyboard.press('Tab');
    await h.page.keyboard.press('End');
    for (let i = 0; i < 11; i++) await h.page.keyboard.press('ArrowUp');
    assert.equal((await active()).name, 'folder-18, 100 items');
    await h.clearPosted();
    await h.page.keyboard.press('Enter');
    assert.equal(await h.page.locator(`${folderSel(18)} .folder-toggle`).getAttribute('aria-expanded'), 'false');
    assert.equal(await h.page.locator(`${folderSel(18)} .folder-body`).isHidden(), true);
    assert.deepEqual(await h.posted(), [], 'collapsing says nothing to the extension');
    await h.page.keyboard.press('ArrowDown');
    assert.equal((await active()).name, 'folder-19, 100 items', 'the collapsed folder’s plugin headers are skipped');
    await h.page.keyboard.press('ArrowUp');
    assert.equal((await active()).name, 'folder-18, 100 items');
    await h.page.keyboard.press('Space');
    assert.equal(await h.page.locator(`${folderSel(18)} .folder-toggle`).getAttribute('aria-expanded'), 'true');
    await h.waitForPosted((m) => m.type === 'folderOpened' && m.sessionKey === 'ws-18');
    await h.page.keyboard.press('ArrowDown');
    assert.equal((await active()).name, 'ext-0, 20 items');
    await h.page.keyboard.press('Tab');
    const into = await active();
    assert.deepEqual([into.folder, into.plugin, into.inBody], ['Folder folder-18', 'ext-0', true]);
  });

  it('patches only the surface a delta names, with 2,000 drawn, and announces it once', async () => {
    await h.send(snapshot(ALL));
    await settled(2000);
    const target = ALL.find((s) => s.kind === 'status' && s.sessionKey === 'ws-10' && s.pluginId === 'ext-2')!;
    await h.page.evaluate(() => {
      const w = globalThis as unknown as {
        __mutated: Set<unknown>;
        MutationObserver: new (cb: (rs: { target: unknown }[]) => void) => { observe(t: unknown, o: object): void };
        document: { body: unknown };
      };
      w.__mutated = new Set();
      new w.MutationObserver((rs) => rs.forEach((r) => w.__mutated.add(r.target))).observe(w.document.body, {
        childList: true,
        subtree: true,
        characterData: true,
        attributes: true,
      });
    });
    await h.send({
      type: 'upsert',
      surface: republish(target, { payload: { label: 'Indexed', severity: 'info' } } as Partial<Surface>),
    });
    const outside = await h.page.evaluate(() => {
      const w = globalThis as unknown as { __mutated: Set<PElement & { nodeType: number; parentElement: PElement }> };
      const out: string[] = [];
      for (const t of w.__mutated) {
        const el = t.nodeType === 1 ? t : t.parentElement;
        if (el.closest('.surface.status') || el.closest('[data-announcer]')) continue;
        out.push(el.className);
      }
      return out;
    });
    assert.deepEqual(outside, [], 'nothing outside the surface and the live region changed');
    assert.equal(await h.page.getByText('Indexed', { exact: true }).count(), 1);
    await said(/ext-2: Indexed/);
  });

  it('shows no folder header in a one-folder window, and a remembered folder collapse does not hide it', async () => {
    const one = manySurfaces(1, 2, 3);
    await h.send(
      snapshot([...one, status({ label: 'other' }, { sessionKey: 'ws-9', folderName: 'zz', pluginId: 'p' })]),
    );
    await h.page.locator(`${folderSel(0)} .folder-toggle`).click();
    assert.equal(await h.page.locator(`${folderSel(0)} .folder-body`).isHidden(), true);
    await h.send(snapshot(one));
    assert.equal(await h.page.locator('.folder-header').isHidden(), true);
    assert.equal(await h.page.locator('.folder-body').isVisible(), true);
    assert.equal(await drawn(), 6);
  });
});
