// The Extensions view: folders (in multi-root) → plugins with state, pid, uptime and the FULL
// TRUST summary in the tooltip → the plugin's current `status` surfaces (severity icon, label,
// progress, detail), so a status is visible without hovering the status bar, then its protocol v2
// panels' titles (with their progress). Inline
// restart/stop/start/logs come from package.json menus keyed on `contextValue` =
// `plugin.<state>[.linked]`.
import * as vscode from 'vscode';
import { redact } from '../host/redact';
import type { SurfaceFeed } from '../host/session';
import { pluginAccessibleName } from './accessibleNames';
import { formatUptime, fullTrustLines, stateWord, type DisplayState } from './displayStates';
import { featuresOf, type Severity, type StatusPayload, type Surface } from '../protocol';
import { rowsOf, type Row } from './rows';
import type { SessionSurfaceTarget } from './reasonixSessions/register';
import type { FolderSession, SessionManager } from './sessions';

const ICONS: Record<DisplayState, vscode.ThemeIcon> = {
  starting: new vscode.ThemeIcon('loading~spin'),
  running: new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed')),
  crashed: new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground')),
  failed: new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')),
  stopped: new vscode.ThemeIcon('debug-stop'),
  disabled: new vscode.ThemeIcon('circle-slash'),
  inactive: new vscode.ThemeIcon('debug-disconnect', new vscode.ThemeColor('problemsWarningIcon.foreground')),
};

const SEVERITY_ICONS: Record<Severity, vscode.ThemeIcon> = {
  info: new vscode.ThemeIcon('info'),
  warn: new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')),
  error: new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground')),
};

type StatusSurface = Surface & { kind: 'status' };
type PanelSurface = Surface & { kind: 'panel' };
/** What a plugin's row lists under it: its status lines, then its panels' titles (protocol v2). */
type RowSurface = StatusSurface | PanelSurface;

export type Node =
  | { kind: 'folder'; session: FolderSession }
  | { kind: 'plugin'; row: Row; statuses: RowSurface[] }
  | { kind: 'status'; row: Row; surface: StatusSurface }
  | { kind: 'panel'; row: Row; surface: PanelSurface }
  | { kind: 'reasonixSession'; session: SessionSurfaceTarget }
  | { kind: 'sessionPlugin'; item: vscode.TreeItem };

/** Model names a plugin of a session offers (the language-model directory). */
export interface PluginModels {
  modelsOf(sessionKey: string, pluginId: string): readonly string[];
  onDidChange(listener: () => void): vscode.Disposable;
}

export interface TreeExtras {
  /** Decisions the plugin made for VS Code's agents (agent hooks) this session. */
  agentDecisions?: (row: Row) => number;
  /** The models the plugin offers VS Code (language-model bridge). */
  models?: PluginModels;
  /** A note on the row's description, e.g. "restarted after a change to src/index.js" (authoring). */
  note?: (row: Row) => string | undefined;
  /** The open Reasonix sessions (issue 44): each listed with its extensions under it. */
  reasonixSessions?: () => SessionSurfaceTarget[];
}

