// What a screen reader says for a plugin row and for the status bar item: the plugin, then its
// state, then its pid ("showcase, running, pid 1234"), so the state is heard, not only seen as an
// icon colour. Plain text; the VS Code face puts it in `accessibilityInformation`.
import { formatUptime, stateWord, type PluginRow } from './displayStates';
import { english, type L10n } from './l10nText';

/** "showcase, running, pid 1234, up 3m 05s"; folder-qualified when `withFolder`. */
export function pluginAccessibleName(
  row: Pick<PluginRow, 'pluginId' | 'folderName' | 'state' | 'pid' | 'readyAt'>,
  now = Date.now(),
  withFolder = false,
  l10n: L10n = english,
): string {
  const parts = [
    withFolder ? l10n.t('{0} in {1}', row.pluginId, row.folderName) : row.pluginId,
    stateWord(row.state, l10n),
  ];
  if (row.pid) parts.push(l10n.t('pid {0}', row.pid));
  if (row.state === 'running' && row.readyAt) parts.push(l10n.t('up {0}', formatUptime(now - row.readyAt)));
  return parts.join(l10n.t(', '));
}

/** "Reasonix: showcase, running, pid 1234; hello, crashed" (no uptime: the item is re-read often). */
export function statusBarAccessibleName(
  rows: readonly Pick<PluginRow, 'pluginId' | 'folderName' | 'state' | 'pid'>[],
  l10n: L10n = english,
): string {
  if (rows.length === 0) return l10n.t('Reasonix: no extensions');
  const multiFolder = rows.some((r) => r.folderName !== rows[0].folderName);
  return l10n.t(
    'Reasonix: {0}',
    rows.map((r) => pluginAccessibleName({ ...r, readyAt: undefined }, 0, multiFolder, l10n)).join('; '),
  );
}
