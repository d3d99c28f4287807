// The Extensions view: folders (in multi-root) → plugins with state, pid, uptime and the FULL
// TRUST summary in the tooltip. Inline restart/stop/start/logs come from package.json menus keyed
// on `contextValue` = `plugin.<state>[.linked]`.
import * as vscode from 'vscode';
import { formatUptime, fullTrustLines, type DisplayState } from '../host/supervision';
import { rowsOf, type Row } from './rows';
import type { FolderSession, SessionManager } from './sessions';

const ICONS: Record<DisplayState, vscode.ThemeIcon> = {
  starting: new vscode.ThemeIcon('loading~spin'),
  running: new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed')),
  crashed: new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground')),
  failed: new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')),
  stopped: new vscode.ThemeIcon('debug-stop'),
  disabled: new vscode.ThemeIcon('circle-slash'),
};

export type Node = { kind: 'folder'; session: FolderSession } | { kind: 'plugin'; row: Row };

export class SupervisionTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly subs: vscode.Disposable[] = [];
  private tick: NodeJS.Timeout | undefined;

  constructor(private readonly sessions: SessionManager) {
    this.subs.push(sessions.onDidChange(() => this.refresh()));
    // Uptime in descriptions: refresh twice a minute while something runs.
    this.tick = setInterval(() => this.refresh(), 30_000);
  }

  refresh(): void {
    this.emitter.fire(undefined);
  }

  getChildren(node?: Node): Node[] {
    const sessions = this.sessions.sessions();
    if (!node) {
      if (sessions.length > 1) return sessions.map((session) => ({ kind: 'folder', session }));
      return rowsOf(sessions).map((row) => ({ kind: 'plugin', row }));
    }
    if (node.kind === 'folder') return rowsOf([node.session]).map((row) => ({ kind: 'plugin', row }));
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'folder') {
      const item = new vscode.TreeItem(node.session.folder.name, vscode.TreeItemCollapsibleState.Expanded);
      item.iconPath = vscode.ThemeIcon.Folder;
      item.description = `generation ${node.session.engine.generation}`;
      item.contextValue = 'folder';
      return item;
    }
    return pluginItem(node.row);
  }

  dispose(): void {
    if (this.tick) clearInterval(this.tick);
    this.subs.forEach((d) => d.dispose());
    this.emitter.dispose();
  }
}

export function pluginItem(row: Row, now = Date.now()): vscode.TreeItem {
  const item = new vscode.TreeItem(row.status.spec?.displayName ?? row.pluginId, vscode.TreeItemCollapsibleState.None);
  item.id = `${row.sessionKey}#${row.pluginId}`;
  item.iconPath = ICONS[row.state];
  const bits: string[] = [row.state];
  if (row.pid) bits.push(`pid ${row.pid}`);
  if (row.state === 'running' && row.readyAt) bits.push(`up ${formatUptime(now - row.readyAt)}`);
  item.description = bits.join(' · ');
  const linked = row.status.spec?.source === 'linked' ? '.linked' : '';
  item.contextValue = `plugin.${row.state}${linked}`;
  const md = new vscode.MarkdownString(undefined, false);
  md.isTrusted = false;
  md.supportHtml = false;
  md.appendMarkdown(`**${row.pluginId}** — ${row.state}`);
  if (row.status.spec) md.appendMarkdown(` (v${row.status.spec.version}, ${row.status.spec.source})`);
  md.appendMarkdown('\n\n');
  if (row.detail) md.appendText(`${row.detail}\n\n`);
  if (row.status.spec) md.appendCodeblock(fullTrustLines(row.status.spec).join('\n'), 'text');
  if (row.status.actions.length) md.appendText(`Actions: ${row.status.actions.map((a) => `/${row.pluginId}:${a.actionId}`).join(', ')}`);
  item.tooltip = md;
  return item;
}
