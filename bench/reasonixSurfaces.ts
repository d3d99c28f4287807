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
import { Sidecar } from '../src/host/sidecar';
import { attachSidecar, SurfaceStore, uiHandlers, UiHub } from '../src/host/ui';
import type { HostToView } from '../src/webviewProtocol/messages';
import { FIXTURES } from '../test/support/reasonix';
import { surfacesHubOver } from '../test/webview/engine';
import { Harness } from '../test/webview/harness';
import { fixtureSpec, ROOT } from '../test/unit/streams/real-support';
import { round, summarize, type Figure } from './lib/stats';

export interface ReasonixSurfaceFigure extends Figure {
  updates: number;
  reasonixMedianMs: number;
  hostedMedianMs: number;
  reasonixP99Ms: number;
  hostedP99Ms: number;
}

interface PageHooks {
  __expect(sel: string, marker: string): void;
  __seen(marker: string): void;
  MutationObserver: new (cb: () => void) => { observe(t: unknown, o: object): void };
  document: { body: unknown; querySelector(s: string): { textContent: string | null } | null };
  postMessage(m: unknown, o: string): void;
}

const noop = () => undefined;

export async function benchReasonixSurfaces(quick: boolean): Promise<ReasonixSurfaceFigure> {
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
  const client = new ReasonixAcpClient({
    bin: path.join(FIXTURES, 'fake-acp.js'),
    cwd: FIXTURES,
    env: { ...process.env, FAKE_ACP: 'session' },
  });
  const web = await Harness.launch();
  try {
    await sidecar.start();
    const session = await client.openSession({ cwd: FIXTURES, folderName: 'bench · Reasonix session', store });
    await web.open();
    const page = web.page;
    let arrived: ((marker: string) => void) | undefined;
    await page.exposeFunction('__seen', (marker: string) => arrived?.(marker));
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

    const payloadOf = (i: number, marker: string) => ({
      title: 'Bench card',
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
    const run = async (source: 'reasonix' | 'hosted', from: number, to: number): Promise<number[]> => {
      const samples: number[] = [];
      for (let i = from; i < to; i++) {
        const marker = `${source}-marker-${i}`;
        const surfaceId = `bench-${source}`;
        await page.evaluate(([sel, m]) => (globalThis as unknown as PageHooks).__expect(sel, m), [
          `[data-key*='"${surfaceId}"']`,
          marker,
        ] as const);
        const seen = new Promise<void>((resolve) => (arrived = (m) => m === marker && resolve()));
        const t0 = process.hrtime.bigint();
        const asked =
          source === 'reasonix'
            ? session.prompt(`publish ${JSON.stringify({ surfaceId, kind: 'card', payload: payloadOf(i, marker) })}`)
            : hub.invokeAction('ui', 'publish-raw', {
                kind: 'card',
                surfaceId,
                payload: JSON.stringify(payloadOf(i, marker)),
              });
        await seen;
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        await asked;
        if (i > 0) samples.push(ms);
      }
      return samples;
    };
    const reasonix: number[] = [];
    const hosted: number[] = [];
    const rounds = 4;
    const per = updates / rounds;
    for (let r = 0; r < rounds; r++) {
      const from = r === 0 ? 0 : r * per + 1;
      const to = (r + 1) * per + 1;
      hosted.push(...(await run('hosted', from, to)));
      reasonix.push(...(await run('reasonix', from, to)));
    }
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
