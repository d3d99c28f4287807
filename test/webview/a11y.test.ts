// Accessibility of the built Surfaces webview in headless Chromium under its real CSP: axe-core
// (WCAG 2.x A/AA + best practices, colour contrast on) in each of the four themes whose real
// --vscode-* variables test/webview/themes/ holds; focus kept across re-renders; one polite
// announcement per change; errors tied to their fields; reduced motion; a narrow, zoomed side bar.
import * as assert from 'node:assert/strict';
import { surfaceKey, type Surface } from '../../src/protocol';
import type { HostToView, ViewPrompt } from '../../src/webviewProtocol/messages';
import { card, form, notification, republish, status } from '../unit/webview/fixtures';
import { THEMES, useHarness, type AxeViolation, type Harness } from './harness';

// The page's DOM, typed just enough for the callbacks below (they run in the browser).
interface PElement {
  tagName: string;
  id: string;
  hidden: boolean;
  textContent: string | null;
  shadowRoot: { querySelector(s: string): PElement | null } | null;
  ariaDescribedByElements?: PElement[] | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PElement | null;
  closest(selector: string): PElement | null;
}
interface PWindow {
  document: {
    activeElement: PElement | null;
    documentElement: { scrollWidth: number; clientWidth: number };
    querySelector(selector: string): PElement | null;
    getElementById(id: string): PElement | null;
  };
  getComputedStyle(e: PElement): {
    outlineStyle: string;
    outlineColor: string;
    borderTopColor: string;
    borderTopStyle: string;
    animationName: string;
  };
  __announced?: string[];
  MutationObserver: new (cb: () => void) => { observe(target: PElement, opts: object): void };
}

function snapshot(surfaces: Surface[], extra: Partial<Extract<HostToView, { type: 'snapshot' }>> = {}): HostToView {
  return { type: 'snapshot', surfaces, emptyState: null, prompts: [], drafts: {}, ...extra };
}
const sel = (s: Surface) => `[data-key='${surfaceKey(s).replace(/'/g, "\\'")}']`;

/** Every surface kind the view renders, as the gallery fixture of the UI tests publishes them. */
function everything(): { surfaces: Surface[]; prompt: ViewPrompt; cardWithButtons: Surface; formSurface: Surface } {
  const cardWithButtons = card(
    {
      title: 'Build',
      markdown:
        '### Report\n\nSome **bold**, `code`, a [link](https://example.com/docs) and https://example.com/a/very/long/path/without/any/break/that/keeps/going/on/and/on\n\n> quoted\n\n| a | b |\n|---|---|\n| 1 | averyveryveryverylongcellwithoutbreaks |',
      fields: [
        { key: 'Files', value: '12' },
        { key: 'averyveryverylongkeywithoutanybreakopportunityatall', value: '{"nested":true}' },
      ],
      progress: 0.6,
      actions: [
        { actionId: 'rebuild', label: 'Rebuild' },
        { actionId: 'open', label: 'Open report' },
      ],
    },
    { pluginId: 'alpha', surfaceId: 'build' },
  );
  const formSurface = form(
    {
      title: 'Deploy',
      message: 'Where to?',
      fields: [
        { key: 'name', label: 'Name', kind: 'input', required: true },
        { key: 'env', label: 'Environment', kind: 'select', options: ['dev', 'prod'], default: 'prod' },
        { key: 'regions', label: 'Regions', kind: 'multiselect', options: ['eu', 'us'], default: ['eu'] },
        { key: 'dry', label: 'Dry run', kind: 'confirm', default: true },
      ],
    },
    { pluginId: 'alpha', surfaceId: 'deploy' },
  );
  const surfaces = [
    status({ label: 'All good', detail: 'info', severity: 'info' }, { pluginId: 'alpha', surfaceId: 'st-info' }),
    status(
      { label: 'Indexing', detail: 'warn with progress', severity: 'warn', progress: 0.4 },
      { pluginId: 'alpha', surfaceId: 'st-warn' },
    ),
    status(
      { label: 'Lint failed', detail: '3 errors', severity: 'error' },
      { pluginId: 'alpha', surfaceId: 'st-error' },
    ),
    cardWithButtons,
    formSurface,
    notification(
      { title: 'Heads up', body: 'A warning notification', severity: 'warn' },
      { pluginId: 'alpha', surfaceId: 'note' },
    ),
    status({ label: 'Last run', severity: 'error' }, { pluginId: 'archive', surfaceId: 'old-st', stale: true }),
    card(
      { title: 'Archived', text: 'from a stopped extension', actions: [{ actionId: 'x', label: 'Retry' }] },
      { pluginId: 'archive', surfaceId: 'old-card', stale: true },
    ),
  ];
  const prompt: ViewPrompt = {
    promptId: 'p1',
    request: {
      sessionKey: 'ws-1',
      folderName: 'app',
      pluginId: 'alpha',
      generation: 1,
      surfaceId: 'ask',
      kind: 'input',
      payload: {
        title: 'Login',
        fields: [
          { key: 'user', label: 'User', kind: 'input', required: true },
          { key: 'remember', label: 'Remember me', kind: 'confirm' },
        ],
      },
    },
  };
  return { surfaces, prompt, cardWithButtons, formSurface };
}

