// The built webview in headless Chromium under the extension's real CSP.
import * as assert from 'node:assert/strict';
import { surfaceKey, type Surface } from '../../src/protocol';
import type { HostToView, ViewToHost } from '../../src/webviewProtocol/messages';
import { SurfaceStore, UiHub } from '../../src/host/ui';
import { publish } from '../unit/ui/fakes';
import { card, form, notification, republish, status } from '../unit/webview/fixtures';
import { surfacesHubOver } from './engine';
import { useHarness, type Harness } from './harness';

// The page's DOM, typed just enough for the callbacks below (the root tsconfig has no DOM lib;
// these callbacks run in the browser, not in Node).
interface PElement {
  className: string;
  classList: ArrayLike<string>;
  attributes: ArrayLike<{ name: string }>;
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PElement | null;
}
declare const document: {
  querySelector(selector: string): PElement | null;
  querySelectorAll(selector: string): ArrayLike<PElement>;
  activeElement: PElement | null;
};
declare function getComputedStyle(e: PElement): { outlineStyle: string; direction: string };

function snapshot(surfaces: Surface[], extra: Partial<Extract<HostToView, { type: 'snapshot' }>> = {}): HostToView {
  return { type: 'snapshot', surfaces, emptyState: null, prompts: [], drafts: {}, ...extra };
}
const sel = (s: Surface) => `[data-key='${surfaceKey(s).replace(/'/g, "\\'")}']`;