export class SupervisionTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly subs: vscode.Disposable[] = [];
  private tick: NodeJS.Timeout | undefined;

  constructor(
    private readonly sessions: SessionManager,
    private readonly surfaces?: SurfaceFeed,
    /** What a plugin's row tells besides its state: agent decisions, models. */
    private readonly extras: TreeExtras = {},
  ) {
    this.subs.push(sessions.onDidChange(() => this.refresh()));
    if (extras.models) this.subs.push(extras.models.onDidChange(() => this.refresh()));
    // Cards and notifications do not show here; only status and panel changes (or removals) repaint.
    if (surfaces)
      this.subs.push(surfaces.onDidChange((c) => (c.type !== 'upsert' || isRowSurface(c.surface)) && this.refresh()));
    // Uptime in descriptions: refresh twice a minute while something runs.
    this.tick = setInterval(() => this.refresh(), 30_000);
  }

  refresh(): void {
    this.emitter.fire(undefined);
  }

  getChildren(node?: Node): Node[] {
    const sessions = this.sessions.sessions();
    if (!node) {
      const reasonix: Node[] = (this.extras.reasonixSessions?.() ?? []).map((session) => ({
        kind: 'reasonixSession',
        session,
      }));
      if (sessions.length > 1) return [...sessions.map((session): Node => ({ kind: 'folder', session })), ...reasonix];
      return [...this.pluginNodes(sessions), ...reasonix];
    }
    if (node.kind === 'reasonixSession')
      return node.session.pluginItems().map((item) => ({ kind: 'sessionPlugin', item }));
    if (node.kind === 'folder') {
      const state = this.sessions.startState(node.session.key);
      if (state === 'not-started' || state === 'idle-stopped') void this.sessions.use(node.session.key, 'view');
      return this.pluginNodes([node.session]);
    }
    if (node.kind === 'plugin')
      return node.statuses.map((surface) =>
        surface.kind === 'status'
          ? { kind: 'status', row: node.row, surface }
          : { kind: 'panel', row: node.row, surface },
      );
    return [];
  }

  private pluginNodes(sessions: readonly FolderSession[]): Node[] {
    const all = (this.surfaces?.snapshot() ?? []).filter((s): s is RowSurface => isRowSurface(s) && !s.stale);
    return rowsOf(sessions).map((row) => ({
      kind: 'plugin',
      row,
      // Stable order (statuses, then panels; by surface id) so a re-published one does not jump around.
      statuses: all
        .filter((s) => s.sessionKey === row.sessionKey && s.pluginId === row.pluginId)
        .sort((a, b) => (a.kind === b.kind ? a.surfaceId.localeCompare(b.surfaceId) : a.kind === 'status' ? -1 : 1)),
    }));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'folder') {
      const state = this.sessions.startState(node.session.key);
      const waiting = state === 'not-started' || state === 'idle-stopped';
      // A folder that waits for its first use is collapsed: opening it is a use (the tree view's expand event).
      const item = new vscode.TreeItem(
        node.session.folder.name,
        waiting ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded,
      );
      item.id = `folder:${node.session.key}:${waiting ? 'waiting' : 'up'}`;
      item.iconPath = vscode.ThemeIcon.Folder;
      item.description =
        state === 'not-started'
          ? vscode.l10n.t('not started: starts when you use this folder')
          : state === 'idle-stopped'
            ? vscode.l10n.t('stopped while unused: starts when you use this folder')
            : state === 'starting'
              ? vscode.l10n.t('starting…')
              : vscode.l10n.t('generation {0}', node.session.engine.generation);
      item.contextValue = waiting ? 'folder.waiting' : 'folder';
      return item;
    }
    if (node.kind === 'reasonixSession') return node.session.treeItem();
    if (node.kind === 'sessionPlugin') return node.item;
    if (node.kind === 'status') return statusItem(node.row, node.surface);
    if (node.kind === 'panel') return panelItem(node.row, node.surface);
    const row = node.row;
    const item = pluginItem(row, Date.now(), {
      agentDecisions: this.extras.agentDecisions?.(row),
      models: this.extras.models?.modelsOf(row.sessionKey, row.pluginId),
    });
    const note = this.extras.note?.(row);
    if (note) item.description += ` · ${note}`;
    if (node.statuses.length) {
      item.collapsibleState = vscode.TreeItemCollapsibleState.Expanded;
      // The tree keeps an item's collapsible state per id: a row that gains its first status
      // needs a new id, or it would stay a leaf and hide the status.
      item.id = `${item.id}#with-status`;
    }
    return item;
  }

  dispose(): void {
    if (this.tick) clearInterval(this.tick);
    this.subs.forEach((d) => d.dispose());
    this.emitter.dispose();
  }
}

export function pluginItem(
  row: Row,
  now = Date.now(),
  extras: { agentDecisions?: number; models?: readonly string[] } = {},
): vscode.TreeItem {
  const { agentDecisions, models = [] } = extras;
  const item = new vscode.TreeItem(row.status.spec?.displayName ?? row.pluginId, vscode.TreeItemCollapsibleState.None);
  item.id = `${row.sessionKey}#${row.pluginId}`;
  item.iconPath = ICONS[row.state];
  const state = stateWord(row.state, vscode.l10n);
  const bits: string[] = [state];
  if (row.pid) bits.push(vscode.l10n.t('pid {0}', row.pid));
  if (row.state === 'inactive' && row.status.inactive?.length)
    bits.push(vscode.l10n.t('needs {0}', row.status.inactive.map((u) => u.key).join(', ')));
  if (row.state === 'running' && row.readyAt) bits.push(vscode.l10n.t('up {0}', formatUptime(now - row.readyAt)));
  // Which switch turned it off: Reasonix's own (every folder and session) or this folder's.
  if (row.state === 'disabled' && row.status.disabledBy === 'reasonix') bits.push(vscode.l10n.t('in Reasonix'));
  if (row.state === 'disabled' && row.status.disabledBy === 'folder') bits.push(vscode.l10n.t('for this folder'));
  item.description = bits.join(' · ');
  item.accessibilityInformation = { label: pluginAccessibleName(row, now, false, vscode.l10n) };
  item.contextValue = contextValueOf(row);
  const md = new vscode.MarkdownString(undefined, false);
  md.isTrusted = false;
  md.supportHtml = false;
  md.appendMarkdown(`**${row.pluginId}** — ${state}`);
  if (row.status.spec) md.appendMarkdown(` (v${row.status.spec.version}, ${row.status.spec.source})`);
  md.appendMarkdown('\n\n');
  if (row.detail) md.appendText(`${row.detail}\n\n`);
  if (row.status.spec) md.appendCodeblock(fullTrustLines(row.status.spec, vscode.l10n).join('\n'), 'text');
  if (row.status.actions.length)
    md.appendText(
      vscode.l10n.t('Actions: {0}', row.status.actions.map((a) => `/${row.pluginId}:${a.actionId}`).join(', ')),
    );
  if (agentDecisions !== undefined)
    md.appendText(
      `${row.status.actions.length ? '\n\n' : ''}${vscode.l10n.t('Agent decisions this session: {0}', agentDecisions)}`,
    );
  // Sidecar-declared names: plain text, redacted.
  if (models.length)
    md.appendText(
      `${row.status.actions.length || agentDecisions !== undefined ? '\n\n' : ''}${vscode.l10n.t('Models: {0}', models.map((m) => redact(m)).join(', '))}`,
    );
  item.tooltip = md;
  return item;
}

