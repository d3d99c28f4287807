// Flattens every session's plugins into the rows the tree, status bar and API show.
import { toDisplayState, type PluginRow } from './displayStates';
import type { PluginStatus } from '../host/session';
import type { FolderSession } from './sessions';

export interface Row extends PluginRow {
  status: PluginStatus;
  session: FolderSession;
}

export function rowsOf(sessions: readonly FolderSession[]): Row[] {
  const out: Row[] = [];
  for (const session of sessions) {
    for (const p of session.engine.plugins()) {
      out.push({
        sessionKey: session.key,
        folderName: session.folder.name,
        pluginId: p.pluginId,
        state: toDisplayState(p.state),
        pid: p.pid,
        readyAt: p.readyAt,
        detail: p.lastFailure ? `${p.lastFailure.stage}: ${p.lastFailure.message}` : p.detail,
        status: p,
        session,
      });
    }
  }
  return out;
}
