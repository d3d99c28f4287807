// Figure: a panel republished at the sidecar → the changed DOM in the Surfaces webview, against
// the same for a card (issue 23: an in-place panel update must not cost more than a card).
// The whole path is real: the fixture sidecar (test/fixtures/ui/ui.js, protocol v2) publishes on
// its `publish-raw` action → the connection's schema check → the UI hub's strict decoding and
// redaction → the surface store → the extension's Surfaces hub (src/vscode/surfaces/hub.ts, the
// same code the VS Code face runs) → postMessage into the built dist/webview.js in headless
// Chromium under its real CSP, where a MutationObserver reports the first DOM change that shows
// the new text. Median of 200 updates each; ratio = panel / card (goal ≤ 1.0).
import { Sidecar } from '../src/host/sidecar';
import { attachSidecar, SurfaceStore, uiHandlers, UiHub } from '../src/host/ui';
import type { HostToView } from '../src/webviewProtocol/messages';
import { surfacesHubOver } from '../test/webview/engine';
import { Harness } from '../test/webview/harness';
import { fixtureSpec, ROOT } from '../test/unit/streams/real-support';
import { round, summarize, type Figure } from './lib/stats';

export interface SurfaceUpdateFigure extends Figure {
  updates: number;
  panelMedianMs: number;
  cardMedianMs: number;
  panelP99Ms: number;
  cardP99Ms: number;
}

interface PageHooks {
  __expect(sel: string, marker: string): void;
  __seen(marker: string): void;
  MutationObserver: new (cb: () => void) => { observe(t: unknown, o: object): void };
  document: { body: unknown; querySelector(s: string): { textContent: string | null } | null };
  postMessage(m: unknown, o: string): void;
}

const noop = () => undefined;

export async function benchSurfaces(quick: boolean): Promise<SurfaceUpdateFigure> {
  const updates = quick ? 40 : 200;
  const store = new SurfaceStore();
  const hub = new UiHub({ sessionKey: 'bench', folderName: 'bench', store });
  const sidecar = new Sidecar({
    plugin: { ...fixtureSpec('ui', 'ui/ui.js', [], ['ui']), protocol: 2 },
    session: { sessionId: 'bench-1', workspaceRoot: ROOT, generation: 1 },
    uiHost: 'desktop',
    handlers: uiHandlers(hub, 'ui'),
    timeouts: { shutdownRequestMs: 1000, exitGraceMs: 200, reapMs: 2000 },
  });
  attachSidecar(hub, sidecar);
  const web = await Harness.launch();
  try {
    await sidecar.start();
    await web.open();
    const page = web.page;
    let arrived: ((marker: string) => void) | undefined;
    await page.exposeFunction('__seen', (marker: string) => arrived?.(marker));
    // One observer for the whole view: the first mutation after which the expected surface shows
    // the marker reports it (textContent of one surface per mutation batch: cheap next to a render).
    await page.evaluate(() => {
      const w = globalThis as unknown as PageHooks & { __want?: { sel: string; marker: string } };
      w.__expect = (sel, marker) => (w.__want = { sel, marker });
      new w.MutationObserver(() => {
        const want = w.__want;
        if (!want) return;
        const el = w.document.querySelector(want.sel);
        if (el?.textContent?.includes(want.marker)) {
          w.__want = undefined;
          w.__seen(want.marker);
        }
      }).observe(w.document.body, { childList: true, subtree: true, characterData: true, attributes: true });
    });
    const surfaces = surfacesHubOver(store);
    const conn = surfaces.connect({
      post: (m: HostToView) =>
        void page.evaluate((msg) => (globalThis as unknown as PageHooks).postMessage(msg, '*'), m).catch(noop),
    });
    await conn.receive({ type: 'ready' });

    const payloadOf = (kind: 'panel' | 'card', i: number, marker: string) => ({
      title: `Bench ${kind}`,
      text: marker,
      fields: [
        { key: 'Step', value: `${i} of ${updates}` },
        { key: 'Region', value: 'eu-west' },
      ],
      progress: i / updates,
      actions: [
        { actionId: 'pause', label: 'Pause' },
        { actionId: 'cancel', label: 'Cancel' },
      ],
    });
    // Publishes from..to-1 of a kind; publish 0 creates the surface and is not measured.
    const run = async (kind: 'panel' | 'card', from: number, to: number): Promise<number[]> => {
      const samples: number[] = [];
      for (let i = from; i < to; i++) {
        const marker = `${kind}-marker-${i}`;
        await page.evaluate(([sel, m]) => (globalThis as unknown as PageHooks).__expect(sel, m), [
          `[data-key*='"bench-${kind}"']`,
          marker,
        ] as const);
        const seen = new Promise<void>((resolve) => (arrived = (m) => m === marker && resolve()));
        const t0 = process.hrtime.bigint();
        const published = hub.invokeAction('ui', 'publish-raw', {
          kind,
          surfaceId: `bench-${kind}`,
          payload: JSON.stringify(payloadOf(kind, i, marker)),
        });
        await seen;
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        const r = await published;
        if (!r.message?.includes('"accepted":true')) throw new Error(`bench publish refused: ${r.message}`);
        if (i > 0) samples.push(ms);
      }
      return samples;
    };
    // Interleaved rounds so drift in machine load hits both kinds alike.
    const panel: number[] = [];
    const card: number[] = [];
    const rounds = 4;
    const per = updates / rounds;
    for (let r = 0; r < rounds; r++) {
      const from = r === 0 ? 0 : r * per + 1;
      const to = (r + 1) * per + 1;
      card.push(...(await run('card', from, to)));
      panel.push(...(await run('panel', from, to)));
    }
    const p = summarize(panel);
    const c = summarize(card);
    const ratio = p.median / c.median;
    return {
      unit: 'ms',
      value: round(p.median),
      floor: round(c.median),
      ratio: round(ratio),
      goal: 'ratio <= 1.0',
      met: ratio <= 1.0,
      updates: panel.length,
      panelMedianMs: round(p.median),
      cardMedianMs: round(c.median),
      panelP99Ms: round(p.p99),
      cardP99Ms: round(c.p99),
      notes:
        'value = median ms from a panel republish at the sidecar to the changed DOM in the webview (Chromium); floor = the same for a card',
    };
  } finally {
    await sidecar.stop().catch(noop);
    await web.close().catch(noop);
  }
}
