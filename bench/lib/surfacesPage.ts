// What the Surfaces figures (panelUpdate, cardUpdate, reasonixSurfaceUpdate) share: the UI fixture
// sidecar they publish from, the sidebar webview connected to its store, a marker watch that times
// a publish to the first DOM change showing it, and rounds interleaved so that drift in machine load
// hits both sides of a ratio alike.
import type { Frame, Page } from 'playwright-core';
import { Sidecar } from '../../src/host/sidecar';
import { attachSidecar, SurfaceStore, uiHandlers, UiHub } from '../../src/host/ui';
import type { HostToView } from '../../src/webviewProtocol/messages';
import { surfacesHubOver } from '../../test/webview/engine';
import type { Harness } from '../../test/webview/harness';
import { fixtureSpec, ROOT } from '../../test/unit/streams/real-support';

const noop = () => undefined;

/** What the watch leaves on a page's or frame's global object (the root tsconfig has no DOM lib). */
interface WatchHooks {
  __expect(sel: string, marker: string): void;
  __seen(marker: string): void;
  MutationObserver: new (cb: () => void) => { observe(t: unknown, o: object): void };
  document: { body: unknown; querySelector(s: string): { textContent: string | null } | null };
  postMessage(m: unknown, o: string): void;
}

/** The UI fixture sidecar (test/fixtures/ui/ui.js, protocol v2) behind a UI hub over its own store. */
export function uiFixture(): { store: SurfaceStore; hub: UiHub; sidecar: Sidecar } {
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
  return { store, hub, sidecar };
}

/** Publishes a surface through the fixture's `publish-raw` action; refuses the figure if the hub did. */
export async function publishRaw(hub: UiHub, kind: string, surfaceId: string, payload: object): Promise<void> {
  const r = await hub.invokeAction('ui', 'publish-raw', { kind, surfaceId, payload: JSON.stringify(payload) });
  if (!r.message?.includes('"accepted":true')) throw new Error(`bench publish refused: ${r.message}`);
}

/** A card or panel body that changes with each publish (a marker, a step, progress) beside fixed parts. */
export function benchCardPayload(title: string, i: number, updates: number, marker: string): object {
  return {
    title,
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
  };
}

/**
 * One MutationObserver per watched page or frame; `time` measures from its act to the first DOM
 * mutation after which `sel` shows the marker (textContent of one element per mutation batch:
 * cheap next to a render).
 */
export class MarkerWatch {
  private arrived: ((marker: string) => void) | undefined;

  /** Reports markers from `page` and every frame in it (`__seen` is exposed to all its frames). */
  async expose(page: Page): Promise<void> {
    await page.exposeFunction('__seen', (marker: string) => this.arrived?.(marker));
  }

  /** Starts watching in `target` (the page itself, or a frame of an exposed page). */
  async observe(target: Page | Frame): Promise<void> {
    await target.evaluate(() => {
      const w = globalThis as unknown as WatchHooks & { __want?: { sel: string; marker: string } };
      w.__expect = (sel, marker) => (w.__want = { sel, marker });
      new w.MutationObserver(() => {
        const want = w.__want;
        if (!want) return;
        if (w.document.querySelector(want.sel)?.textContent?.includes(want.marker)) {
          w.__want = undefined;
          w.__seen(want.marker);
        }
      }).observe(w.document.body, { childList: true, subtree: true, characterData: true, attributes: true });
    });
  }

  /** Milliseconds from `act` to `sel` showing `marker` in `target`; `act`'s own answer is awaited after. */
  async time(target: Page | Frame, sel: string, marker: string, act: () => Promise<unknown>): Promise<number> {
    await target.evaluate(([s, m]) => (globalThis as unknown as WatchHooks).__expect(s, m), [sel, marker] as const);
    const seen = new Promise<void>((resolve) => (this.arrived = (m) => m === marker && resolve()));
    const t0 = process.hrtime.bigint();
    const acted = act();
    await seen;
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    await acted;
    return ms;
  }
}

/** The Surfaces sidebar (dist/webview.js) open in `web`, fed from `store` by the extension's own hub, watched. */
export async function openSidebar(web: Harness, store: SurfaceStore, watch: MarkerWatch): Promise<void> {
  await web.open();
  await watch.expose(web.page);
  await watch.observe(web.page);
  const conn = surfacesHubOver(store).connect({
    post: (m: HostToView) =>
      void web.page.evaluate((msg) => (globalThis as unknown as WatchHooks).postMessage(msg, '*'), m).catch(noop),
  });
  await conn.receive({ type: 'ready' });
}

/**
 * `updates` samples of each side, taken in four interleaved rounds (each side in `order` per round).
 * Publish 0 of each side creates its surface and is not kept.
 */
export async function interleaved<K extends string>(
  updates: number,
  order: readonly K[],
  sample: (side: K, i: number) => Promise<number>,
): Promise<Record<K, number[]>> {
  const out = Object.fromEntries(order.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  const rounds = 4;
  const per = updates / rounds;
  for (let r = 0; r < rounds; r++) {
    const from = r === 0 ? 0 : r * per + 1;
    const to = (r + 1) * per + 1;
    for (const side of order)
      for (let i = from; i < to; i++) {
        const ms = await sample(side, i);
        if (i > 0) out[side].push(ms);
      }
  }
  return out;
}
