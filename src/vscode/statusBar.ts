// One status bar item for the window: the worst state across sessions (spinner while starting),
// a tooltip that is a small menu (logs, reload, per-plugin state) and the plugins' `status`
// surfaces.
import * as vscode from 'vscode';
import { statusBarAccessibleName } from './accessibleNames';
import { stateWord, summarize, type OverallState } from './displayStates';
import type { SurfaceFeed } from '../host/session';
import { rowsOf } from './rows';
import type { SessionManager } from './sessions';

const ICON: Record<OverallState, string> = {
  none: '$(circle-large-outline)',
  disabled: '$(circle-slash)',
  stopped: '$(debug-stop)',
  running: '$(pass)',
  starting: '$(loading~spin)',
  crashed: '$(error)',
  failed: '$(warning)',
  inactive: '$(debug-disconnect)',
};

export class StatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    private readonly sessions: SessionManager,
    private readonly surfaces: SurfaceFeed | undefined,
    private readonly isTrusted: () => boolean,
  ) {
    this.item = vscode.window.createStatusBarItem('reasonix.status', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'Reasonix';
    this.item.command = 'reasonix.showLogs';
    this.subs.push(sessions.onDidChange(() => this.update()));
    if (surfaces) this.subs.push(surfaces.onDidChange(() => this.update()));
    this.update();
    this.item.show();
  }

  update(): void {
    const rows = rowsOf(this.sessions.sessions());
    const sum = summarize(rows, vscode.l10n);
    const bad = sum.worst === 'crashed' || sum.worst === 'failed';
    this.item.text = `${ICON[sum.worst]} Reasonix`;
    this.item.accessibilityInformation = { label: statusBarAccessibleName(rows, vscode.l10n) };
    this.item.backgroundColor = bad ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    const md = new vscode.MarkdownString('', true);
    // Only our own command links are trusted; sidecar text goes in as escaped text.
    md.isTrusted = {
      enabledCommands: ['reasonix.showLogs', 'reasonix.reload', 'reasonix.runAction', 'workbench.trust.manage'],
    };
    md.supportHtml = false;
    if (!this.isTrusted()) {
      md.appendMarkdown(
        vscode.l10n.t(
          'Workspace not trusted: no Reasonix extension runs. [Manage Workspace Trust]({0})',
          'command:workbench.trust.manage',
        ) + '\n\n',
      );
    }
    md.appendMarkdown(`**Reasonix** — ${sum.text}\n\n`);
    for (const r of rows) {
      md.appendMarkdown('- ');
      md.appendText(
        `${rows.some((o) => o.folderName !== r.folderName) ? `${r.folderName} / ` : ''}${r.pluginId}: ${stateWord(r.state, vscode.l10n)}${r.pid ? ` (${vscode.l10n.t('pid {0}', r.pid)})` : ''}${r.state === 'inactive' && r.detail ? ` — ${r.detail}` : ''}`,
      );
      md.appendMarkdown('\n');
    }
    const statuses = (this.surfaces?.snapshot() ?? []).filter((s) => s.kind === 'status' && !s.stale);
    if (statuses.length) {
      md.appendMarkdown('\n---\n\n');
      for (const s of statuses) {
        if (s.kind !== 'status') continue;
        const pct =
          typeof s.payload.progress === 'number'
            ? ` ${Math.round(Math.min(1, Math.max(0, s.payload.progress)) * 100)}%`
            : '';
        md.appendMarkdown('- ');
        md.appendText(`${s.pluginId}: ${s.payload.label}${pct}${s.payload.detail ? ` — ${s.payload.detail}` : ''}`);
        md.appendMarkdown('\n');
      }
    }
    md.appendMarkdown(
      `\n---\n\n[$(output) ${vscode.l10n.t('Show Logs')}](command:reasonix.showLogs) · [$(refresh) ${vscode.l10n.t('Reload Runtime')}](command:reasonix.reload) · [$(play) ${vscode.l10n.t('Run Action…')}](command:reasonix.runAction)`,
    );
    this.item.tooltip = md;
  }

  dispose(): void {
    this.subs.forEach((d) => d.dispose());
    this.item.dispose();
  }
}
