// The page on a tool's card in an MCP Apps host (issue 41; VS Code's chat draws it on the card):
// it answers the handshake, takes the host's theme variables, learns the Reasonix call id (from
// the tool result's `_meta`, or before the result by asking with the call's tool and arguments),
// and draws every view anchored to that call with the Surfaces view's own renderer (ViewView: one
// renderer, two hosts), long-polling the server's app-only read tool for the next generation
// (each generation drawn once, patched in place: no flicker). A button runs through the
// app-only action tool, the sidebar's action path on the server. When no view comes for the call
// (a short wait after its result) the page says so in one line; a call of an older transcript (its
// server no longer knows it and it has no views) says its view is no longer live, at once.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { Surface } from '../../src/webviewProtocol/messages';
import type { ViewContext } from '../dom/context';
import { h } from '../dom/h';
import { ViewView } from '../dom/viewNodes';
import { ViewState } from '../state';
import { connectHost } from './rpc';
import { cardText, useLocale } from './strings';

const CALL_ID_KEY = 'reasonix/callId';
const READ_TOOL = 'reasonix_view_read';
const ACTION_TOOL = 'reasonix_view_action';
const PROTOCOL_VERSION = '2026-01-26';
/** How long after the call's result the page waits for a first view before saying none came. */
const NO_VIEW_MS = 2_500;

type Json = Record<string, unknown>;
interface CardView {
  key: string;
  surface: Surface;
}

const root = document.getElementById('root') ?? document.body.appendChild(document.createElement('main'));
const note = h('p', { class: 'card-note', role: 'status', 'aria-live': 'polite' });
root.append(note);
type NoteKey = 'cardWaiting' | 'cardNoView' | 'cardNotLive' | 'cardUnreadable';
let noteKey: NoteKey | undefined;
let noteArg = '';
/** Shows one of the page's own lines (undefined: none), in the host's language. */
function showNote(key: NoteKey | undefined, arg = ''): void {
  noteKey = key;
  noteArg = arg;
  note.hidden = key === undefined;
  note.textContent = key ? cardText(key, arg) : '';
}

/** The host context's theme: `--vscode-*` (and the spec's standard) variables onto the page. */
function applyContext(ctx: Json | undefined): void {
  const styles = ctx?.styles as { variables?: Record<string, unknown> } | undefined;
  for (const [k, v] of Object.entries(styles?.variables ?? {}))
    if (k.startsWith('--') && typeof v === 'string') document.documentElement.style.setProperty(k, v);
  if (ctx?.theme === 'dark' || ctx?.theme === 'light') document.documentElement.dataset.theme = ctx.theme;
  // The host's own id of the tool call (VS Code's, non-standard): kept on the page for tests and tools.
  const toolCallId = (ctx?.toolCall as Json | undefined)?.toolCallId;
  if (typeof toolCallId === 'string') document.body.dataset.toolCallId = toolCallId;
  if (ctx && 'locale' in ctx) {
    useLocale(ctx.locale);
    showNote(noteKey, noteArg);
  }
}

const views = new Map<string, ViewView>();
const waiting = new Map<string, (r: { accepted: boolean; message?: string }) => void>();
let callId: string | undefined;
/** The call's arguments (tool-input): enough to find its call id before its result brings it. */
let toolArgs: Json | undefined;
let polling = false;
let stopped = false;
let token: string | undefined;
/** Whether the call's result has arrived (then a call without views gets NO_VIEW_MS, not for ever). */
let resulted = false;
let noViewTimer: ReturnType<typeof setTimeout> | undefined;

const peer = connectHost(
  (method, params) => {
    if (method === 'ui/notifications/tool-input') {
      toolArgs = (params.arguments ?? {}) as Json;
      void poll();
    } else if (method === 'ui/notifications/tool-result') {
      const id = (params._meta as Json | undefined)?.[CALL_ID_KEY];
      if (typeof id === 'string' && id !== callId) {
        callId = id;
        token = undefined;
      }
      resulted = true;
      if (views.size === 0) noViewSoon();
      void poll();
    } else if (method === 'ui/notifications/host-context-changed') applyContext(params);
  },
  (method) => {
    if (method === 'ping') return {};
    if (method === 'ui/resource-teardown') {
      stopped = true;
      return {};
    }
    return undefined;
  },
);

