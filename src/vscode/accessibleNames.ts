// What a screen reader says for a plugin row and for the status bar item: the plugin, then its
// state, then its pid ("showcase, running, pid 1234"), so the state is heard, not only seen as an
// icon colour. Plain text; the VS Code face puts it in `accessibilityInformation`.
import { formatUptime, type PluginRow } from './displayStates';

/** "showcase, running, pid 1234, up 3m 05s"; folder-qualified when `withFolder`. */
export function pluginAccessibleName(
  row: Pick<PluginRow, 'pluginId' | 'folderName' | 'state' | 'pid' | 'readyAt'>,
  now = Date.now(),
  withFolder = false,
): string {
  const parts = [withFolder ? `${row.pluginId} in ${row.folderName}` : row.pluginId, row.state];
  if (row.pid) parts.push(`pid ${row.pid}`);
  if (row.state === 'running' && row.readyAt) parts.push(`up ${formatUptime(now - row.readyAt)}`);
  return parts.join(', ');
}

/** "Reasonix: showcase, running, pid 1234; hello, crashed" (no uptime: the item is re-read often). */
export function statusBarAccessibleName(
  rows: readonly Pick<PluginRow, 'pluginId' | 'folderName' | 'state' | 'pid'>[],
): string {
  if (rows.length === 0) return 'Reasonix: no extensions';
  const multiFolder = rows.some((r) => r.folderName !== rows[0].folderName);
  return `Reasonix: ${rows.map((r) => pluginAccessibleName({ ...r, readyAt: undefined }, 0, multiFolder)).join('; ')}`;
}
