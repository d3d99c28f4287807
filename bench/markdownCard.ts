// Figure: a card with pathological Markdown (issue 38 item 3) rendered in the Surfaces webview,
// against the same bytes as one plain text node. The built dist/webview.js runs in headless
// Chromium under its real CSP (test/webview/harness.ts). Each message is put into the page first
// (not timed: the DevTools transfer of megabytes is no part of the view's work), then timed inside
// the page from postMessage to the next painted frame: the handler, style, layout and a frame.
// Before the bounds these cases took from 17 s to over 21 minutes; value and floor alternate per
// sample so load spikes hit both. ratio = median Markdown / median plain text, per case; the
// figure's value is the worst case's.
import type { HostToView } from '../src/webviewProtocol/messages';
import { card } from '../test/unit/webview/fixtures';
import { Harness } from '../test/webview/harness';
import { round, summarize, type Figure } from './lib/stats';

export interface MarkdownCase {
  bytes: number;
  markdownMs: number;
  plainTextMs: number;
  ratio: number;
  /** Nodes under the card's Markdown after the render (its first page and the Show more button). */
  domNodes: number;
}
export interface MarkdownCardFigure extends Figure {
  worstCase: string;
  samples: number;
  cases: Record<string, MarkdownCase>;
}

interface PageHooks {
  __msg: unknown;
  postMessage(m: unknown, o: string): void;
  setTimeout(f: () => void, ms: number): void;
  requestAnimationFrame(f: () => void): void;
  performance: { now(): number };
  document: {
    body: { offsetHeight: number };
    querySelector(s: string): unknown;
    createTreeWalker(root: unknown, what: number): { nextNode(): unknown };
  };
}

const MiB = 1024 * 1024;
const rep = (s: string, n: number) => s.repeat(Math.ceil(n / s.length)).slice(0, n);

/** The worst cases of issue 38, and a card at the 8 MiB frame limit. */
export function markdownCases(): Record<string, string> {
  return {
    card6MB: rep(
      'Build **step** finished in `3.2 s`: see [the log](https://example.com/log) and *notes*.\n\n',
      6 * MiB,
    ),
    starA300KB: rep('*a', 300 * 1024),
    oneParagraph1MB: rep('word *em* `c` ', MiB),
    inline80k: rep('*x* ', 320_000),
    frameLimit8MiB: rep('*a', 8 * MiB - 4096),
  };
}

export async function benchMarkdownCard(quick: boolean): Promise<MarkdownCardFigure> {
  const samples = quick ? 3 : 7;
  const web = await Harness.launch();
  try {
    await web.open();
    const page = web.page;
    let n = 0;
    /** postMessage → handled → layout → the next frame, in ms, measured in the page. */
    const render = async (payload: { markdown?: string; text?: string }): Promise<number> => {
      const msg: HostToView = {
        type: 'snapshot',
        surfaces: [card({ title: 'Bench', ...payload }, { surfaceId: `md${++n}` })],
        emptyState: null,
        prompts: [],
        drafts: {},
      };
      await page.evaluate((m) => void ((globalThis as unknown as PageHooks).__msg = m), msg);
      return page.evaluate(async () => {
        const w = globalThis as unknown as PageHooks;
        const tick = () => new Promise<void>((r) => w.setTimeout(r, 0));
        const t0 = w.performance.now();
        w.postMessage(w.__msg, '*');
        await tick();
        void w.document.body.offsetHeight;
        await new Promise<void>((r) => w.requestAnimationFrame(() => w.setTimeout(r, 0)));
        const ms = w.performance.now() - t0;
        w.__msg = undefined;
        return ms;
      });
    };
    const domNodes = () =>
      page.evaluate(() => {
        const d = (globalThis as unknown as PageHooks).document;
        const walker = d.createTreeWalker(d.querySelector('.markdown'), 0xffffffff);
        let count = 0;
        while (walker.nextNode()) count++;
        return count;
      });
    const clear = () =>
      page.evaluate(() =>
        (globalThis as unknown as PageHooks).postMessage(
          { type: 'snapshot', surfaces: [], emptyState: null, prompts: [], drafts: {} },
          '*',
        ),
      );

    const cases: Record<string, MarkdownCase> = {};
    for (const [name, markdown] of Object.entries(markdownCases())) {
      await render({ markdown }); // warm-up (and the parser's first use)
      await clear();
      const md: number[] = [];
      const plain: number[] = [];
      let nodes = 0;
      for (let i = 0; i < samples; i++) {
        const mdFirst = i % 2 === 0;
        if (!mdFirst) {
          plain.push(await render({ text: markdown }));
          await clear();
        }
        md.push(await render({ markdown }));
        nodes = await domNodes();
        await clear();
        if (mdFirst) {
          plain.push(await render({ text: markdown }));
          await clear();
        }
      }
      const m = summarize(md).median;
      const p = summarize(plain).median;
      cases[name] = {
        bytes: markdown.length,
        markdownMs: round(m),
        plainTextMs: round(p),
        ratio: round(m / p),
        domNodes: nodes,
      };
    }
    const [worstCase, worst] = Object.entries(cases).sort((a, b) => b[1].ratio - a[1].ratio)[0];
    const goal = 1.5;
    return {
      unit: 'ms',
      value: worst.markdownMs,
      floor: worst.plainTextMs,
      ratio: worst.ratio,
      goal: `ratio <= ${goal} in every case`,
      met: worst.ratio <= goal,
      worstCase,
      samples,
      cases,
      notes:
        "value = median ms from postMessage to the next painted frame for a card of that Markdown in the webview (Chromium), worst case by ratio; floor = the same bytes as the card's plain text (one text node)",
    };
  } finally {
    await web.close().catch(() => undefined);
  }
}
