// Figure (issue 41): a view anchored to a tool call, republished at the sidecar → the changed DOM of
// the page on the call's card (dist/mcp-app.html in headless Chromium, the bench playing the MCP
// Apps host over the real MCP server in-process, the SDK's in-memory transport), against the same
// view republished → the changed DOM in the Surfaces sidebar (dist/webview.js), as panelUpdate
// measures it. The card has to ask (its long-poll of reasonix_view_read); goal ≤ 1.5×.
// Whole path: the fixture sidecar (test/fixtures/ui/ui.js, protocol v2) publishes on its
// `publish-raw` action → connection → UI hub (decode, redaction) → store → (sidebar) Surfaces hub →
// postMessage | (card) the pending read answers → MCP → the host → postMessage into the iframe.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { chromium } from 'playwright-core';
import { anchoredViews, appPageHtml, createToolServer } from '../src/host/mcp';
import { waitFor } from '../test/support/wait';
import { Harness } from '../test/webview/harness';
import { round, summarize, type Figure } from './lib/stats';
import { interleaved, MarkerWatch, openSidebar, publishRaw, uiFixture } from './lib/surfacesPage';

export interface CardUpdateFigure extends Figure {
  updates: number;
  cardMedianMs: number;
  sidebarMedianMs: number;
  cardP99Ms: number;
  sidebarP99Ms: number;
}

type Json = Record<string, unknown>;
interface Hooks {
  toPage(m: unknown): void;
}
const noop = () => undefined;
const CALL = 'bench-call';

export async function benchCard(quick: boolean): Promise<CardUpdateFigure> {
  const updates = quick ? 40 : 200;
  const { store, hub, sidecar } = uiFixture();
  const web = await Harness.launch();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  const server = createToolServer(
    {
      tools: () => [],
      callTool: () => Promise.reject(new Error('no tools in this bench')),
      onDidChangeTools: () => ({ dispose: noop }),
      views: anchoredViews(store, () => ({ sessionKey: 'bench', invokeAction: (p, a) => hub.invokeAction(p, a) })),
    },
    'bench',
  );
  const client = new Client(
    { name: 'bench-host', version: '1' },
    { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } },
  );
  try {
    await sidecar.start();
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.server.connect(a), client.connect(b)]);

    // The sidebar.
    const sidebarWatch = new MarkerWatch();
    await openSidebar(web, store, sidebarWatch);

    // The card: the page from resources/read in an iframe; this process is its host.
    const page = await browser.newPage();
    const cardWatch = new MarkerWatch();
    await cardWatch.expose(page);
    const toPage = (m: Json) => page.evaluate((msg) => (globalThis as unknown as Hooks).toPage(msg), m).catch(noop);
    await page.exposeFunction('toNode', (raw: string) => {
      const m = JSON.parse(raw) as Json;
      if (m.method === 'ui/initialize')
        void toPage({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2026-01-26', hostContext: {} } });
      else if (m.method === 'tools/call')
        void client
          .callTool(m.params as { name: string; arguments: Json }, undefined, { timeout: 60_000 })
          .then((result) => toPage({ jsonrpc: '2.0', id: m.id, result }))
          .catch(noop); // the bench's end closes the client under the page's last read
    });
    await page.setContent(
      `<iframe id="card" sandbox="allow-scripts"></iframe><script>
        const f = document.getElementById('card');
        window.addEventListener('message', (e) => { if (e.source === f.contentWindow) window.toNode(JSON.stringify(e.data)); });
        window.toPage = (m) => f.contentWindow.postMessage(m, '*');
      </script>`,
    );
    // The page every anchoring tool's resources/read answers (no tool here to list, so read from the build).
    await page.$eval('#card', (f, html) => ((f as unknown as { srcdoc: string }).srcdoc = html), appPageHtml());
    await waitFor(() => page.frames().length === 2, { timeoutMs: 10_000, what: 'the card frame' });
    const frame = () => page.frames().find((f) => f !== page.mainFrame())!;
    await frame().waitForSelector('main#root');
    await cardWatch.observe(frame());
    await toPage({
      jsonrpc: '2.0',
      method: 'ui/notifications/tool-result',
      params: { content: [], _meta: { 'reasonix/callId': CALL } },
    });

    const payload = (marker: string) => ({
      anchor: `tool:${CALL}`,
      body: [
        { kind: 'text', value: marker, tone: 'ok' },
        { kind: 'kv', key: 'Region', value: 'eu-west' },
        { kind: 'meter', label: 'Progress', progress: 0.5 },
        { kind: 'row', children: [{ kind: 'button', actionId: 'report', label: 'Report' }] },
      ],
    });
    const { card, sidebar } = await interleaved(updates, ['sidebar', 'card'] as const, (where, i) => {
      const marker = `${where}-marker-${i}`;
      const [watch, target] = where === 'card' ? [cardWatch, frame()] : [sidebarWatch, web.page];
      return watch.time(target, 'section.view', marker, () => publishRaw(hub, 'view', 'bench-view', payload(marker)));
    });
    const c = summarize(card);
    const s = summarize(sidebar);
    const ratio = c.median / s.median;
    return {
      unit: 'ms',
      value: round(c.median),
      floor: round(s.median),
      ratio: round(ratio),
      goal: 'ratio <= 1.5',
      met: ratio <= 1.5,
      updates: card.length,
      cardMedianMs: round(c.median),
      sidebarMedianMs: round(s.median),
      cardP99Ms: round(c.p99),
      sidebarP99Ms: round(s.p99),
      notes:
        'value = median ms from a view anchored to a tool call republished at the sidecar to the changed DOM of the page on its card (Chromium, the long-poll); floor = the same view in the Surfaces sidebar',
    };
  } finally {
    await client.close().catch(noop);
    await sidecar.stop().catch(noop);
    await web.close().catch(noop);
    await browser.close().catch(noop);
  }
}
