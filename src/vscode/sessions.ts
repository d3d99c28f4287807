// One Reasonix session per workspace folder (multi-root: one each). Sessions start only in a
// trusted workspace, after start-up has finished, and follow folders being added and removed.
// Crashes are reported once each and restarted within the bounded policy.
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { inert } from '../host/inert';
import type { Logger } from '../host/log';
import { RestartPolicy } from '../host/generations';
import type { FailureInfo, SessionEngine, SessionEngineOptions, UiFrontEnd } from '../host/session';
import type { Enablement } from './enablement';
import { describeFailure, showFailure, showLogsLabel } from './failures';
import type { LinkedFolders } from './linking';
import { logStderr } from './logging';
import type { Settings } from './settings';
import { FolderWatcher } from './watcher';

/** Spawning is allowed only in a trusted workspace: the one gate every start goes through. */
export function spawnAllowed(isTrusted: boolean): boolean {
  return isTrusted === true;
}

/** Stable per folder across reloads and windows, opaque to sidecars. */
export function sessionIdFor(folder: vscode.Uri): string {
  return 'vscode-' + createHash('sha256').update(folder.toString()).digest('hex').slice(0, 16);
}

export interface FolderSession {
  readonly key: string;
  readonly folder: vscode.WorkspaceFolder;
  readonly sessionId: string;
  readonly engine: SessionEngine;
}

export interface SessionManagerDeps {
  createEngine(opts: SessionEngineOptions): SessionEngine;
  log: Logger;
  settings(): Settings;
  linked: LinkedFolders;
  enablement: Enablement;
  frontEnd: UiFrontEnd;
  isTrusted(): boolean;
  showLogs(): void;
  restartPolicy?: RestartPolicy;
  /** Quiet period of the file batcher (tests shorten it). */
  coalesceMs?: number;
  /** Bound for stopping everything (VS Code allows about 5 s for deactivate). */
  stopBudgetMs?: number;
}

interface Live extends FolderSession {
  subs: vscode.Disposable[];
  restartTimers: Set<NodeJS.Timeout>;
}

export class SessionManager implements vscode.Disposable {
  private readonly live = new Map<string, Live>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly policy: RestartPolicy;
  private readonly failures = new vscode.EventEmitter<{
    session: FolderSession;
    info: FailureInfo;
    kind: 'crash' | 'start';
    notification: string;
  }>();
  /** Fires for every crash and failed start (the notification is shown as well). */
  readonly onDidFail = this.failures.event;
  private disposed = false;

  constructor(private readonly deps: SessionManagerDeps) {
    this.policy = deps.restartPolicy ?? new RestartPolicy();
  }

  sessions(): FolderSession[] {
    return [...this.live.values()];
  }

  get(key: string): FolderSession | undefined {
    return this.live.get(key);
  }

  /** Starts a session for every folder that has none. Does nothing in an untrusted workspace. */
  async syncFolders(
    folders: readonly vscode.WorkspaceFolder[] = vscode.workspace.workspaceFolders ?? [],
  ): Promise<void> {
    const wanted = new Map(folders.filter((f) => f.uri.scheme === 'file').map((f) => [f.uri.toString(), f]));
    const gone = [...this.live.keys()].filter((k) => !wanted.has(k));
    await Promise.all(gone.map((k) => this.stopSession(k)));
    if (this.disposed || !spawnAllowed(this.deps.isTrusted())) {
      if (!spawnAllowed(this.deps.isTrusted()))
        this.deps.log.info('workspace not trusted: no Reasonix extension is started');
      return;
    }
    await Promise.all(
      [...wanted.values()].filter((f) => !this.live.has(f.uri.toString())).map((f) => this.startSession(f)),
    );
  }

