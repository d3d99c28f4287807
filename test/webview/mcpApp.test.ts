// The page on a tool's card (issue 41, MCP Apps) in headless Chromium without VS Code: this test
// plays the MCP Apps host. The page (dist/mcp-app.html, as `resources/read` of a real
// `reasonix-host mcp` serves it) runs in a sandboxed iframe of a host page; every message it posts
// goes to Node, which answers `ui/initialize` with a host context (the Dark Modern theme's real
// --vscode-* variables), forwards its `tools/call` to the real server through the MCP SDK client,
// and sends `ui/notifications/tool-input` / `tool-result` as VS Code does. The server runs the real
// v2 fixture test/fixtures/ui/anchored.js, which anchors a view to the call id it is handed.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium, type Browser, type Page } from 'playwright-core';
import { pluginFolderV2 } from '../support/plugins';
import { waitFor } from '../support/wait';

const REPO = resolve(__dirname, '../../..');
const CLI = join(REPO, 'out', 'src', 'cli.js');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const UI_EXTENSION = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };

/** The real Dark Modern variables (test/webview/themes), as a host context's `styles.variables`. */
function themeVariables(theme = 'dark-modern'): Record<string, string> {
  const css = readFileSync(join(REPO, 'test', 'webview', 'themes', `${theme}.css`), 'utf8');
  return Object.fromEntries([...css.matchAll(/(--vscode-[\w-]+):\s*([^;]+);/g)].map((m) => [m[1], m[2].trim()]));
}

type Json = Record<string, unknown>;

// The page's globals, typed just enough for the callbacks below (they run in the browser; the
// root tsconfig has no DOM lib).
interface PDocument {
  body: { textContent: string | null };
  documentElement: object;
  querySelector(selector: string): { textContent: string | null } | null;
}
declare const document: PDocument;
declare function getComputedStyle(el: object): { getPropertyValue(name: string): string };
declare const window: { toPage(m: unknown): void };

