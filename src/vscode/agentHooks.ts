// Wiring of the agent-hooks bridge into the window: the endpoint runs while the setting
// `reasonix.agentHooks.enabled` is on and the workspace is trusted (the contributed agent plugin's
// `when` clause says the same); every decision goes to the Reasonix output channel at Info and
// counts for the deciding extension (shown in its Extensions-view tooltip).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DecisionRecord, HookWindow } from '../hooksWindow';
import type { ExtensionLog } from './logging';
import type { SessionManager } from './sessions';

type WindowModule = typeof import('../hooksWindow');

/**
 * The window side is a separate bundle next to dist/extension.js, required on first use so the
 * activation bundle stays within its size budget; compiled by tsc (out/) it is ../hooksWindow.js.
 */
function windowModule(): WindowModule {
  const bundled = join(__dirname, 'hooks-window.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(existsSync(bundled) ? bundled : join(__dirname, '..', 'hooksWindow.js')) as WindowModule;
}

export function agentHooksEnabled(): boolean {
  return vscode.workspace.getConfiguration('reasonix').get<boolean>('agentHooks.enabled', true);
}

/** "PreToolUse rm_rf: deny by showcase — reason" (the log redacts it again). */
export function describeDecision(r: DecisionRecord, folderName: string | undefined): string {
  const where = folderName ? `[${folderName}] ` : '';
  const what = `${r.event}${r.tool ? ` ${r.tool}` : ''}`;
  if (r.decision === 'none') return `${where}agent hook ${what}: no decision${r.note ? ` (${r.note})` : ''}`;
  return `${where}agent hook ${what}: ${r.decision}${r.extension ? ` by ${r.extension}` : ''}${r.reason ? ` — ${r.reason}` : ''}`;
}

export class AgentHooks implements vscode.Disposable {
  private window: HookWindow | undefined;
  private opening: Promise<void> | undefined;
  private readonly counts = new Map<string, number>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when an extension's decision count changed. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly sessions: SessionManager,
    private readonly log: ExtensionLog,
    private readonly isTrusted: () => boolean,
  ) {}

  /** Decisions the extension made for agents in this folder's session since the window opened. */
  decisions(sessionKey: string, pluginId: string): number {
    return this.counts.get(`${sessionKey}#${pluginId}`) ?? 0;
  }

  /** Starts or stops the endpoint to match the setting and trust. */
  async sync(): Promise<void> {
    await this.opening;
    const wanted = agentHooksEnabled() && this.isTrusted();
    if (wanted && !this.window) {
      this.opening = this.open();
      await this.opening;
      this.opening = undefined;
    } else if (!wanted && this.window) {
      const w = this.window;
      this.window = undefined;
      await w.close();
      this.log.info(
        'agent hooks: endpoint closed (reasonix.agentHooks.enabled is off or the workspace is not trusted)',
      );
    }
  }

  private async open(): Promise<void> {
    let dir = 'the agent hooks directory';
    try {
      const { HookWindow, hooksDir } = windowModule();
      dir = hooksDir();
      this.window = await HookWindow.open({
        dir,
        runtime: process.execPath,
        folders: () =>
          (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
        sessions: () => this.sessions.sessions().map((s) => ({ folder: s.folder.uri.fsPath, session: s.engine })),
        onDecision: (r, folder) => this.onDecision(r, folder),
        logger: this.log,
      });
      this.log.info(`agent hooks: answering VS Code's agent hooks on ${this.window.endpoint}`);
    } catch (err) {
      this.log.error(
        `agent hooks: could not open the endpoint in ${dir}: ${(err as Error).message}. Agents run without Reasonix rulings; fix the folder and run Reasonix: Reload Runtime.`,
      );
    }
  }

  /** Workspace folders changed: the record must list the new ones. */
  foldersChanged(): void {
    this.window?.updateFolders();
  }

  private onDecision(r: DecisionRecord, folder: string | undefined): void {
    const s = folder ? this.sessions.sessions().find((x) => x.folder.uri.fsPath === folder) : undefined;
    const line = describeDecision(r, s?.folder.name);
    if (r.decision === 'none') {
      this.log.debug(line);
      return;
    }
    this.log.info(line);
    if (!s || !r.extension) return;
    for (const id of r.extension.split(', ')) {
      const key = `${s.key}#${id}`;
      this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    }
    this.changed.fire();
  }

  async close(): Promise<void> {
    await this.opening;
    const w = this.window;
    this.window = undefined;
    await w?.close();
  }

  dispose(): void {
    void this.close();
    this.changed.dispose();
  }
}
