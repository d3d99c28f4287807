// One Reasonix session per workspace folder (multi-root: one each). Sessions start only in a
// trusted workspace, after start-up has finished, and follow folders being added and removed.
// In a window of several folders a folder's extensions start when the folder is first used
// (docs/scale.md): the folder the user is in first, through one start queue for the window.
// Crashes are reported once each and restarted within the bounded policy.
import * as vscode from 'vscode';
import { inert } from '../host/inert';
import type { Logger } from '../host/log';
import { RestartPolicy, StartQueue } from '../host/generations';
import { splitBatches } from '../host/resources';
import {
  claimSessionSlot,
  folderHash,
  FolderStarts,
  PendingChanges,
  type FolderClock,
  type FolderStartState,
  type SessionSlot,
  type UseReason,
} from '../host/folders';
import { engineModule } from './engineModule';
import type { PluginSpec } from '../host/plugins';
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

const SESSION_ID_PREFIX = 'vscode-';

/** Stable per folder across reloads, opaque to sidecars (a second window on the folder adds `-w2`: sessionSlots). */
export function sessionIdFor(folder: vscode.Uri): string {
  return SESSION_ID_PREFIX + folderHash(folder.toString());
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
  /** Where windows claim their session-id slot per folder (absent: the plain id, as before). */
  slotsDir?: string;
  /** The clock of idle stops (tests move it by hand). */
  folderClock?: FolderClock;
}

interface Live extends FolderSession {
  subs: vscode.Disposable[];
  restartTimers: Set<NodeJS.Timeout>;
  /** Changes seen before the extensions started; sent with the first message after. */
  pending: PendingChanges;
  slot?: SessionSlot;
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
  /** The window's one start queue: `reasonix.startup.maxParallel` handshakes across every folder. */
  private readonly queue: StartQueue;
  private readonly starts: FolderStarts;
  /** What each folder's manifests declared when last read (startsEagerly, reconcileAll). */
  private readonly declared = new Map<string, readonly PluginSpec[]>();

  constructor(private readonly deps: SessionManagerDeps) {
    this.policy = deps.restartPolicy ?? new RestartPolicy();
    this.queue = new StartQueue(deps.settings().maxParallelStarts);
    this.starts = new FolderStarts({
      start: (key, reason, again) => this.runStart(key, reason, again),
      stop: (key) => this.idleStop(key),
      mayStop: (key) =>
        !this.live
          .get(key)
          ?.engine.plugins()
          .some((p) => p.spec?.runtime.required),
      idleStopMs: () => (this.deps.settings().idleStopMinutes ?? 0) * 60_000,
      onDidChange: () => this.changed.fire(),
      clock: deps.folderClock,
    });
  }

  sessions(): FolderSession[] {
    return [...this.live.values()];
  }

  get(key: string): FolderSession | undefined {
    return this.live.get(key);
  }

  /** Whether the folder's engine was ever started (reload and reconcile leave a waiting folder alone). */
  private hasStarted(s: Live): boolean {
    return this.starts.state(s.key) !== 'not-started';
  }

  /** Whether the folder's extensions run (multi-root windows start a folder on first use). */
  startState(key: string): FolderStartState | undefined {
    return this.starts.state(key);
  }

  /**
   * The folder is used (an action, tool, model, hook or MCP call names it, or the user opens it in a
   * view): resolves once its extensions have started; at once when they run.
   */
  use(key: string, reason: UseReason): Promise<void> {
    return this.live.has(key) ? this.starts.use(key, reason) : Promise.resolve();
  }

  /** The folder holding `uri` (the innermost, in a window of nested folders), if it has a session. */
  keyOf(uri: vscode.Uri): string | undefined {
    const f = vscode.workspace.getWorkspaceFolder(uri);
    return f && this.live.has(f.uri.toString()) ? f.uri.toString() : undefined;
  }

  /** The user is in this folder now (its editor became active): it starts first. */
  focus(uri: vscode.Uri | undefined): Promise<void> {
    const key = uri && this.keyOf(uri);
    return key ? this.starts.focus(key) : Promise.resolve();
  }