function report(vs: AxeViolation[]): string {
  return vs
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => `${n.target} — ${n.summary}`).join('\n  ')}`)
    .join('\n');
}

for (const theme of THEMES) {
  describe(`Surfaces webview accessibility (axe-core, theme ${theme})`, function () {
    const harness = useHarness({ theme, axe: true }, ' (axe is loaded with the page nonce, not around the CSP)');
    let h: Harness;
    beforeEach(() => (h = harness()));

    it('has no serious or critical violation with every surface kind, a prompt and a stale plugin shown', async () => {
      const all = everything();
      await h.send(snapshot(all.surfaces), { type: 'prompt', prompt: all.prompt });
      await h.page.locator(`${sel(all.formSurface)} vscode-textfield`).waitFor();
      assert.equal(await h.page.locator('.surface').count(), all.surfaces.length + 1);
      assert.deepEqual(await h.axe(), [], report(await h.axe()));
    });

    it('has none with the required-field errors showing and a card result line', async () => {
      const all = everything();
      await h.send(snapshot(all.surfaces));
      await h.page.locator(`${sel(all.formSurface)} vscode-button`, { hasText: 'Submit' }).press('Enter');
      await h.page
        .locator(`${sel(all.formSurface)} .field-error`)
        .first()
        .waitFor({ state: 'visible' });
      await h.page
        .locator(`${sel(all.cardWithButtons)} vscode-button`)
        .first()
        .press('Enter');
      const run = await h.waitForPosted((m) => m.type === 'runAction');
      if (run.type === 'runAction')
        await h.send({
          type: 'actionResult',
          requestId: run.requestId,
          key: run.key,
          actionId: run.actionId,
          accepted: false,
          message: 'quota exceeded',
        });
      await h.page.locator(`${sel(all.cardWithButtons)} .result-error`).waitFor();
      assert.deepEqual(await h.axe(), [], report(await h.axe()));
    });

    it('has none in each empty state', async () => {
      for (const emptyState of ['no-extensions', 'untrusted', 'all-stopped', null] as const) {
        await h.send(snapshot([], { emptyState }));
        assert.deepEqual(await h.axe(), [], `${emptyState}: ${report(await h.axe())}`);
      }
    });

    it('shows a focus ring in the focus border colour, and borders in high contrast', async () => {
      const all = everything();
      await h.send(snapshot(all.surfaces));
      await h.page
        .locator(`${sel(all.cardWithButtons)} vscode-button`)
        .first()
        .focus();
      const look = await h.page.evaluate(() => {
        const a = (globalThis as unknown as PWindow).document.activeElement!;
        const s = (globalThis as unknown as PWindow).getComputedStyle(a);
        const surface = (globalThis as unknown as PWindow).getComputedStyle(
          (globalThis as unknown as PWindow).document.querySelector('.surface.card')!,
        );
        const probe = (name: string) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { getPropertyValue(n: string): string } })
            .getComputedStyle(
              (globalThis as unknown as { document: { documentElement: unknown } }).document.documentElement,
            )
            .getPropertyValue(name)
            .trim();
        return {
          outline: s.outlineStyle,
          outlineColor: s.outlineColor,
          border: surface.borderTopStyle,
          borderColor: surface.borderTopColor,
          focusBorder: probe('--vscode-focusBorder'),
          contrastBorder: probe('--vscode-contrastBorder'),
        };
      });
      assert.notEqual(look.outline, 'none', 'a focused button has an outline');
      assert.equal(look.outlineColor, hexToRgb(look.focusBorder), 'the outline is the theme focus border');
      if (theme.startsWith('hc')) {
        assert.ok(look.contrastBorder, 'high-contrast themes define contrastBorder');
        assert.equal(look.border, 'solid');
        assert.equal(
          look.borderColor,
          hexToRgb(look.contrastBorder),
          'cards are outlined in the contrast border colour',
        );
      }
    });
  });
}

/** "#f38518" / "#f3851880" → "rgb(243, 133, 24)" / "rgba(…)" as getComputedStyle reports colours. */
function hexToRgb(hex: string): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})?$/i.exec(hex);
  if (!m) return hex;
  const [r, g, b] = [m[1], m[2], m[3]].map((x) => parseInt(x, 16));
  if (!m[4]) return `rgb(${r}, ${g}, ${b})`;
  const a = Math.round((parseInt(m[4], 16) / 255) * 1000) / 1000;
  return `rgba(${r}, ${g}, ${b}, ${a})`;
}

describe('Surfaces webview: keyboard, announcements, zoom and motion', function () {
  const harness = useHarness();
  let h: Harness;
  beforeEach(() => (h = harness()));

  it('keeps focus on the same card button when a delta re-renders the card under it', async () => {
    const all = everything();
    await h.send(snapshot(all.surfaces));
    const open = h.page.locator(`${sel(all.cardWithButtons)} vscode-button[data-action-id='open']`);
    await open.focus();
    await h.page.evaluate(
      () => (((globalThis as unknown as PWindow).document.activeElement as unknown as { __mark: number }).__mark = 42),
    );
    const c = all.cardWithButtons as Surface & { kind: 'card' };
    await h.send({
      type: 'upsert',
      surface: republish(c, {
        payload: { ...c.payload, title: 'Build (2)', fields: [{ key: 'Files', value: 13 }], progress: 0.9 },
      } as Partial<Surface>),
    });
    assert.equal(await h.page.locator(`${sel(all.cardWithButtons)} .surface-title`).textContent(), 'Build (2)');
    const after = await h.page.evaluate(() => ({
      action: (globalThis as unknown as PWindow).document.activeElement?.getAttribute('data-action-id'),
      mark: ((globalThis as unknown as PWindow).document.activeElement as unknown as { __mark?: number }).__mark,
    }));
    assert.deepEqual(after, { action: 'open', mark: 42 }, 'the very same button still has focus');
    // Pressing it, and the card re-published while the action runs, keep focus there too.
    await h.page.keyboard.press('Enter');
    const run = await h.waitForPosted((m) => m.type === 'runAction');
    await h.send({
      type: 'upsert',
      surface: republish(c, { payload: { ...c.payload, fields: [{ key: 'Files', value: 14 }] } } as Partial<Surface>),
    });
    assert.equal(
      await h.page.evaluate(
        () => ((globalThis as unknown as PWindow).document.activeElement as unknown as { __mark?: number }).__mark,
      ),
      42,
    );
    if (run.type === 'runAction')
      await h.send({
        type: 'actionResult',
        requestId: run.requestId,
        key: run.key,
        actionId: run.actionId,
        accepted: true,
        message: 'Opened',
      });
    assert.equal(await h.page.locator(`${sel(all.cardWithButtons)} .result`).textContent(), 'Opened');
    assert.equal(
      await h.page.evaluate(
        () => ((globalThis as unknown as PWindow).document.activeElement as unknown as { __mark?: number }).__mark,
      ),
      42,
    );
  });

  it('reaches everything with Tab in reading order: prompt, plugin header, card buttons, form fields, Submit', async () => {
    const all = everything();
    await h.send(snapshot(all.surfaces), { type: 'prompt', prompt: all.prompt });
    await h.page.locator(`${sel(all.formSurface)} vscode-textfield`).waitFor();
    const where = () =>
      h.page.evaluate(() => {
        const a = (globalThis as unknown as PWindow).document.activeElement;
        if (!a) return '(none)';
        const at = a.closest('[data-prompt-id]')
          ? 'prompt'
          : a.closest('.surface.form')
            ? 'form'
            : a.closest('.surface.card')
              ? 'card'
              : 'view';
        return `${at}:${a.getAttribute('data-field-key') ?? a.getAttribute('data-action-id') ?? (a.textContent ?? '').trim().slice(0, 20)}`;
      });
    const order: string[] = [];
    for (let i = 0; i < 13; i++) {
      await h.page.keyboard.press('Tab');
      order.push(await where());
    }
    // The prompt on top; the plugin header ("alpha, 6 items"); the newest surface first (the
    // form), then the card: its Markdown link, then its buttons.
    assert.deepEqual(order, [
      'prompt:user',
      'prompt:remember',
      'prompt:Submit',
      'prompt:Cancel',
      'view:alpha, 6 items',
      'form:name',
      'form:env',
      'form:regions',
      'form:dry',
      'form:Submit',
      'card:link',
      'card:rebuild',
      'card:open',
    ]);
    // Shift+Tab walks back the same way.
    const back: string[] = [];
    for (let i = 0; i < 4; i++) {
      await h.page.keyboard.press('Shift+Tab');
      back.push(await where());
    }
    assert.deepEqual(back, ['card:rebuild', 'card:link', 'form:Submit', 'form:dry']);
  });

  it('cancels a prompt with Escape from any of its fields', async () => {
    const all = everything();
    await h.send(snapshot([]), { type: 'prompt', prompt: all.prompt });
    await h.page.keyboard.press('Tab');
    await h.page.keyboard.press('Tab');
    assert.equal(
      await h.page.evaluate(() =>
        (globalThis as unknown as PWindow).document.activeElement?.getAttribute('data-field-key'),
      ),
      'remember',
    );
    await h.page.keyboard.press('Escape');
    assert.deepEqual(await h.waitForPosted((m) => m.type === 'answerPrompt'), {
      type: 'answerPrompt',
      promptId: 'p1',
      answer: { cancelled: true },
    });
  });

  it('labels cards and forms as regions by their titles, ties errors to fields and marks required ones', async () => {
    const all = everything();
    await h.send(snapshot(all.surfaces));
    const regions = await h.page.evaluate(() => {
      const out: string[] = [];
      for (const s of ['.surface.card', '.surface.form']) {
        const e = (globalThis as unknown as PWindow).document.querySelector(s)!;
        const title = (globalThis as unknown as PWindow).document.getElementById(
          e.getAttribute('aria-labelledby') ?? '',
        );
        out.push(`${e.getAttribute('role')}:${title?.textContent}`);
      }
      return out;
    });
    assert.deepEqual(regions, ['region:Build', 'form:Deploy']);
    const root = h.page.locator(sel(all.formSurface));
    await root.locator('vscode-button', { hasText: 'Submit' }).press('Enter');
    const tie = await h.page.evaluate(() => {
      const host = (globalThis as unknown as PWindow).document.querySelector(
        "vscode-textfield[data-field-key='name']",
      )!;
      const error = (globalThis as unknown as PWindow).document.getElementById(
        host.getAttribute('aria-describedby') ?? '',
      );
      const input = host.shadowRoot?.querySelector('input');
      return {
        error: error?.textContent?.trim(),
        errorHidden: error?.hidden,
        hostRequired: host.getAttribute('aria-required'),
        hostInvalid: host.getAttribute('aria-invalid'),
        innerRequired: input?.getAttribute('aria-required'),
        innerInvalid: input?.getAttribute('aria-invalid'),
        innerDescribedBy: input?.ariaDescribedByElements?.map((e) => e.id).join(',') === error?.id,
        focused: (globalThis as unknown as PWindow).document.activeElement?.getAttribute('data-field-key'),
      };
    });
    assert.deepEqual(tie, {
      error: 'Name is required',
      errorHidden: false,
      hostRequired: 'true',
      hostInvalid: 'true',
      innerRequired: 'true',
      innerInvalid: 'true',
      innerDescribedBy: true,
      focused: 'name',
    });
    await root.locator("vscode-textfield[data-field-key='name'] input").fill('x');
    assert.equal(
      await h.page.evaluate(() =>
        (globalThis as unknown as PWindow).document
          .querySelector("vscode-textfield[data-field-key='name']")!
          .getAttribute('aria-invalid'),
      ),
      'false',
      'typing clears the error',
    );
  });

  it('announces a status change and a new notification once, politely, and never a snapshot or an unchanged re-render', async () => {
    const st = status({ label: 'Indexing', severity: 'info', progress: 0.1 }, { surfaceId: 'idx' });
    await h.send(snapshot([st]));
    await h.page.evaluate(() => {
      const region = (globalThis as unknown as PWindow).document.querySelector('[data-announcer]')!;
      (globalThis as unknown as PWindow).__announced = [];
      new (globalThis as unknown as PWindow).MutationObserver(() => {
        const t = region.textContent ?? '';
        if (t) (globalThis as unknown as PWindow).__announced!.push(t);
      }).observe(region, { childList: true, characterData: true, subtree: true });
    });
    const live = await h.page
      .locator('[data-announcer]')
      .evaluate((e) => `${e.getAttribute('role')} ${e.getAttribute('aria-live')}`);
    assert.equal(live, 'status polite');
    // Progress ticks of a running status: quiet. Its end: said once. The same again: quiet.
    await h.send({
      type: 'upsert',
      surface: republish(st, { payload: { label: 'Indexing', severity: 'info', progress: 0.5 } } as Partial<Surface>),
    });
    const done = republish(st, { payload: { label: 'Indexed 120 files', severity: 'info' } } as Partial<Surface>);
    await h.send({ type: 'upsert', surface: done });
    await h.send({ type: 'upsert', surface: republish(done, {}) });
    const failing = republish(done, {
      payload: { label: 'Index broken', detail: 'disk full', severity: 'error' },
    } as Partial<Surface>);
    await h.page.waitForTimeout(300);
    await h.send({ type: 'upsert', surface: failing });
    const note = notification({ title: 'Saved', severity: 'warn' }, { surfaceId: 'n1' });
    await h.send({ type: 'upsert', surface: note });
    await h.send({ type: 'upsert', surface: republish(note, {}) });
    await h.page.waitForTimeout(300);
    await h.send(snapshot([failing, note]));
    await h.page.waitForTimeout(300);
    assert.deepEqual(await h.page.evaluate(() => (globalThis as unknown as PWindow).__announced), [
      'demo: Indexed 120 files',
      'demo: Error: Index broken, disk full. demo: Warning: Saved',
    ]);
  });

  it('stops its spinners when the user asks for reduced motion', async () => {
    await h.page.emulateMedia({ reducedMotion: 'reduce' });
    try {
      const st = status({ label: 'Indexing', progress: Number.NaN }, { surfaceId: 'spin' });
      const c = card({ title: 'Busy', actions: [{ actionId: 'go', label: 'Go' }] }, { surfaceId: 'busy' });
      await h.send(snapshot([st, c]));
      await h.page.locator(`${sel(c)} vscode-button`).press('Enter');
      await h.page.locator(`${sel(c)} .codicon-modifier-spin`).waitFor();
      const motion = await h.page.evaluate(() => {
        const spin = (globalThis as unknown as PWindow).document.querySelector('.codicon-modifier-spin')!;
        const bar = (globalThis as unknown as PWindow).document.querySelector('vscode-progress-bar')!;
        const indicator = bar.shadowRoot?.querySelector('.indicator');
        return {
          spin: (globalThis as unknown as PWindow).getComputedStyle(spin).animationName,
          bar: indicator
            ? (globalThis as unknown as PWindow).getComputedStyle(indicator).animationName
            : 'no indicator',
        };
      });
      assert.deepEqual(motion, { spin: 'none', bar: 'none' });
    } finally {
      await h.page.emulateMedia({ reducedMotion: 'no-preference' });
    }
  });

  it('holds its layout in a 240 px side bar and at 200% zoom: no horizontal scroll, long words and URLs wrap', async () => {
    const all = everything();
    for (const width of [240, 120]) {
      // 200% zoom of a 240 px side bar leaves 120 CSS pixels.
      await h.page.setViewportSize({ width, height: 900 });
      await h.send(snapshot(all.surfaces), { type: 'prompt', prompt: { ...all.prompt, promptId: `p-${width}` } });
      await h.page.locator(`${sel(all.formSurface)} vscode-textfield`).waitFor();
      const size = await h.page.evaluate(() => ({
        scroll: (globalThis as unknown as PWindow).document.documentElement.scrollWidth,
        client: (globalThis as unknown as PWindow).document.documentElement.clientWidth,
      }));
      assert.ok(size.scroll <= size.client, `${width} px: content ${size.scroll} px wide in a ${size.client} px view`);
    }
    await h.page.setViewportSize({ width: 1280, height: 720 });
  });
});
