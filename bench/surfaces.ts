// Figure: a panel republished at the sidecar → the changed DOM in the Surfaces webview, against
// the same for a card (issue 23: an in-place panel update must not cost more than a card).
// The whole path is real: the fixture sidecar (test/fixtures/ui/ui.js, protocol v2) publishes on
// its `publish-raw` action → the connection's schema check → the UI hub's strict decoding and
// redaction → the surface store → the extension's Surfaces hub (src/vscode/surfaces/hub.ts, the
// same code the VS Code face runs) → postMessage into the built dist/webview.js in headless
// Chromium under its real CSP, where a MutationObserver reports the first DOM change that shows
// the new text. Median of 200 updates each; ratio = panel / card (goal ≤ 1.0).
import { Harness } from '../test/webview/harness';
import { round, summarize, type Figure } from './lib/stats';
import { benchCardPayload, interleaved, MarkerWatch, openSidebar, publishRaw, uiFixture } from './lib/surfacesPage';

export interface SurfaceUpdateFigure extends Figure {
  updates: number;
  panelMedianMs: number;
  cardMedianMs: number;
  panelP99Ms: number;
  cardP99Ms: number;
}

const noop = () => undefined;

export async function benchSurfaces(quick: boolean): Promise<SurfaceUpdateFigure> {
  const updates = quick ? 40 : 200;
  const { store, hub, sidecar } = uiFixture();
  const web = await Harness.launch();
  try {
    await sidecar.start();
    const watch = new MarkerWatch();
    await openSidebar(web, store, watch);
    const { card, panel } = await interleaved(updates, ['card', 'panel'] as const, (kind, i) => {
      const marker = `${kind}-marker-${i}`;
      return watch.time(web.page, `[data-key*='"bench-${kind}"']`, marker, () =>
        publishRaw(hub, kind, `bench-${kind}`, benchCardPayload(`Bench ${kind}`, i, updates, marker)),
      );
    });
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