  /**
   * A session for every folder that has none. A single folder starts at once; in a window of several,
   * a folder starts at once only when it asks to (`reasonix.startup.folders: all`, or an installed
   * extension is required: governance never waits for a first use) or when the user is in it; the
   * others on first use. Does nothing in an untrusted workspace.
   */
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
    const settings = this.deps.settings();
    this.queue.setLimit(settings.maxParallelStarts);
    const fresh = [...wanted.values()].filter((f) => !this.live.has(f.uri.toString()));
    for (const f of fresh) this.createSession(f);
    this.changed.fire();
    const all = [...this.live.values()];
    const eager =
      all.length === 1
        ? all
        : (await Promise.all(all.map(async (s) => ((await this.startsEagerly(s)) ? [s] : [])))).flat();
    this.changed.fire(); // what the waiting folders declare is known now (their MCP tools: waitingPlugins)
    // The folder the user is in starts first, alone; then the folders that start with the window, through
    // the window's queue (which keeps a folder the user moves into ahead of them). Measured: bench/folders.ts.
    await this.focus(vscode.window.activeTextEditor?.document.uri);
    await Promise.all(eager.map((s) => this.starts.use(s.key, 'window')));
    const waiting = all.filter((s) => this.starts.state(s.key) === 'not-started').map((s) => s.folder.name);
    if (waiting.length)
      this.deps.log.info(
        `${waiting.length} folder(s) start on first use (reasonix.startup.folders): ${waiting.join(', ')}`,
      );
  }

  /** Whether a folder of a multi-root window starts with the window rather than on first use. */
  private async startsEagerly(s: Live): Promise<boolean> {
    if (this.deps.settings().startFolders?.(s.folder) === 'all') return true;
    const required = (await this.readDeclared(s)).filter((p) => p.runtime.required).map((p) => p.id);
    if (required.length)
      this.deps.log.info(`[${s.folder.name}] starts with the window: required extension(s) ${required.join(', ')}`);
    return required.length > 0;
  }

  /** Reads (and keeps) what a folder's manifests declare, without starting anything. */
  private async readDeclared(s: Live): Promise<readonly PluginSpec[]> {
    try {
      const found = await engineModule().discoverPlugins({
        home: this.deps.settings().home,
        linked: this.deps.linked.list(),
        disabled: this.deps.enablement.disabled(s.folder.uri),
      });
      this.declared.set(s.key, found.plugins);
      return found.plugins;
    } catch {
      return []; // the engine's own discovery reports the problem when the folder starts
    }
  }

  /**
   * While a folder waits for its first use (not started, or stopped after an idle time): the
   * extensions it would run, as their manifests declare them (no process); undefined once it runs.
   * VS Code's agents list a waiting folder's tools from it (docs/scale.md).
   */
  waitingPlugins(key: string): readonly PluginSpec[] | undefined {
    const s = this.live.get(key);
    const state = s && this.starts.state(key);
    if (state === 'not-started') return this.declared.get(key) ?? [];
    if (state === 'idle-stopped')
      return s!.engine.plugins().flatMap((p) => (p.spec && p.state !== 'inactive' ? [p.spec] : []));
    return undefined;
  }

  private createSession(folder: vscode.WorkspaceFolder): void {
    const key = folder.uri.toString();
    const settings = this.deps.settings();
    const slot = this.deps.slotsDir ? claimSessionSlot(this.deps.slotsDir, SESSION_ID_PREFIX, key) : undefined;
    const sessionId = slot?.sessionId ?? sessionIdFor(folder.uri);
    const log = this.deps.log;
    if (slot?.problem) log.warn(`[${folder.name}] session id: ${slot.problem}; using ${sessionId}`);
    else if (slot && slot.slot > 1)
      log.info(
        `[${folder.name}] another VS Code window runs this folder's extensions: this window's session is ${sessionId}`,
      );
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
      startSlots: this.queue,
      startPriority: this.starts.priority(key),
    });
    const s: Live = {
      key,
      folder,
      sessionId,
      engine,
      subs: [],
      restartTimers: new Set(),
      pending: new PendingChanges(),
      slot,
    };
    this.live.set(key, s);
    this.starts.add(key);
    s.subs.push(
      engine.onDidChange(() => this.changed.fire()),
      engine.onCrash((info) => this.onCrash(s, info)),
      engine.onStartFailure((info) => this.onStartFailure(s, info)),
    );
    if (settings.fileChanges(folder)) {
      s.subs.push(
        new FolderWatcher(
          folder,
          (paths) => {
            if (this.starts.state(key) === 'started') return engine.notifyResourcesChanged(paths);
            s.pending.add(paths); // kept for the first message after the start
            return 0;
          },
          log,
          { coalesceMs: this.deps.coalesceMs },
        ),
      );
    }
  }

  /** Starts a folder's extensions (FolderStarts decides when): the first time, or again after an idle stop. */
  private async runStart(key: string, reason: UseReason, again: boolean): Promise<void> {
    const s = this.live.get(key);
    if (!s || this.disposed) return;
    if (again) {
      this.deps.log.info(`[${s.folder.name}] starting again after an idle stop (${reason})`);
      await this.reload(key, true);
    } else {
      await this.startSession(s, reason);
    }
    this.flushPending(s);
  }

  /** What changed in the folder before its extensions ran: sent now, in messages of at most 1,000 paths. */
  private flushPending(s: Live): void {
    const { paths, dropped } = s.pending.take();
    for (const batch of splitBatches(paths)) s.engine.notifyResourcesChanged(batch); // HOST_SPEC §8: ≤ 1,000 a message
    if (paths.length)
      this.deps.log.info(`[${s.folder.name}] sent ${paths.length} file change(s) from before the extensions started`);
    if (dropped)
      this.deps.log.warn(
        `[${s.folder.name}] ${dropped} more file change(s) from before the extensions started were not kept (at most ${paths.length} are)`,
      );
  }

  /** A folder quiet for longer than `reasonix.startup.idleStopMinutes`: its sidecars stop, its surfaces stay shown as stopped. */
  private async idleStop(key: string): Promise<void> {
    const s = this.live.get(key);
    if (!s) return;
    const running = s.engine.plugins().filter((p) => p.state === 'running' || p.state === 'starting');
    this.deps.log.info(
      `[${s.folder.name}] quiet for ${this.deps.settings().idleStopMinutes} minute(s): stopping ${running.length} extension(s) until the folder is used again`,
    );
    await Promise.all(running.map((p) => s.engine.stopPlugin(p.pluginId).catch(() => undefined)));
  }

  private async startSession(s: Live, reason: UseReason): Promise<void> {
    const { folder, engine, sessionId } = s;
    const log = this.deps.log;
    const settings = this.deps.settings();
    const t0 = Date.now();
    log.info(`[${folder.name}] session ${sessionId} starting (${reason}; home ${settings.home})`);
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
        .then((c) => (c === logs ? this.deps.showLogs() : c === reload ? this.reload(s.key) : undefined));
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
    await this.use(key, 'user');
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
    await this.use(key, 'user');
    this.deps.log.info(`[${s.folder.name}] [${pluginId}] start requested`);
    await s.engine.startPlugin(pluginId);
  }

  /**
   * Reload Runtime: fail-atomic per session; a failing session keeps its previous generation. Only
   * folders that have started reload (one named by `key` that has not starts instead).
   */
  async reload(key?: string, restarting = false): Promise<void> {
    if (!spawnAllowed(this.deps.isTrusted())) return;
    if (key && !restarting && !this.hasStarted(this.must(key))) return this.use(key, 'user');
    const targets = (key ? [this.must(key)] : [...this.live.values()]).filter((s) => this.hasStarted(s));
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
    // A folder waiting for its first use starts nothing; what it declares is read again.
    const targets = key ? [this.must(key)] : [...this.live.values()];
    await Promise.all(targets.filter((s) => !this.hasStarted(s)).map((s) => this.readDeclared(s)));
    await Promise.all(
      targets
        .filter((s) => this.hasStarted(s))
        .map(async (s) => {
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
    this.declared.delete(key);
    this.starts.remove(key);
    s.slot?.release();
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
    this.starts.dispose();
    this.changed.dispose();
    this.failures.dispose();
  }
}