  private async startSession(folder: vscode.WorkspaceFolder): Promise<void> {
    const key = folder.uri.toString();
    const settings = this.deps.settings();
    const sessionId = sessionIdFor(folder.uri);
    const log = this.deps.log;
    const engine = this.deps.createEngine({
      sessionKey: key,
      sessionId,
      folderName: folder.name,
      workspaceRoot: folder.uri.fsPath,
      home: settings.home,
      linked: () => this.deps.linked.list(),
      disabled: () => this.deps.enablement.disabled(folder.uri),
      frontEnd: this.deps.frontEnd,
      maxParallelStarts: settings.maxParallelStarts,
      startupBudgetMs: settings.startupBudgetMs,
    });
    const s: Live = { key, folder, sessionId, engine, subs: [], restartTimers: new Set() };
    this.live.set(key, s);
    s.subs.push(
      engine.onDidChange(() => this.changed.fire()),
      engine.onCrash((info) => this.onCrash(s, info)),
      engine.onStartFailure((info) => this.onStartFailure(s, info)),
    );
    if (settings.fileChanges(folder)) {
      s.subs.push(
        new FolderWatcher(folder, (paths) => engine.notifyResourcesChanged(paths), log, {
          coalesceMs: this.deps.coalesceMs,
        }),
      );
    }
    const t0 = Date.now();
    log.info(`[${folder.name}] session ${sessionId} starting (home ${settings.home})`);
    this.changed.fire();
    try {
      await engine.start();
      const running = engine.plugins().filter((p) => p.state === 'running').length;
      log.info(
        `[${folder.name}] session generation ${engine.generation} up in ${Date.now() - t0} ms, ${running} extension(s) running`,
      );
    } catch (err) {
      log.error(`[${folder.name}] session failed to start: ${(err as Error).message}`);
      const [logs, reload] = [showLogsLabel(), vscode.l10n.t('Reload Runtime')];
      void vscode.window
        .showErrorMessage(
          inert(
            vscode.l10n.t('Reasonix could not start the extensions of {0}: {1}', folder.name, (err as Error).message),
          ),
          logs,
          reload,
        )
        .then((c) => (c === logs ? this.deps.showLogs() : c === reload ? this.reload(key) : undefined));
    }
    this.changed.fire();
  }

  private onStartFailure(s: Live, info: FailureInfo): void {
    logStderr(this.deps.log, info.pluginId, info.stderrTail, true);
    const text = describeFailure(info, this.multiRoot() ? s.folder.name : undefined, 'failed to start');
    this.deps.log.error(text);
    this.failures.fire({ session: s, info, kind: 'start', notification: text });
    void showFailure(text, { showLogs: this.deps.showLogs, restart: () => this.restartPlugin(s.key, info.pluginId) });
  }

  private onCrash(s: Live, info: FailureInfo): void {
    logStderr(this.deps.log, info.pluginId, info.stderrTail, true);
    const text = describeFailure(info, this.multiRoot() ? s.folder.name : undefined, 'crashed');
    this.deps.log.error(text);
    let extra: string | undefined;
    if (this.deps.settings().autoRestart && !this.disposed) {
      const decision = this.policy.onCrash(`${s.key}#${info.pluginId}`);
      if (decision.restart) {
        extra = vscode.l10n.t('Restarting automatically ({0} of {1}).', decision.attempt, this.policy.maxRestarts);
        this.deps.log.info(
          `[${s.folder.name}] [${info.pluginId}] automatic restart ${decision.attempt}/${this.policy.maxRestarts} in ${decision.delayMs} ms`,
        );
        const timer = setTimeout(() => {
          s.restartTimers.delete(timer);
          if (this.live.get(s.key) !== s) return;
          s.engine.restartPlugin(info.pluginId).then(
            () =>
              this.deps.log.info(`[${s.folder.name}] [${info.pluginId}] restarted (generation ${s.engine.generation})`),
            (err: Error) =>
              this.deps.log.error(`[${s.folder.name}] [${info.pluginId}] automatic restart failed: ${err.message}`),
          );
        }, decision.delayMs);
        s.restartTimers.add(timer);
      } else {
        extra = vscode.l10n.t('Not restarting: {0}.', decision.reason);
        this.deps.log.warn(`[${s.folder.name}] [${info.pluginId}] ${decision.reason}`);
      }
    }
    this.failures.fire({ session: s, info, kind: 'crash', notification: extra ? `${text} ${extra}` : text });
    void showFailure(
      text,
      { showLogs: this.deps.showLogs, restart: () => this.restartPlugin(s.key, info.pluginId) },
      extra,
    );
  }