/**
 * `plugin.<state>` then, for a package Reasonix installed, `.installed`, `.globalOff` when it is
 * disabled in Reasonix and `.v1` for a manifest its contract marks migratable (protocol v1: Migrate
 * to v2); `.linked` (always
 * last) for a linked folder. package.json's menus match on these.
 */
export function contextValueOf(row: Row): string {
  const origin = row.status.origin ?? row.status.spec?.source;
  let v = `plugin.${row.state}`;
  if (origin === 'installed') {
    v += '.installed';
    if (row.status.disabledBy === 'reasonix') v += '.globalOff';
    if (row.status.spec && featuresOf(row.status.spec.protocol).migratable) v += '.v1';
  } else if (origin === 'linked') v += '.linked';
  return v;
}

/** "40%" for a progress in [0, 1]; undefined without one. */
export function progressText(p: { progress?: number }): string | undefined {
  if (typeof p.progress !== 'number' || !Number.isFinite(p.progress)) return undefined;
  return `${Math.round(Math.min(1, Math.max(0, p.progress)) * 100)}%`;
}

/** "showcase status: Warning: Indexing, 40%": the severity is heard, not only seen. */
function statusSpoken(pluginId: string, severity: StatusPayload['severity'], words: string): string {
  if (severity === 'warn') return vscode.l10n.t('{0} status: Warning: {1}', pluginId, words);
  if (severity === 'error') return vscode.l10n.t('{0} status: Error: {1}', pluginId, words);
  return vscode.l10n.t('{0} status: {1}', pluginId, words);
}

function isRowSurface(s: Surface): s is RowSurface {
  return s.kind === 'status' || s.kind === 'panel';
}

/** A protocol v2 panel under its plugin's row: its title, and its progress as the description. */
export function panelItem(row: Row, s: PanelSurface): vscode.TreeItem {
  const p = s.payload;
  const title = p.title || s.surfaceId;
  const item = new vscode.TreeItem(title, vscode.TreeItemCollapsibleState.None);
  item.id = `${row.sessionKey}#${row.pluginId}#panel#${s.surfaceId}`;
  item.iconPath = new vscode.ThemeIcon('layout-panel');
  const pct = progressText(p);
  item.description = pct;
  item.contextValue = 'panel';
  // Sidecar text: plain text only, never Markdown or links.
  item.tooltip = [
    vscode.l10n.t('{0} panel: {1}', row.pluginId, title),
    p.text,
    pct ? vscode.l10n.t('progress {0}', pct) : undefined,
  ]
    .filter(Boolean)
    .join('\n');
  item.accessibilityInformation = {
    label: vscode.l10n.t('{0} panel: {1}', row.pluginId, `${title}${pct ? `, ${pct}` : ''}`),
  };
  return item;
}

export function statusItem(row: Row, s: StatusSurface): vscode.TreeItem {
  const p = s.payload;
  const item = new vscode.TreeItem(p.label, vscode.TreeItemCollapsibleState.None);
  item.id = `${row.sessionKey}#${row.pluginId}#status#${s.surfaceId}`;
  item.iconPath =
    typeof p.progress === 'number' && p.progress < 1
      ? new vscode.ThemeIcon('loading~spin')
      : SEVERITY_ICONS[p.severity ?? 'info'];
  const pct = progressText(p);
  // The label often says the percentage already ("Indexing… 40%"); do not repeat it.
  const bits = [pct && !p.label.includes(pct) ? pct : undefined, p.detail].filter((b): b is string => !!b);
  item.description = bits.join(' · ') || undefined;
  item.contextValue = 'status';
  // Sidecar text: plain text only, never Markdown or links.
  item.tooltip = [
    `${row.pluginId}: ${p.label}`,
    pct ? vscode.l10n.t('progress {0}', pct) : undefined,
    p.detail,
    vscode.l10n.t('severity {0}', p.severity ?? 'info'),
  ]
    .filter(Boolean)
    .join('\n');
  item.accessibilityInformation = {
    label: statusSpoken(
      row.pluginId,
      p.severity,
      `${p.label}${pct ? `, ${pct}` : ''}${p.detail ? `, ${p.detail}` : ''}`,
    ),
  };
  return item;
}
