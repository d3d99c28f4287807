// Loads the built dist/webview.js into the same HTML (same CSP, same nonce rule) the extension
// serves, inside headless Chromium, with a fake acquireVsCodeApi that records what the view posts
// and keeps setState/getState in sessionStorage so it survives a reload like VS Code's does.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as assert from 'node:assert/strict';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { HostToView, ViewToHost } from '../../src/webviewProtocol/messages';
import { newNonce, surfacesHtml } from '../../src/vscode/surfaces/html';
import { RetryableError, waitFor } from '../support/wait';

export const ORIGIN = 'https://webview.test';

/** What the fake API leaves on the page's global object (the root tsconfig has no DOM lib). */
interface PageGlobals {
  __posted: ViewToHost[];
  __violations: string[];
  postMessage(message: unknown, targetOrigin: string): void;
}

const REPO = resolve(__dirname, '../../..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FAKE_API = `
(() => {
  window.__posted = [];
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__violations.push(e.violatedDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sample || ''));
  });
  let acquired = false;
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error('acquireVsCodeApi called twice');
    acquired = true;
    return {
      postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
      getState: () => { const s = sessionStorage.getItem('vscode-state'); return s ? JSON.parse(s) : undefined; },
      setState: (s) => sessionStorage.setItem('vscode-state', JSON.stringify(s)),
    };
  };
})();
`;

const TYPES: Record<string, string> = { js: 'text/javascript', css: 'text/css', ttf: 'font/ttf', svg: 'image/svg+xml' };

/** The four themes whose real --vscode-* variables test/webview/themes/ holds (captured from code-server). */
export const THEMES = ['light-modern', 'dark-modern', 'hc-dark', 'hc-light'] as const;
export type ThemeName = (typeof THEMES)[number];

export interface HarnessOptions {
  /** Theme variables from test/webview/themes/<theme>.css; default: the small dark stand-in theme.css. */
  theme?: ThemeName;
  /**
   * Load axe-core (node_modules/axe-core/axe.min.js) into the page the way its CSP allows: a
   * second <script> carrying the page's nonce, served from the page's own origin. The CSP is
   * unchanged and still enforced (violations are recorded as in every test).
   */
  axe?: boolean;
}

/** An axe-core result, reduced to what a failing assertion should print. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string; summary: string }[];
}

export class Harness {
  /** Every URL the page tried to fetch outside our own files (remote images, anything else). */
  readonly external: string[] = [];
  private constructor(
    readonly context: BrowserContext,
    public page: Page,
    private readonly profile: string,
    readonly options: HarnessOptions,
  ) {}

  /** A new tab (fresh sessionStorage, so fresh webview state) with the view loaded. */
  async fresh(): Promise<void> {
    const old = this.page;
    this.page = await this.context.newPage();
    await old.close();
    this.external.length = 0;
    await this.open();
  }

  static async launch(options: HarnessOptions = {}): Promise<Harness> {
    const profile = mkdtempSync(join(tmpdir(), 'reasonix-webview-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const h = new Harness(context, page, profile, options);
    await context.addInitScript(FAKE_API);
    await context.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      if (url.origin !== ORIGIN) {
        h.external.push(url.href);
        return route.fulfill({ status: 404, body: '' });
      }
      if (url.pathname === '/index.html') {
        const nonce = newNonce();
        const theme = options.theme ? `themes/${options.theme}` : 'theme';
        let html = surfacesHtml({
          cspSource: ORIGIN,
          nonce,
          scriptUri: `${ORIGIN}/dist/webview.js`,
          styleUris: [
            `${ORIGIN}/test/webview/${theme}.css`,
            `${ORIGIN}/dist/codicon.css`,
            `${ORIGIN}/media/webview.css`,
          ],
          title: 'Reasonix Surfaces',
        });
        if (options.axe)
          html = html.replace(
            `<script nonce="${nonce}"`,
            `<script nonce="${nonce}" src="${ORIGIN}/node_modules/axe-core/axe.min.js"></script>\n    <script nonce="${nonce}"`,
          );
        return route.fulfill({ status: 200, contentType: 'text/html', body: html });
      }
      const rel = url.pathname.replace(/^\/+/, '');
      const allowed =
        /^(dist|media|test\/webview|test\/webview\/themes)\/[\w.-]+$/.test(rel) ||
        (options.axe && rel === 'node_modules/axe-core/axe.min.js');
      if (!allowed) return route.fulfill({ status: 404, body: '' });
      try {
        const body = readFileSync(join(REPO, rel));
        return route.fulfill({
          status: 200,
          contentType: TYPES[rel.split('.').pop() ?? ''] ?? 'application/octet-stream',
          body,
        });
      } catch {
        return route.fulfill({ status: 404, body: '' });
      }
    });
    return h;
  }

  /** Open (or reopen) the view and wait until it says ready. */
  async open(): Promise<void> {
    await this.page.goto(`${ORIGIN}/index.html`);
    await this.waitForPosted((m) => m.type === 'ready');
  }

  async reload(): Promise<void> {
    await this.page.reload();
    await this.waitForPosted((m) => m.type === 'ready');
  }

  async send(...messages: HostToView[]): Promise<void> {
    await this.page.evaluate((ms) => {
      const w = globalThis as unknown as PageGlobals;
      for (const m of ms) w.postMessage(m, '*');
    }, messages);
    // postMessage is async; a round trip through the same queue guarantees they were handled.
    await this.page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
  }

  async posted(): Promise<ViewToHost[]> {
    return this.page.evaluate(() => (globalThis as unknown as PageGlobals).__posted);
  }

  async clearPosted(): Promise<void> {
    await this.page.evaluate(() => {
      (globalThis as unknown as PageGlobals).__posted.length = 0;
    });
  }

  waitForPosted(pred: (m: ViewToHost) => boolean, timeoutMs = 10_000): Promise<ViewToHost> {
    return waitFor(
      async () => {
        const posted = await this.posted();
        const found = posted.find(pred);
        if (found) return found;
        throw new RetryableError(`posted: ${JSON.stringify(posted).slice(0, 500)}`);
      },
      { timeoutMs, what: 'the view to post the expected message', intervalMs: 20 },
    );
  }

  /**
   * axe-core over the whole page (shadow roots included) with the WCAG 2.x A/AA rules and best
   * practices, colour contrast on. Returns the violations of impact `minImpact` or worse.
   */
  async axe(minImpact: 'serious' | 'critical' = 'serious'): Promise<AxeViolation[]> {
    if (!this.options.axe) throw new Error('Harness.axe(): launch the harness with { axe: true }');
    const all = await this.page.evaluate(async () => {
      type Raw = {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[]; failureSummary?: string }[];
      };
      const axe = (
        globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: Raw[] }> } }
      ).axe;
      const r = await axe.run((globalThis as unknown as { document: unknown }).document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
        rules: { 'color-contrast': { enabled: true } },
        resultTypes: ['violations'],
      });
      return r.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({
          target: JSON.stringify(n.target),
          summary: (n.failureSummary ?? '').slice(0, 300),
        })),
      }));
    });
    const rank = { minor: 0, moderate: 1, serious: 2, critical: 3 } as Record<string, number>;
    return all.filter((v) => (rank[v.impact ?? 'minor'] ?? 0) >= rank[minImpact]);
  }

  async violations(): Promise<string[]> {
    return this.page.evaluate(() => (globalThis as unknown as PageGlobals).__violations);
  }

  async close(): Promise<void> {
    await this.context.close();
    rmSync(this.profile, { recursive: true, force: true });
  }
}

/**
 * Mocha wiring for a describe block: one harness launched with `options` for the block, a fresh
 * page before each test, and no CSP violation after any (`why` adds to that assertion's message).
 * Returns the harness (available from the first before-each on).
 */
export function useHarness(options: HarnessOptions = {}, why = ''): () => Harness {
  let h: Harness | undefined;
  const harness = (): Harness => {
    if (!h) throw new Error('the harness is launched in before()');
    return h;
  };
  before(async () => {
    h = await Harness.launch(options);
  });
  after(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    await harness().fresh();
  });
  afterEach(async () => {
    assert.deepEqual(await harness().violations(), [], `no CSP violations${why}`);
  });
  return harness;
}
