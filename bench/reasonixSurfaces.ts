// Figure (issue 44): a card updated by an extension inside a Reasonix session → the changed DOM in
// the Surfaces webview, against the same card published by a VS Code-hosted extension (the path of
// the `panelUpdate` figure). Reasonix's side is test/fixtures/reasonix/fake-acp.js writing the
// `session/update` `_reasonix.io/extension_surface` (and its text fallback) as 1.38.11 does, on a
// `publish …` prompt; ours is the real path: the SDK's framing, the vendor filter, the session's UI
// hub (strict decoding, redaction, budget), the one store, the Surfaces hub, dist/webview.js in
// headless Chromium. Each sample starts when the host asks its peer (a prompt; the hosted one an
// action) and ends at the first DOM change showing the marker. Median of 200 each, interleaved;
// ratio = Reasonix / hosted (goal ≤ 1.2).
import * as path from 'node:path';
import { ReasonixAcpClient } from '../src/host/acp';
import { FIXTURES } from '../test/support/reasonix';
import { Harness } from '../test/webview/harness';
import { round, summarize, type Figure } from './lib/stats';
import { benchCardPayload, interleaved, MarkerWatch, openSidebar, publishRaw, uiFixture } from './lib/surfacesPage';

export interface ReasonixSurfaceFigure extends Figure {
  updates: number;
  reasonixMedianMs: number;
  hostedMedianMs: number;
  reasonixP99Ms: number;
  hostedP99Ms: number;
}

const noop = () => undefined;

export async function benchReasonixSurfaces(quick: boolean): Promise<ReasonixSurfaceFigure> {
  const updates = quick ? 40 : 200;
  const { store, hub, sidecar } = uiFixture();
  const client = new ReasonixAcpClient({
    bin: path.join(FIXTURES, 'fake-acp.js'),
    cwd: FIXTURES,
    env: { ...process.env, FAKE_ACP: 'session' },
  });
  const web = await Harness.launch();
  try {
    await sidecar.start();
    const session = await client.openSession({ cwd: FIXTURES, folderName: 'bench · Reasonix session', store });
    const watch = new MarkerWatch();
    await openSidebar(web, store, watch);
    const { hosted, reasonix } = await interleaved(updates, ['hosted', 'reasonix'] as const, (source, i) => {
      const marker = `${source}-marker-${i}`;
      const surfaceId = `bench-${source}`;
      const payload = benchCardPayload('Bench card', i, updates, marker);
      return watch.time(web.page, `[data-key*='"${surfaceId}"']`, marker, () =>
        source === 'reasonix'
          ? session.prompt(`publish ${JSON.stringify({ surfaceId, kind: 'card', payload })}`)
          : publishRaw(hub, 'card', surfaceId, payload),
      );
    });
    const x = summarize(reasonix);
    const h = summarize(hosted);
    const ratio = x.median / h.median;
    return {
      unit: 'ms',
      value: round(x.median),
      floor: round(h.median),
      ratio: round(ratio),
      goal: 'ratio <= 1.2',
      met: ratio <= 1.2,
      updates: reasonix.length,
      reasonixMedianMs: round(x.median),
      hostedMedianMs: round(h.median),
      reasonixP99Ms: round(x.p99),
      hostedP99Ms: round(h.p99),
      notes:
        'value = median ms from asking Reasonix (a fake reasonix acp writing 1.38.11 frames) to the changed DOM; floor = the same card from a VS Code-hosted extension (publish-raw)',
    };
  } finally {
    await client.dispose();
    await sidecar.stop().catch(noop);
    await web.close().catch(noop);
  }
}
