// Views on a tool's card in an MCP client's chat (issue 41, MCP Apps): the views a folder's
// extensions anchored to one call (`anchor: "tool:<callId>"`, HOST_SPEC_V2 §7.3), read from the one
// surface store the sidebar reads (so they arrive decoded, limited and redacted by the UI hub, like
// the sidebar's), and the two tools only the page on the card may call (`_meta.ui.visibility:
// ["app"]`: never shown to the model): read the views (long-polled for the next generation) and
// run a button's action through the sidebar's path (the view must show that button and be live,
// then the hub's declared-action check; an undeclared action sends nothing and says so).
import { surfaceKey, offersAction, type Surface, type ViewPayload } from '../../protocol';
import type { Disposable } from '../emitter';
import { redact } from '../redact';
import type { ActionResult, SurfaceFeed } from '../ui';

/** What the server reads of a folder's anchored views. */
export interface AnchoredViews {
  /** The folder's views anchored to `tool:<callId>` now, in the order they were first published. */
  views(callId: string): ViewSurface[];
  /** Fires on every change of the store (the reader compares what it asked about). */
  onDidChange(listener: () => void): Disposable;
  /** The hub's action path: the declared-action check, the live client, the current session. */
  invokeAction(pluginId: string, actionId: string): Promise<ActionResult>;
}

export type ViewSurface = Surface & { kind: 'view'; payload: ViewPayload };

/** A folder's session as far as its views go. */
export interface ViewSession {
  /** The key its surfaces are stored under. */
  sessionKey: string;
  invokeAction(pluginId: string, actionId: string): Promise<ActionResult>;
}

/**
 * The anchored views of a folder's session over a surface feed (the window's store, or a headless
 * session's). `session` is asked each time: a window's folder session may be replaced meanwhile.
 */
export function anchoredViews(feed: SurfaceFeed, session: () => ViewSession | undefined): AnchoredViews {
  return {
    views: (callId) => {
      const anchor = `tool:${callId}`;
      const key = session()?.sessionKey;
      return feed
        .snapshot()
        .filter((s): s is ViewSurface => s.kind === 'view' && s.sessionKey === key && s.payload.anchor === anchor)
        .sort((a, b) => (a.firstRevision ?? a.revision) - (b.firstRevision ?? b.revision));
    },
    onDidChange: (listener) => feed.onDidChange(() => listener()),
    invokeAction: async (pluginId, actionId) => {
      const s = session();
      if (!s) return { accepted: false, message: 'no Reasonix session serves this folder any more' };
      return s.invokeAction(pluginId, actionId);
    },
  };
}

/** The app-only tools' names (no `ext__` prefix, so they never collide with an extension's tool). */
export const VIEW_READ_TOOL = 'reasonix_view_read';
export const VIEW_ACTION_TOOL = 'reasonix_view_action';

/** How long a read waits for the next generation before it answers the same one (a client's request timeout is 60 s). */
export const VIEW_POLL_MS = 20_000;

/** One view as the page draws it: the surface the sidebar draws, key included. */
export interface CardView {
  key: string;
  surface: ViewSurface;
}

/** What a read answers: the views, and the token of this state to send back for the next one. */
export interface CardViews {
  callId: string;
  /** Changes exactly when a view of the call is added, re-published, marked stopped or removed. */
  token: string;
  views: CardView[];
}

function stateOf(source: AnchoredViews, callId: string): CardViews {
  const views = source.views(callId).map((surface) => ({ key: surfaceKey(surface), surface }));
  const token = views.map((v) => `${v.key}@${v.surface.revision}${v.surface.stale ? 's' : ''}`).join('|');
  return { callId, token, views };
}

/**
 * The views anchored to `callId`: at once when their token differs from `after` (or no token was
 * given), else when they next change, else after `waitMs` (the same state again; the page asks again).
 */
export function readCardViews(
  source: AnchoredViews,
  callId: string,
  after: string | undefined,
  signal: AbortSignal | undefined,
  waitMs = VIEW_POLL_MS,
): Promise<CardViews> {
  const now = stateOf(source, callId);
  if (after === undefined || now.token !== after || signal?.aborted) return Promise.resolve(now);
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      sub.dispose();
      signal?.removeEventListener('abort', finish);
      resolve(stateOf(source, callId));
    };
    const sub = source.onDidChange(() => {
      if (stateOf(source, callId).token !== after) finish();
    });
    // A read left waiting when its client goes away never keeps the process alive.
    const timer = setTimeout(finish, waitMs);
    timer.unref?.();
    signal?.addEventListener('abort', finish, { once: true });
  });
}

/**
 * A button pressed on the card: run only when a view anchored to `callId` shows the button for
 * `actionId` and its extension still runs; then the hub's path, which sends nothing for an action
 * the extension did not declare and says so. Never throws; every refusal says why.
 */
export async function runCardAction(
  source: AnchoredViews,
  callId: string,
  key: string,
  actionId: string,
): Promise<ActionResult> {
  const view = source.views(callId).find((s) => surfaceKey(s) === key);
  if (!view) return { accepted: false, message: 'this view is no longer shown for this tool call; nothing was sent' };
  if (!offersAction(view, actionId))
    return {
      accepted: false,
      message: `the view of ${view.pluginId} shows no button for the action ${redact(actionId)}; nothing was sent`,
    };
  if (view.stale)
    return {
      accepted: false,
      message: `${view.pluginId} has stopped; its buttons work again when it runs (Reasonix: Reload Runtime)`,
    };
  try {
    return await source.invokeAction(view.pluginId, actionId);
  } catch (err) {
    return { accepted: false, message: `${redact(String((err as Error)?.message ?? err))}; nothing was sent` };
  }
}