  private multiRoot(): boolean {
    return this.live.size > 1 || (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  }

  private must(key: string): Live {
    const s = this.live.get(key);
    if (!s) throw new Error(`no Reasonix session for ${key}`);
    return s;
  }

  async restartPlugin(key: string, pluginId: string): Promise<void> {
    const s = this.must(key);
    this.policy.reset(`${key}#${pluginId}`); // a person asked: fresh budget
    this.deps.log.info(`[${s.folder.name}] [${pluginId}] restart requested`);
    await s.engine.restartPlugin(pluginId);
  }

  async stopPlugin(key: string, pluginId: string): Promise<void> {
    const s = this.must(key);
    this.policy.reset(`${key}#${pluginId}`);
    this.deps.log.info(`[${s.folder.name}] [${pluginId}] stop requested`);
    await s.engine.stopPlugin(pluginId);
  }

  async startPlugin(key: string, pluginId: string): Promise<void> {
    const s = this.must(key);
    this.deps.log.info(`[${s.folder.name}] [${pluginId}] start requested`);
    await s.engine.startPlugin(pluginId);
  }

  /** Reload Runtime: fail-atomic per session; a failing session keeps its previous generation. */
  async reload(key?: string): Promise<void> {
    if (!spawnAllowed(this.deps.isTrusted())) return;
    const targets = key ? [this.must(key)] : [...this.live.values()];
    await Promise.all(
      targets.map(async (s) => {
        this.deps.log.info(`[${s.folder.name}] reload requested (generation ${s.engine.generation})`);
        try {
          await s.engine.reload();
          this.deps.log.info(`[${s.folder.name}] reloaded: generation ${s.engine.generation}`);
        } catch (err) {
          this.deps.log.error(`[${s.folder.name}] reload failed, previous runtime kept: ${(err as Error).message}`);
          void vscode.window
            .showErrorMessage(
              inert(
                vscode.l10n.t(
                  'Reasonix reload failed for {0}; the previous runtime keeps running. {1}',
                  s.folder.name,
                  (err as Error).message,
                ),
              ),
              showLogsLabel(),
            )
            .then((c) => c && this.deps.showLogs());
        }
      }),
    );
    if (!key) await this.syncFolders();
    this.changed.fire();
  }

  /**
   * plugin-packages.json changed (an install, a removal, a global enable or disable, by us or by
   * anyone), or a per-folder switch (`key`: that folder only): each session starts and stops only
   * what changed (engine reconcile). A session whose
   * change needs a new generation and fails keeps its previous runtime, as with reload.
   */
  async reconcileAll(key?: string): Promise<void> {
    if (!spawnAllowed(this.deps.isTrusted())) return;
    await Promise.all(
      (key ? [this.must(key)] : [...this.live.values()]).map(async (s) => {
        try {
          const how = await s.engine.reconcile();
          if (how !== 'unchanged') this.deps.log.info(`[${s.folder.name}] installed extensions changed: ${how}`);
        } catch (err) {
          this.deps.log.error(
            `[${s.folder.name}] applying the installed extensions failed, previous runtime kept: ${(err as Error).message}`,
          );
          void vscode.window
            .showErrorMessage(
              vscode.l10n.t(
                'Reasonix could not apply the changed extensions to {0}; the previous runtime keeps running. {1}',
                s.folder.name,
                (err as Error).message,
              ),
              showLogsLabel(),
            )
            .then((c) => c && this.deps.showLogs());
        }
      }),
    );
    this.changed.fire();
  }

  /** Restarts every session from scratch (new settings, linked folders, enablement). */
  async restartAll(): Promise<void> {
    await this.stopAll();
    this.disposed = false;
    await this.syncFolders();
  }

  private async stopSession(key: string): Promise<void> {
    const s = this.live.get(key);
    if (!s) return;
    this.live.delete(key);
    s.restartTimers.forEach((t) => clearTimeout(t));
    s.subs.forEach((d) => d.dispose());
    this.deps.log.info(`[${s.folder.name}] session stopping`);
    try {
      await s.engine.stop();
    } catch (err) {
      this.deps.log.warn(`[${s.folder.name}] stop: ${(err as Error).message}`);
    }
    this.changed.fire();
  }

  /** Stops every session in parallel, giving up waiting after the budget (default 4 s). */
  async stopAll(): Promise<void> {
    this.disposed = true;
    const budget = this.deps.stopBudgetMs ?? 4000;
    const all = Promise.all([...this.live.keys()].map((k) => this.stopSession(k)));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), budget)));
    const outcome = await Promise.race([all.then(() => 'done' as const), late]);
    clearTimeout(timer);
    if (outcome === 'late') this.deps.log.warn(`stopping Reasonix sessions took longer than ${budget} ms`);
  }

  dispose(): void {
    void this.stopAll();
    this.changed.dispose();
    this.failures.dispose();
  }
}