const memory: { s?: unknown } = {};
const ctx: ViewContext = {
  // A button: the app-only action tool, answered as the sidebar's `actionResult`.
  post: (m) => {
    if (m.type !== 'runAction' || !callId) return;
    const done = waiting.get(m.requestId);
    waiting.delete(m.requestId);
    peer
      .request('tools/call', { name: ACTION_TOOL, arguments: { callId, key: m.key, actionId: m.actionId } })
      .then((r) => {
        const s = r.structuredContent as { accepted?: boolean; message?: string } | undefined;
        done?.({ accepted: s?.accepted === true, ...(s?.message ? { message: s.message } : {}) });
      })
      .catch((e: Error) => done?.({ accepted: false, message: e.message }));
  },
  state: new ViewState({ postMessage: () => undefined, getState: () => memory.s, setState: (s) => (memory.s = s) }),
  expect: (requestId, onResult) => waiting.set(requestId, onResult),
};

/** Draws one state: each view patched in place (an unchanged revision is not touched), gone ones removed. */
function draw(list: CardView[]): void {
  const keep = new Set(list.map((v) => v.key));
  for (const [key, v] of views)
    if (!keep.has(key)) {
      v.el.remove();
      views.delete(key);
    }
  list.forEach(({ key, surface }, i) => {
    let v = views.get(key);
    if (!v) {
      v = new ViewView(ctx);
      v.el.dataset.key = key;
      views.set(key, v);
    }
    v.update(surface);
    if (root.children[i] !== v.el) root.insertBefore(v.el, root.children[i] ?? note);
  });
  if (list.length > 0) {
    clearTimeout(noViewTimer);
    noViewTimer = undefined;
    showNote(undefined);
  } else if (resulted) noViewSoon();
}

/** After the result, a call still without views says so (once), instead of waiting for ever. */
function noViewSoon(): void {
  if (noViewTimer !== undefined || noteKey === 'cardNotLive') return;
  noViewTimer = setTimeout(() => {
    noViewTimer = undefined;
    if (views.size === 0 && noteKey !== 'cardNotLive' && noteKey !== 'cardUnreadable') showNote('cardNoView');
  }, NO_VIEW_MS);
}

/** Long-polls the read tool: one request at a time, each answer drawn once. */
async function poll(): Promise<void> {
  if (polling || stopped) return;
  polling = true;
  try {
    while (!stopped) {
      if (!callId && !toolArgs) return;
      const args: Json = callId ? { callId } : { arguments: toolArgs };
      if (token !== undefined) args.after = token;
      const r = await peer.request('tools/call', { name: READ_TOOL, arguments: args });
      const s = r.structuredContent as
        { callId?: string; token?: string; views?: CardView[]; live?: boolean } | undefined;
      if (!s || r.isError) {
        // The call has not reached the server yet: ask again shortly (its result brings the id too).
        await new Promise((done) => setTimeout(done, 500));
        continue;
      }
      if (!callId && typeof s.callId === 'string') callId = s.callId;
      if (s.token !== token) draw(s.views ?? []);
      token = s.token;
      if (s.live === false && views.size === 0 && noteKey !== 'cardNotLive') {
        // A call this server never made: an older transcript's card. Say so at once, but keep
        // asking (one read per 20 s): a view the extension publishes for it later is still drawn.
        clearTimeout(noViewTimer);
        noViewTimer = undefined;
        showNote('cardNotLive');
      }
    }
  } catch (e) {
    showNote('cardUnreadable', (e as Error).message);
  } finally {
    polling = false;
  }
}

/** Tells the host the page's height (the card sizes itself to it). */
let reported = -1;
function sizeChanged(): void {
  // The content's height, not the document's: a webview's document is at least its viewport (VS
  // Code starts a card at 300 px), so that would never let the card shrink to its view.
  const height = Math.ceil(
    root.getBoundingClientRect().bottom + parseFloat(getComputedStyle(document.body).paddingBottom),
  );
  if (height === reported) return;
  reported = height;
  peer.notify('ui/notifications/size-changed', { width: document.documentElement.scrollWidth, height });
}

async function start(): Promise<void> {
  showNote('cardWaiting');
  const init = await peer.request('ui/initialize', {
    appInfo: { name: 'reasonix-view', version: '1' },
    appCapabilities: {},
    protocolVersion: PROTOCOL_VERSION,
  });
  applyContext(init.hostContext as Json | undefined);
  peer.notify('ui/notifications/initialized', {});
  new ResizeObserver(sizeChanged).observe(root);
  sizeChanged();
  void poll();
}

void start();
