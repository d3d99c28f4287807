// When each workspace folder's extensions run (issue 43): in a window of many folders a folder's
// extensions start when the folder is first used (an editor of it, its group opened in a view, an
// action, tool, model, hook or MCP call naming it), the folder the user is in first, and may stop
// again after a long quiet time. One record per folder, one transition function, an injected clock.
import type { Disposable } from '../emitter';

/** What a folder's extensions are doing, as the views say it. */
export type FolderStartState = 'not-started' | 'starting' | 'started' | 'idle-stopped' | 'stopping';

/** What made a folder start (said in the log and the Extensions view). */
export type UseReason =
  | 'window' // single-folder window, a folder asked to start eagerly, or `reasonix.startup.folders: all`
  | 'editor'
  | 'view'
  | 'action'
  | 'tool'
  | 'model'
  | 'hook'
  | 'mcp'
  | 'user';

export interface FolderClock {
  now(): number;
  /** Calls `fn` every `ms` until disposed. */
  every(ms: number, fn: () => void): Disposable;
}

export const realClock: FolderClock = {
  now: () => Date.now(),
  every: (ms, fn) => {
    const t = setInterval(fn, ms);
    t.unref?.();
    return { dispose: () => clearInterval(t) };
  },
};

export interface FolderStartsOptions {
  /**
   * Starts the folder's extensions (resolves once the start has settled, failed plugins included);
   * `again`: after an idle stop, not the first time.
   */
  start(key: string, reason: UseReason, again: boolean): Promise<void>;
  /** Stops them (idle stop); the folder's surfaces stay shown as stopped. */
  stop(key: string): Promise<void>;
  /** Whether the folder may stop for being quiet now (e.g. not while a required extension runs in it). */
  mayStop?(key: string): boolean;
  /** Quiet time after which a started folder that is not in use stops again; 0: never. */
  idleStopMs(): number;
  onDidChange?(key: string, state: FolderStartState): void;
  clock?: FolderClock;
}

interface Folder {
  state: FolderStartState;
  lastUsed: number;
  reason?: UseReason;
  /** The start (or stop) in progress: every use while it runs waits for the same one. */
  pending?: Promise<void>;
}

/** Which states a folder may go to from each (anything else is a bug and throws). */
const NEXT: Record<FolderStartState, readonly FolderStartState[]> = {
  'not-started': ['starting'],
  starting: ['started', 'stopping'],
  started: ['stopping'],
  stopping: ['idle-stopped', 'not-started'],
  'idle-stopped': ['starting'],
};

/** The highest standing in the window's start queue: the folder the user is in. */
export const IN_USE_PRIORITY = 2;
/** A folder some call asked for (a hook, a tool) outranks one merely waiting. */
export const ASKED_PRIORITY = 1;

export class FolderStarts implements Disposable {
  private readonly folders = new Map<string, Folder>();
  private current: string | undefined;
  private readonly clock: FolderClock;
  private sweeper: Disposable | undefined;
  private sweepEvery = 0;

  constructor(private readonly opts: FolderStartsOptions) {
    this.clock = opts.clock ?? realClock;
    this.schedule();
  }

  add(key: string): void {
    if (!this.folders.has(key)) this.folders.set(key, { state: 'not-started', lastUsed: this.clock.now() });
  }

  /** The folder left the window (its session is being stopped by the caller). */
  remove(key: string): void {
    this.folders.delete(key);
    if (this.current === key) this.current = undefined;
  }

  state(key: string): FolderStartState | undefined {
    return this.folders.get(key)?.state;
  }

  /** What started the folder last (undefined before its first start). */
  reason(key: string): UseReason | undefined {
    return this.folders.get(key)?.reason;
  }

  /** The folder's standing in the window's start queue, read whenever a slot frees up. */
  priority(key: string): () => number {
    return () =>
      this.current === key ? IN_USE_PRIORITY : this.folders.get(key)?.reason === 'window' ? 0 : ASKED_PRIORITY;
  }

  /** The user is in this folder now (its editor is active): it starts, and outranks the others in the queue. */
  focus(key: string | undefined): Promise<void> {
    this.current = key;
    return key ? this.use(key, 'editor') : Promise.resolve();
  }

  /**
   * The folder is used: resolves once its extensions have started (at once when they run). A use
   * while a stop is in progress waits for the stop, then starts again.
   */
  async use(key: string, reason: UseReason): Promise<void> {
    const f = this.folders.get(key);
    if (!f) return;
    f.lastUsed = this.clock.now();
    for (;;) {
      if (f.state === 'started') return;
      if (f.state === 'starting' || f.state === 'stopping') {
        await f.pending;
        if (this.folders.get(key) !== f) return; // removed meanwhile
        continue;
      }
      f.reason = reason;
      const again = f.state === 'idle-stopped';
      this.move(key, f, 'starting');
      const run = this.opts
        .start(key, reason, again)
        .catch(() => undefined) // the caller reports a failed start; the folder counts as started
        .then(() => {
          if (f.state === 'starting') this.move(key, f, 'started');
        });
      f.pending = run;
      await run;
      return;
    }
  }

  /** Stops every started folder quiet for longer than the idle time (never the one in use). */
  async sweep(): Promise<string[]> {
    const idle = this.opts.idleStopMs();
    if (idle <= 0) return [];
    const now = this.clock.now();
    const due = [...this.folders].filter(
      ([key, f]) =>
        f.state === 'started' && key !== this.current && now - f.lastUsed >= idle && (this.opts.mayStop?.(key) ?? true),
    );
    await Promise.all(due.map(([key, f]) => this.stopIdle(key, f)));
    return due.map(([key]) => key);
  }

  private async stopIdle(key: string, f: Folder): Promise<void> {
    this.move(key, f, 'stopping');
    const run = this.opts
      .stop(key)
      .catch(() => undefined)
      .then(() => {
        if (f.state === 'stopping') this.move(key, f, 'idle-stopped');
      });
    f.pending = run;
    await run;
  }

  /** The idle time setting changed: the sweep runs often enough for it (a quarter of it, at most once a minute). */
  schedule(): void {
    const idle = this.opts.idleStopMs();
    const every = idle > 0 ? Math.min(60_000, Math.max(1_000, Math.floor(idle / 4))) : 0;
    if (every === this.sweepEvery) return;
    this.sweeper?.dispose();
    this.sweeper = undefined;
    this.sweepEvery = every;
    if (every) this.sweeper = this.clock.every(every, () => void this.sweep());
  }

  private move(key: string, f: Folder, to: FolderStartState): void {
    if (!NEXT[f.state].includes(to)) throw new Error(`folder ${key}: no transition from ${f.state} to ${to}`);
    f.state = to;
    this.opts.onDidChange?.(key, to);
  }

  dispose(): void {
    this.sweeper?.dispose();
    this.sweeper = undefined;
  }
}