describe('Surfaces webview (Chromium)', function () {
  const harness = useHarness();
  let h: Harness;
  beforeEach(() => (h = harness()));

  it('says what to do for each empty state, and the trust button asks the extension', async () => {
    const cases: [HostToView & { type: 'snapshot' }, RegExp][] = [
      [snapshot([], { emptyState: 'no-extensions' }) as never, /No Reasonix extensions are installed/],
      [snapshot([], { emptyState: 'untrusted' }) as never, /not trusted/],
      [snapshot([], { emptyState: 'all-stopped' }) as never, /All Reasonix extensions are stopped/],
      [snapshot([], { emptyState: null }) as never, /Nothing published yet/],
    ];
    for (const [m, text] of cases) {
      await h.send(m);
      assert.match((await h.page.locator('.empty').textContent()) ?? '', text);
    }
    await h.send({ type: 'emptyState', emptyState: 'untrusted' });
    await h.page.locator('.empty vscode-button').click();
    await h.waitForPosted((m) => m.type === 'manageTrust');
    await h.send({ type: 'upsert', surface: status({ label: 'Indexing' }) });
    assert.equal(await h.page.locator('.empty').isHidden(), true);
  });

  it('groups by folder and plugin, newest first, with severity icons, progress and fields', async () => {
    const older = card({ title: 'Older card', text: 'plain' }, { pluginId: 'alpha' });
    const newer = card(
      {
        title: 'Newer card',
        fields: [
          { key: 'files', value: '12' },
          { key: 'obj', value: '{"a":1}' },
        ],
        progress: 1.7,
      },
      { pluginId: 'alpha' },
    );
    const st = status({ label: 'Indexing', detail: '3 of 9', severity: 'warn', progress: -2 }, { pluginId: 'alpha' });
    const other = status(
      { label: 'Ready', severity: 'error' },
      { pluginId: 'beta', sessionKey: 'ws-2', folderName: 'api' },
    );
    const note = notification({ title: 'Saved', body: 'all good' }, { pluginId: 'alpha' });
    await h.send(snapshot([older, newer, st, other, note]));
    const folders = await h.page.locator('.folder-header .folder-name').allTextContents();
    assert.deepEqual(folders, ['api', 'app']);
    const alpha = h.page.locator(".plugin[data-plugin='alpha'] .surface");
    const titles = await alpha.evaluateAll((els) =>
      els.map(
        (e) => e.className + '|' + (e.querySelector('.surface-title, .status-label, .note-title')?.textContent ?? ''),
      ),
    );
    assert.deepEqual(titles, [
      'surface status|Indexing',
      'surface card|Newer card',
      'surface card|Older card',
      'surface notification|Saved',
    ]);
    assert.equal(await h.page.locator(`${sel(st)} .codicon-warning`).count(), 1);
    assert.equal(await h.page.locator(`${sel(other)} .codicon-error`).count(), 1);
    assert.equal(await h.page.locator(`${sel(st)} .progress-text`).textContent(), '0%');
    assert.equal(await h.page.locator(`${sel(newer)} .progress-text`).textContent(), '100%');
    assert.deepEqual(await h.page.locator(`${sel(newer)} .kv dd`).allTextContents(), ['12', '{"a":1}']);
    assert.equal(await h.page.locator(`${sel(older)} .card-text`).textContent(), 'plain');
    assert.equal(await h.page.locator(`${sel(older)} vscode-progress-bar`).count(), 0, 'no progress key, no bar');
  });

  it('runs a card action and shows its result inline', async () => {
    const c = card({ title: 'Build', actions: [{ actionId: 'rebuild', label: 'Rebuild' }] });
    await h.send(snapshot([c]));
    await h.page.locator(`${sel(c)} vscode-button`).click();
    const m = (await h.waitForPosted((x) => x.type === 'runAction')) as Extract<ViewToHost, { type: 'runAction' }>;
    assert.equal(m.key, surfaceKey(c));
    assert.equal(m.actionId, 'rebuild');
    await h.send({
      type: 'actionResult',
      requestId: m.requestId,
      key: m.key,
      actionId: 'rebuild',
      accepted: true,
      message: 'Rebuilt 3 targets',
    });
    assert.equal(await h.page.locator(`${sel(c)} .result`).textContent(), 'Rebuilt 3 targets');
  });

  it('says "Running <label>…" while an action runs, with one ellipsis when the label ends in one', async () => {
    const c = card({ title: 'Colors', actions: [{ actionId: 'pick', label: 'Pick a color…' }] });
    await h.send(snapshot([c]));
    await h.page.locator(`${sel(c)} vscode-button`).click();
    const m = (await h.waitForPosted((x) => x.type === 'runAction')) as Extract<ViewToHost, { type: 'runAction' }>;
    assert.equal((await h.page.locator(`${sel(c)} .result`).textContent())?.trim(), 'Running Pick a color…');
    await h.send({ type: 'actionResult', requestId: m.requestId, key: m.key, actionId: 'pick', accepted: true });
  });

  it('keeps hostile payloads inert: no script, no handlers, only http(s)/mailto links, only https images', async () => {
    const evil = '<img src=x onerror="window.__pwned=1">';
    const markdown = [
      '<script>window.__pwned=2</script>',
      evil,
      '[js](javascript:window.__pwned=3) [cmd](command:workbench.action.quit) [data](data:text/html,hi) [rel](/relative)',
      '[ok](https://example.com/ok) [mail](mailto:a@example.com) <https://auto.example.com/x>',
      '![plain](http://example.com/a.png) ![secure](https://example.com/b.png) ![js](javascript:alert(1))',
      '<a href="javascript:alert(1)">raw</a> <iframe src="https://example.com"></iframe> <style>body{display:none}</style>',
    ].join('\n\n');
    const c = card({
      title: evil,
      markdown,
      text: '<script>window.__pwned=4</script>',
      fields: [{ key: '<b>k</b>', value: evil }],
      actions: [{ actionId: 'go', label: evil }],
    });
    const f = form({
      title: evil,
      message: evil,
      fields: [{ key: 'x', label: evil, kind: 'select', options: [evil] }],
    });
    const st = status({ label: evil, detail: '<script>x</script>' });
    await h.send(snapshot([c, f, st]));
    await h.page.waitForTimeout(50);
    const report = await h.page.evaluate(() => {
      const all = Array.from(document.querySelectorAll('*'));
      return {
        pwned: (globalThis as unknown as { __pwned?: number }).__pwned,
        scripts: document.querySelectorAll('script').length,
        handlers: all.filter((e) => Array.from(e.attributes).some((a) => a.name.startsWith('on'))).length,
        banned: document.querySelectorAll('iframe, style, object, embed, form, input:not([type])').length,
        hrefs: Array.from(document.querySelectorAll('a')).map((a) => a.getAttribute('href')),
        imgs: Array.from(document.querySelectorAll('img')).map((i) => i.getAttribute('src')),
      };
    });
    assert.equal(report.pwned, undefined);
    assert.equal(report.scripts, 1, 'only our own script tag');
    assert.equal(report.handlers, 0);
    assert.equal(report.banned, 0);
    assert.deepEqual(report.hrefs, ['https://example.com/ok', 'mailto:a@example.com', 'https://auto.example.com/x']);
    assert.deepEqual(report.imgs, ['https://example.com/b.png']);
    assert.ok(
      h.external.every((u) => u === 'https://example.com/b.png'),
      `unexpected fetches: ${h.external.join(', ')}`,
    );
    assert.equal(await h.page.locator(`${sel(c)} .surface-title`).textContent(), evil, 'title is shown as text');
    assert.match(
      (await h.page.locator(`${sel(c)} .markdown`).textContent()) ?? '',
      /<script>window.__pwned=2<\/script>/,
    );

    // Links go through the extension; the page itself never navigates.
    const url = h.page.url();
    await h.page.locator(`${sel(c)} a[href='https://example.com/ok']`).click();
    const open = await h.waitForPosted((m) => m.type === 'openLink');
    assert.deepEqual(open, { type: 'openLink', url: 'https://example.com/ok' });
    await h.page
      .locator(`${sel(c)} .markdown p`)
      .nth(2)
      .click({ position: { x: 2, y: 2 } });
    assert.equal(h.page.url(), url);
    assert.equal((await h.posted()).filter((m) => m.type === 'openLink').length, 1);
  });

  it('renders the four field kinds with defaults and required marks, checks required fields, and submits', async () => {
    const f = form({
      title: 'Deploy',
      message: 'Where to?',
      fields: [
        { key: 'name', label: 'Name', kind: 'input', required: true },
        { key: 'env', label: 'Environment', kind: 'select', options: ['dev', 'prod'], default: 'prod' },
        {
          key: 'regions',
          label: 'Regions',
          kind: 'multiselect',
          options: ['eu', 'us', 'ap'],
          default: ['eu', 'nowhere'],
        },
        { key: 'dry', label: 'Dry run', kind: 'confirm', default: true },
      ],
    });
    await h.send(snapshot([f]));
    const root = h.page.locator(sel(f));
    assert.equal(await root.locator('vscode-label[required]').count(), 1);
    await root.locator('vscode-button', { hasText: 'Submit' }).click();
    assert.match((await root.locator('.result').textContent()) ?? '', /required field: Name/);
    assert.equal(
      (await h.posted()).filter((m) => m.type === 'submit').length,
      0,
      'nothing sent while a required field is empty',
    );
    assert.equal(
      await h.page.evaluate(() => document.activeElement?.getAttribute('data-field-key')),
      'name',
      'focus moved to the missing field',
    );

    await root.locator("vscode-textfield[data-field-key='name'] input").fill('web ✓');
    await root.locator('vscode-button', { hasText: 'Submit' }).click();
    const m = (await h.waitForPosted((x) => x.type === 'submit')) as Extract<ViewToHost, { type: 'submit' }>;
    assert.deepEqual(m.values, { name: 'web ✓', env: 'prod', regions: ['eu'], dry: true });
    await h.send({
      type: 'submitResult',
      requestId: m.requestId,
      key: m.key,
      accepted: false,
      message: 'quota exceeded',
    });
    assert.equal(await root.locator('.result').textContent(), 'Rejected: quota exceeded');
    await root.locator('vscode-button', { hasText: 'Submit' }).click();
    const again = (await h.waitForPosted((x) => x.type === 'submit' && x.requestId !== m.requestId)) as Extract<
      ViewToHost,
      { type: 'submit' }
    >;
    await h.send({ type: 'submitResult', requestId: again.requestId, key: again.key, accepted: true });
    assert.equal(await root.locator('.result').textContent(), 'Submitted');
  });

  it('keeps typed values across a reload, a same-shape re-publish (in place, focus kept) and a reshaped one', async () => {
    const f = form(
      {
        title: 'Notes',
        fields: [
          { key: 'a', label: 'A', kind: 'input' },
          { key: 'b', label: 'B', kind: 'input' },
        ],
      },
      { surfaceId: 'notes' },
    );
    await h.send(snapshot([f]));
    await h.page.locator("vscode-textfield[data-field-key='a'] input").fill('typed before reload');
    await h.reload();
    await h.send(snapshot([f]));
    assert.equal(
      await h.page.locator("vscode-textfield[data-field-key='a'] input").inputValue(),
      'typed before reload',
    );

    await h.page.locator("vscode-textfield[data-field-key='b'] input").fill('in b');
    await h.page.evaluate(
      () =>
        ((document.querySelector("vscode-textfield[data-field-key='b']") as unknown as { __mark: number }).__mark = 7),
    );
    await h.page.locator("vscode-textfield[data-field-key='b'] input").focus();
    await h.send({
      type: 'upsert',
      surface: republish(f, {
        payload: { title: 'Notes (updated)', fields: f.kind === 'form' ? f.payload.fields : [] },
      } as Partial<Surface>),
    });
    assert.equal(await h.page.locator(`${sel(f)} .surface-title`).textContent(), 'Notes (updated)');
    assert.equal(
      await h.page.evaluate(
        () => (document.querySelector("vscode-textfield[data-field-key='b']") as unknown as { __mark?: number }).__mark,
      ),
      7,
      'same node',
    );
    assert.equal(
      await h.page.evaluate(() => document.activeElement?.getAttribute('data-field-key')),
      'b',
      'focus kept',
    );

    await h.send({
      type: 'upsert',
      surface: republish(f, {
        payload: {
          title: 'Notes',
          fields: [
            { key: 'b', label: 'B', kind: 'input' },
            { key: 'c', label: 'C', kind: 'input', default: 'dc' },
          ],
        },
      } as Partial<Surface>),
    });
    assert.equal(await h.page.locator("vscode-textfield[data-field-key='b'] input").inputValue(), 'in b');
    assert.equal(await h.page.locator("vscode-textfield[data-field-key='c'] input").inputValue(), 'dc');
    const persisted = await h.waitForPosted((m) => m.type === 'persist' && JSON.stringify(m.drafts).includes('in b'));
    assert.equal(persisted.type, 'persist');
  });

  it('takes drafts from the extension when this view has none (typed in the other view)', async () => {
    const f = form({ fields: [{ key: 'q', kind: 'input' }] });
    await h.send(snapshot([f], { drafts: { [surfaceKey(f)]: { q: 'from the panel' } } }));
    assert.equal(await h.page.locator("vscode-textfield[data-field-key='q'] input").inputValue(), 'from the panel');
  });

  it('shows a multi-field prompt, answers it, cancels with Escape, and closes it on request', async () => {
    const request = {
      sessionKey: 'ws-1',
      folderName: 'app',
      pluginId: 'demo',
      generation: 1,
      surfaceId: 'ask',
      kind: 'input' as const,
      payload: {
        title: 'Login',
        fields: [
          { key: 'user', kind: 'input' as const, required: true },
          { key: 'remember', kind: 'confirm' as const },
        ],
      },
    };
    await h.send(
      snapshot([]),
      { type: 'prompt', prompt: { promptId: 'p1', request } },
      { type: 'prompt', prompt: { promptId: 'p2', request } },
    );
    const p1 = h.page.locator("[data-prompt-id='p1']");
    await p1.locator("vscode-textfield[data-field-key='user'] input").fill('ana');
    await p1.locator('vscode-button', { hasText: 'Submit' }).click();
    assert.deepEqual(await h.waitForPosted((m) => m.type === 'answerPrompt'), {
      type: 'answerPrompt',
      promptId: 'p1',
      answer: { cancelled: false, values: { user: 'ana', remember: false } },
    });
    await h.page.locator("[data-prompt-id='p2'] vscode-textfield input").focus();
    await h.page.keyboard.press('Escape');
    assert.deepEqual(await h.waitForPosted((m) => m.type === 'answerPrompt' && m.promptId === 'p2'), {
      type: 'answerPrompt',
      promptId: 'p2',
      answer: { cancelled: true },
    });
    await h.send({ type: 'promptClosed', promptId: 'p1' }, { type: 'promptClosed', promptId: 'p2' });
    assert.equal(await h.page.locator('[data-prompt-id]').count(), 0);
  });

  // Driven through the engine: which generation shows is the UI hub's decision, and the view draws
  // the store's deltas as they come.
  it('patches in place, removes, marks stale, ignores stale generations and clears them on the next one', async () => {
    const store = new SurfaceStore();
    const hub = new UiHub({ sessionKey: 'ws-1', folderName: 'app', store });
    const posted: HostToView[] = [];
    await surfacesHubOver(store)
      .connect({ post: (m) => posted.push(m) })
      .receive({ type: 'ready' });
    const show = (generation: number, kind: 'status' | 'card', surfaceId: string, payload: object) => {
      const r = publish(hub, 'demo', { sessionId: `boot-${generation}`, generation, kind, surfaceId, payload });
      return h.send(...posted.splice(0)).then(() => r);
    };
    hub.bind('demo', 'boot-1', 1);
    await show(1, 'status', 'st', { label: 'one' });
    await show(1, 'card', 'c', { title: 'card' });
    await h.page.evaluate(
      () => ((document.querySelector('.surface.status') as unknown as { __mark: number }).__mark = 1),
    );
    await show(1, 'status', 'st', { label: 'two' });
    assert.equal(await h.page.locator('.status-label').textContent(), 'two');
    assert.equal(
      await h.page.evaluate(() => (document.querySelector('.surface.status') as unknown as { __mark?: number }).__mark),
      1,
    );
    // The status stays above the card (first-appearance order), no jump.
    assert.deepEqual(await h.page.locator('.surface').evaluateAll((e) => e.map((x) => x.classList[1])), [
      'status',
      'card',
    ]);

    hub.markStopped('demo');
    await h.send(...posted.splice(0));
    assert.equal(await h.page.locator('.surface.card.stale .stale-badge').count(), 1);
    assert.equal(await h.page.locator('.plugin.stale .count').textContent(), 'stopped');

    hub.bind('demo', 'boot-2', 2);
    await show(2, 'status', 'st', { label: 'gen 2' });
    assert.deepEqual(await h.page.locator('.surface .status-label').allTextContents(), ['gen 2']);
    assert.deepEqual(await show(1, 'card', 'late', { title: 'late old' }), { accepted: false });
    assert.equal(await h.page.getByText('late old').count(), 0, 'older generation never appears');
    store.removeSession('ws-1');
    await h.send(...posted.splice(0));
    assert.equal(await h.page.locator('.surface').count(), 0);
    assert.equal(await h.page.locator('.empty').isVisible(), true);
  });

  it('is keyboard navigable with visible focus and labelled for screen readers', async () => {
    await h.send(
      snapshot([
        card({ title: 'A card', actions: [{ actionId: 'go', label: 'Go' }] }, { pluginId: 'alpha' }),
        status({ label: 'B' }, { pluginId: 'beta' }),
      ]),
    );
    await h.page.keyboard.press('Tab');
    // The header's accessible name is its text: visible name and count plus screen-reader-only words.
    const active = () =>
      h.page.evaluate(() => ({
        cls: document.activeElement?.className ?? '',
        label: document.activeElement?.textContent ?? '',
      }));
    assert.deepEqual(await active(), { cls: 'plugin-header', label: 'alpha, 1 item' });
    const outline = await h.page.evaluate(() => getComputedStyle(document.activeElement as PElement).outlineStyle);
    assert.notEqual(outline, 'none');
    await h.page.keyboard.press('ArrowDown');
    assert.equal((await active()).label, 'beta, 1 item');
    await h.page.keyboard.press('ArrowUp');
    await h.page.keyboard.press('Enter');
    assert.equal(
      await h.page.locator(".plugin[data-plugin='alpha'] .plugin-header").getAttribute('aria-expanded'),
      'false',
    );
    assert.equal(await h.page.locator(".plugin[data-plugin='alpha'] .plugin-body").isHidden(), true);
    await h.reload();
    await h.send(snapshot([card({ title: 'A card' }, { pluginId: 'alpha' })]));
    assert.equal(
      await h.page.locator(".plugin[data-plugin='alpha'] .plugin-header").getAttribute('aria-expanded'),
      'false',
      'collapse survives reload',
    );
    await h.page.keyboard.press('Tab');
    await h.page.keyboard.press('Space');
    assert.equal(await h.page.locator(".plugin[data-plugin='alpha'] .plugin-body").isVisible(), true);
    assert.equal(await h.page.locator('.severity .sr-only').count(), 0);
    await h.send({ type: 'upsert', surface: status({ label: 'S', severity: 'error' }) });
    assert.equal(await h.page.locator('.severity .sr-only').first().textContent(), 'Error: ');
  });

  it('renders RTL and emoji text in its own direction', async () => {
    const c = card({
      title: 'مرحبا بالعالم 👋🏽',
      markdown: 'שלום **עולם** 🎉\n\n- 🇺🇳 item',
      fields: [{ key: 'اسم', value: '👨‍👩‍👧‍👦' }],
    });
    await h.send(snapshot([c]));
    assert.equal(await h.page.locator(`${sel(c)} .surface-title`).textContent(), 'مرحبا بالعالم 👋🏽');
    assert.equal(await h.page.locator(`${sel(c)} .surface-title`).getAttribute('dir'), 'auto');
    assert.equal(await h.page.locator(`${sel(c)} .markdown p`).evaluate((p) => getComputedStyle(p).direction), 'rtl');
    assert.equal(await h.page.locator(`${sel(c)} .kv dd`).textContent(), '👨‍👩‍👧‍👦');
  });

  it('renders a 2,000-field form and submits all of its values', async function () {
    this.timeout(180_000);
    const fields = Array.from({ length: 2000 }, (_, i) => ({
      key: `f${i}`,
      label: `Field ${i}`,
      kind: (['input', 'confirm', 'select', 'multiselect'] as const)[i % 4],
      options: ['a', 'b'],
      default: i % 4 === 2 ? 'b' : undefined,
    }));
    const f = form({ title: 'Huge', fields });
    const t0 = Date.now();
    await h.send(snapshot([f]));
    assert.equal(await h.page.locator(`${sel(f)} .field`).count(), 2000);
    const renderMs = Date.now() - t0;
    assert.ok(
      (await h.page.locator(`${sel(f)} .field.pending`).count()) > 1500,
      'rows far below the fold are not built yet',
    );
    await h.page.locator(".field[data-field-key='f1996']").scrollIntoViewIfNeeded();
    await h.page.locator("vscode-textfield[data-field-key='f1996'] input").fill('last');
    await h.page.locator(`${sel(f)} vscode-button`, { hasText: 'Submit' }).click();
    const m = (await h.waitForPosted((x) => x.type === 'submit')) as Extract<ViewToHost, { type: 'submit' }>;
    assert.equal(Object.keys(m.values).length, 2000);
    assert.equal(m.values.f1996, 'last');
    assert.equal(m.values.f2, 'b');
    assert.deepEqual(m.values.f3, []);
    console.log(`      (2,000 fields: first paint ${renderMs} ms on this machine)`);
  });

  it('renders 1 MiB of Markdown without choking', async function () {
    this.timeout(180_000);
    const chunk =
      '## Section <script>window.__pwned=1</script>\n\nSome *emphasis*, `code`, a [link](https://example.com) and text.\n\n- one\n- two\n\n';
    const markdown = chunk.repeat(Math.ceil((1024 * 1024) / chunk.length)).slice(0, 1024 * 1024);
    const c = card({ title: 'Big', markdown });
    const t0 = Date.now();
    await h.send(snapshot([c]));
    const stats = await h.page.evaluate(() => ({
      h2: document.querySelectorAll('.markdown h2').length,
      more: document.querySelectorAll('.markdown .md-more').length,
      scripts: document.querySelectorAll('script').length,
      pwned: (globalThis as unknown as { __pwned?: number }).__pwned,
    }));
    const ms = Date.now() - t0;
    // The first page only (issue 38: 32 KiB and 4,000 nodes a page), the rest behind Show more.
    assert.ok(stats.h2 > 100 && stats.h2 < 1000, `headings: ${stats.h2}`);
    assert.equal(stats.more, 1, 'a Show more button');
    assert.equal(stats.scripts, 1);
    assert.equal(stats.pwned, undefined);
    console.log(`      (1 MiB Markdown: ${ms} ms on this machine)`);
  });
});