describe('the page on a tool’s card, with this test as the MCP Apps host (issue 41)', function () {
  this.timeout(60_000);
  let dir: string;
  let client: Client;
  let browser: Browser;
  let page: Page;
  const fromPage: Json[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rx-mcp-app-'));
    const plugin = pluginFolderV2(join(dir, 'anchored'), 'anchored', {
      command: process.execPath,
      args: [join(REPO, 'test', 'fixtures', 'ui', 'anchored.js')],
      capabilities: ['tools', 'ui'],
      tools: [
        {
          name: 'count_words',
          description: 'Count words',
          inputSchema: { type: 'object' },
          readOnly: true,
          anchorsView: true,
        },
      ],
      env: { ANCHORED_RECORD: join(dir, 'anchored.jsonl'), ANCHORED_SECOND_MS: '400' },
    });
    client = new Client(
      { name: 'mcp-app-host-test', version: '1.0.0' },
      { capabilities: { extensions: UI_EXTENSION } },
    );
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--plugin', plugin, '--workspace', dir],
      }),
    );
    mkdirSync(join(REPO, 'test-results', 'mcp-app'), { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Sends one JSON-RPC message to the page, as the host frame. */
  const toPage = (m: Json) => page.evaluate((msg) => window.toPage(msg), m);

  it('answers the handshake, draws the anchored view in the host’s theme, updates it without a new call, and its buttons run the sidebar’s action path', async () => {
    const { tools } = await client.listTools();
    const uri = (tools.find((t) => t.name === 'ext__anchored__count_words')?._meta as { ui?: { resourceUri?: string } })
      ?.ui?.resourceUri;
    assert.equal(uri, 'ui://reasonix/anchored/count_words');
    const res = await client.readResource({ uri });
    const html = String((res.contents[0] as { text?: string }).text);

    // The host page: the card page in a sandboxed iframe (scripts only, an opaque origin, as hosts do).
    await page.exposeFunction('toNode', (raw: string) => {
      const m = JSON.parse(raw) as Json;
      fromPage.push(m);
      void answer(m);
    });
    await page.setContent(
      `<!DOCTYPE html><html><body><iframe id="card" sandbox="allow-scripts" style="width:480px;height:400px"></iframe><script>
        const frame = document.getElementById('card');
        window.addEventListener('message', (e) => { if (e.source === frame.contentWindow) window.toNode(JSON.stringify(e.data)); });
        window.toPage = (m) => frame.contentWindow.postMessage(m, '*');
      </script></body></html>`,
    );
    const variables = themeVariables();
    const answer = async (m: Json): Promise<void> => {
      if (m.method === 'ui/initialize')
        return toPage({
          jsonrpc: '2.0',
          id: m.id,
          result: {
            protocolVersion: '2026-01-26',
            hostInfo: { name: 'test host', version: '1' },
            hostCapabilities: { serverTools: {} },
            hostContext: { theme: 'dark', styles: { variables }, toolCall: { toolCallId: 'vscode-call-1' } },
          },
        });
      if (m.method === 'tools/call') {
        const params = m.params as { name: string; arguments: Json };
        const result = await client.callTool({ name: params.name, arguments: params.arguments }, undefined, {
          timeout: 30_000,
        });
        return toPage({ jsonrpc: '2.0', id: m.id, result });
      }
    };
    await page.$eval('#card', (f, srcdoc) => ((f as unknown as { srcdoc: string }).srcdoc = srcdoc), html);
    const card = () => page.frames().find((f) => f !== page.mainFrame())!;
    await waitFor(() => fromPage.some((m) => m.method === 'ui/notifications/initialized'), {
      timeoutMs: 10_000,
      what: 'the page’s initialized notification',
    });

    // The agent's call, as VS Code makes it: the input first, then the call, then its result.
    const args = { text: 'one two three' };
    await toPage({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: args } });
    const result = await client.callTool({ name: 'ext__anchored__count_words', arguments: args });
    const callId = (result._meta as Json)['reasonix/callId'];
    await toPage({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: result });

    await card().waitForSelector('section.view', { timeout: 10_000 });
    const region = await card().$eval('section.view', (el) => {
      (el as unknown as { __first: boolean }).__first = true;
      return {
        label: el.getAttribute('aria-label'),
        role: el.getAttribute('role'),
        anchor: el.getAttribute('data-anchor'),
      };
    });
    assert.deepEqual(region, {
      label: `anchored: count-${String(callId)}`,
      role: 'region',
      anchor: `tool:${String(callId)}`,
    });
    assert.equal(
      await card().evaluate(() =>
        getComputedStyle(document.documentElement).getPropertyValue('--vscode-foreground').trim(),
      ),
      variables['--vscode-foreground'],
      'the host context’s theme variables are the page’s',
    );

    // Generation 2 arrives by the page's own long-poll (no new call of the tool), in place.
    await card().waitForFunction(() => document.body.textContent?.includes('Counted 3 words'), undefined, {
      timeout: 10_000,
    });
    const body = await card().$eval('section.view', (el) => ({
      same: (el as unknown as { __first?: boolean }).__first === true,
      text: el.textContent ?? '',
    }));
    assert.equal(body.same, true, 'the view is patched in place, not redrawn');
    assert.doesNotMatch(html + body.text, /sk-live-0123456789abcdef/);
    const modelCalls = fromPage.filter(
      (m) => m.method === 'tools/call' && (m.params as { name: string }).name === 'ext__anchored__count_words',
    );
    assert.equal(modelCalls.length, 0, 'the page never calls the model’s tool');
    const reads = fromPage.filter(
      (m) => m.method === 'tools/call' && (m.params as { name: string }).name === 'reasonix_view_read',
    );
    assert.ok(reads.length >= 2 && reads.length <= 5, `a long-poll, not a busy loop: ${reads.length} reads`);

    // The keyboard: Tab reaches the declared button, Enter runs it, the result line says so.
    await card().focus('vscode-button[data-action-id="bump"]');
    await page.keyboard.press('Enter');
    await card().waitForFunction(() => document.body.textContent?.includes('bumped 1'), undefined, { timeout: 10_000 });
    const status = await card().$eval('section.view .result', (el) => ({
      role: el.getAttribute('role'),
      text: el.textContent,
    }));
    assert.equal(status.role, 'status');
    assert.match(String(status.text), /bumped 1/);

    // The undeclared action: nothing reaches the sidecar, and the card says why.
    await card().focus('vscode-button[data-action-id="nope"]');
    await page.keyboard.press('Enter');
    await card().waitForFunction(
      () => document.querySelector('section.view .result')?.textContent?.includes('declared no action nope'),
      undefined,
      { timeout: 10_000 },
    );
    const actions = readFileSync(join(dir, 'anchored.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { kind: string; actionId?: string })
      .filter((e) => e.kind === 'ui/action');
    assert.deepEqual(actions, [{ kind: 'ui/action', actionId: 'bump' }]);

    // A theme change reaches the page (host-context-changed); a screenshot per theme in test-results.
    for (const theme of ['dark-modern', 'light-modern', 'hc-dark']) {
      const vars = themeVariables(theme);
      await toPage({
        jsonrpc: '2.0',
        method: 'ui/notifications/host-context-changed',
        params: { styles: { variables: vars } },
      });
      await page.evaluate(
        (bg) => ((document as unknown as { body: { style: { background: string } } }).body.style.background = bg),
        vars['--vscode-editor-background'],
      );
      await card().waitForFunction(
        (fg) => getComputedStyle(document.documentElement).getPropertyValue('--vscode-foreground').trim() === fg,
        vars['--vscode-foreground'],
        { timeout: 5000 },
      );
      await page.screenshot({ path: join(REPO, 'test-results', 'mcp-app', `card-${theme}.png`) });
    }
  });
  /**
   * A fresh card page in its own tab, this test as its host: answers ui/initialize with `hostContext`
   * and forwards tools/call to the real server. Returns the card's frame, what it posted, and a sender.
   */
  async function openCard(html: string, hostContext: Json) {
    const tab = await browser.newPage();
    const posted: Json[] = [];
    const send = (m: Json) => tab.evaluate((msg) => window.toPage(msg), m);
    await tab.exposeFunction('toNode', (raw: string) => {
      const m = JSON.parse(raw) as Json;
      posted.push(m);
      if (m.method === 'ui/initialize')
        void send({
          jsonrpc: '2.0',
          id: m.id,
          result: { protocolVersion: '2026-01-26', hostInfo: { name: 'test host', version: '1' }, hostContext },
        });
      else if (m.method === 'tools/call') {
        const params = m.params as { name: string; arguments: Json };
        void client
          .callTool({ name: params.name, arguments: params.arguments }, undefined, { timeout: 30_000 })
          .then((result) => send({ jsonrpc: '2.0', id: m.id, result }));
      }
    });
    await tab.setContent(
      `<!DOCTYPE html><html><body><iframe id="card" sandbox="allow-scripts" style="width:480px;height:200px"></iframe><script>
        const frame = document.getElementById('card');
        window.addEventListener('message', (e) => { if (e.source === frame.contentWindow) window.toNode(JSON.stringify(e.data)); });
        window.toPage = (m) => frame.contentWindow.postMessage(m, '*');
      </script></body></html>`,
    );
    await tab.$eval('#card', (f, srcdoc) => ((f as unknown as { srcdoc: string }).srcdoc = srcdoc), html);
    await waitFor(() => posted.some((m) => m.method === 'ui/notifications/initialized'), {
      timeoutMs: 10_000,
      what: 'the page’s initialized notification',
    });
    const card = tab.frames().find((f) => f !== tab.mainFrame())!;
    return { tab, card, posted, send };
  }

  const pageHtml = async () =>
    String(
      ((await client.readResource({ uri: 'ui://reasonix/anchored/count_words' })).contents[0] as { text?: string })
        .text,
    );
  const noteOf = (card: Awaited<ReturnType<typeof openCard>>['card']) =>
    card.$eval('.card-note', (el) => ({
      text: el.textContent,
      hidden: (el as unknown as { hidden: boolean }).hidden,
      role: el.getAttribute('role'),
    }));

  it('a call that publishes no view: the card says so in one line after a short wait, no endless waiting', async () => {
    const { tab, card, posted } = await openCard(await pageHtml(), { theme: 'dark', locale: 'en' });
    try {
      const args = { text: 'a b', noView: true };
      const result = await client.callTool({ name: 'ext__anchored__count_words', arguments: args });
      assert.match(String((result._meta as Json)['reasonix/callId']), /^[0-9a-f-]{36}$/);
      assert.match(String((await noteOf(card)).text), /Waiting for the extension’s view/);
      const sent = Date.now();
      await tab.evaluate((m) => window.toPage(m), {
        jsonrpc: '2.0',
        method: 'ui/notifications/tool-input',
        params: { arguments: args },
      });
      await tab.evaluate((m) => window.toPage(m), {
        jsonrpc: '2.0',
        method: 'ui/notifications/tool-result',
        params: result,
      });
      await card.waitForFunction(
        () => document.querySelector('.card-note')?.textContent?.includes('No Reasonix view was published'),
        undefined,
        { timeout: 10_000 },
      );
      const waited = Date.now() - sent;
      assert.ok(waited >= 2000 && waited < 8000, `said so after the short wait (${waited} ms)`);
      assert.deepEqual(await noteOf(card), {
        text: 'No Reasonix view was published for this call.',
        hidden: false,
        role: 'status',
      });
      assert.equal(await card.$$eval('section.view', (els) => els.length), 0);
      // The card asks for the height of its one line, not of its viewport (VS Code starts it at 300 px).
      const heights = posted
        .filter((m) => m.method === 'ui/notifications/size-changed')
        .map((m) => (m.params as { height: number }).height);
      assert.ok(heights.length > 0 && heights.at(-1)! > 10 && heights.at(-1)! < 80, `heights ${heights.join(', ')}`);
    } finally {
      await tab.close();
    }
  });

  it('an older transcript’s card (a call id this server never made) says its view is no longer live, in the host’s language (zh-cn)', async () => {
    const { tab, card } = await openCard(await pageHtml(), { theme: 'light', locale: 'zh-cn' });
    try {
      assert.equal(await card.evaluate(() => (document.documentElement as unknown as { lang: string }).lang), 'zh-CN');
      assert.match(String((await noteOf(card)).text), /正在等待扩展的视图/);
      await tab.evaluate((m) => window.toPage(m), {
        jsonrpc: '2.0',
        method: 'ui/notifications/tool-result',
        params: {
          content: [{ type: 'text', text: '2 words' }],
          _meta: { 'reasonix/callId': '00000000-0000-4000-8000-000000000000' },
        },
      });
      await card.waitForFunction(
        () => document.querySelector('.card-note')?.textContent?.includes('已不再实时'),
        undefined,
        { timeout: 10_000 },
      );
      assert.equal(
        (await noteOf(card)).text,
        '此 Reasonix 视图已不再实时：它属于窗口重新加载或扩展重启之前的运行。模型读取的是该工具的文本结果。',
      );
      mkdirSync(join(REPO, 'test-results', 'mcp-app'), { recursive: true });
      await tab.screenshot({ path: join(REPO, 'test-results', 'mcp-app', 'card-not-live-zh-cn.png') });
    } finally {
      await tab.close();
    }
  });
});
