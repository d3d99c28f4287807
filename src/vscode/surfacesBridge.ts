// Connects the Surfaces webview (src/vscode/surfaces, another module's view) to the sessions:
// the window-wide surface store as its source, and card buttons / form submits routed to the
// session and plugin they came from.
import * as vscode from 'vscode';
import type { SurfaceStore } from '../host/ui';
import type { SessionSurfaceTarget } from './reasonixSessions/register';
import { rowsOf } from './rows';
import type { SessionManager } from './sessions';
import type { EmptyState, SurfaceSink, SurfacesViewFeed } from './surfaces';

export function surfacesViewFeed(
  store: SurfaceStore,
  sessions: SessionManager,
  isTrusted: () => boolean,
): SurfacesViewFeed {
  const emptyState = (): EmptyState => {
    if (!isTrusted()) return 'untrusted';
    const rows = rowsOf(sessions.sessions());
    if (rows.length === 0) return 'no-extensions';
    if (!rows.some((r) => r.state === 'running' || r.state === 'starting')) return 'all-stopped';
    return null;
  };
  return {
    snapshot: () => store.snapshot(),
    byKey: (key) => store.byKey(key),
    onDidChange: (l) => {
      const d = store.onDidChange(l);
      return new vscode.Disposable(() => d.dispose());
    },
    emptyState,
    onDidChangeEmptyState: (l) => {
      let last = emptyState();
      const subs = [
        sessions.onDidChange(() => {
          const now = emptyState();
          if (now !== last) {
            last = now;
            l();
          }
        }),
        vscode.workspace.onDidGrantWorkspaceTrust(() => l()),
      ];
      return vscode.Disposable.from(...subs);
    },
  };
}

/**
 * `others`: the surfaces' sources that are not a folder session VS Code hosts (a Reasonix session's
 * hub, issue 44), by session key; the same buttons and forms reach them.
 */
export function surfaceSink(sessions: SessionManager, others?: ReadonlyMap<string, SessionSurfaceTarget>): SurfaceSink {
  const engineOf = (key: string) => {
    const other = others?.get(key);
    if (other) return other;
    const s = sessions.get(key);
    if (!s) throw new Error("that folder's Reasonix session is no longer running");
    return s.engine;
  };
  return {
    runAction: async (origin, actionId) => {
      try {
        return await engineOf(origin.sessionKey).invokeAction(origin.pluginId, actionId);
      } catch (err) {
        return { accepted: false, message: (err as Error).message };
      }
    },
    submitForm: async (origin, surfaceId, values) => {
      try {
        return await engineOf(origin.sessionKey).submit(origin.pluginId, surfaceId, values);
      } catch (err) {
        return { accepted: false, message: (err as Error).message };
      }
    },
  };
}
