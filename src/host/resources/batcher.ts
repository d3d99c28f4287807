// Coalesces file-system events of one workspace folder into `extension/resources/changed`
// batches (HOST_SPEC §8, our policy): workspace-relative POSIX paths, de-duplicated, gathered over
// a quiet period, at most `maxPathsPerMessage` per message with bigger bursts split and none lost,
// VCS/dependency folders and user exclusions skipped. Pure Node: the VS Code watcher feeds it.
import * as path from 'node:path';
import { compileExcludes } from './glob';

/** Folders never worth telling a sidecar about: version control and installed dependencies. */
export const ALWAYS_EXCLUDED_SEGMENTS: readonly string[] = [
  '.git',
  '.hg',
  '.svn',
  'CVS',
  '.jj',
  '.bzr',
  'node_modules',
  'bower_components',
  'jspm_packages',
  '.yarn',
  '.pnpm-store',
  '__pycache__',
  '.venv',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
];

export const DEFAULT_COALESCE_MS = 250;
export const DEFAULT_MAX_WAIT_MS = 2000;
export const MAX_PATHS_PER_MESSAGE = 1000;

export interface BatchTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ChangeBatcherOptions {
  /** Absolute path of the workspace folder, in the platform's form. */
  root: string;
  /** Receives each batch; awaited so batches leave in order. Errors are reported, not thrown. */
  send(paths: string[]): void | Promise<void>;
  /** Globs relative to the folder (e.g. the enabled keys of `files.exclude`). */
  exclude?: readonly string[];
  /** Quiet period after the last event before a batch leaves (default 250 ms). */
  coalesceMs?: number;
  /** Upper bound on how long a continuous stream of events may delay delivery (default 2 s). */
  maxWaitMs?: number;
  maxPathsPerMessage?: number;
  /** Path flavour of `root` and of the paths given to `add` (default: the platform's). */
  pathApi?: Pick<typeof path, 'relative' | 'isAbsolute' | 'sep'>;
  timers?: BatchTimers;
  onError?(error: unknown): void;
}

/** Maps an absolute path under `root` to its workspace-relative POSIX form; undefined if outside. */
export function toWorkspaceRelative(
  root: string,
  absPath: string,
  api: Pick<typeof path, 'relative' | 'isAbsolute' | 'sep'> = path,
): string | undefined {
  if (!api.isAbsolute(absPath)) return undefined;
  const rel = api.relative(root, absPath);
  if (rel === '' || api.isAbsolute(rel)) return undefined;
  const posix = api.sep === '/' ? rel : rel.split(api.sep).join('/');
  if (posix === '..' || posix.startsWith('../')) return undefined;
  return posix;
}

/** Splits `paths` into consecutive chunks of at most `max` entries (order kept, nothing lost). */
export function splitBatches(paths: readonly string[], max = MAX_PATHS_PER_MESSAGE): string[][] {
  if (max < 1) throw new RangeError('max must be at least 1');
  const out: string[][] = [];
  for (let i = 0; i < paths.length; i += max) out.push(paths.slice(i, i + max));
  return out;
}

export class ChangeBatcher {
  private readonly pending = new Set<string>();
  private isExcluded: (rel: string) => boolean;
  private quietTimer: unknown;
  private maxWaitTimer: unknown;
  private sending: Promise<void> = Promise.resolve();
  private disposed = false;
  private readonly timers: BatchTimers;
  private readonly coalesceMs: number;
  private readonly maxWaitMs: number;
  private readonly max: number;

  constructor(private readonly opts: ChangeBatcherOptions) {
    this.isExcluded = ChangeBatcher.excluder(opts.exclude ?? []);
    this.timers = opts.timers ?? {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
    };
    this.coalesceMs = opts.coalesceMs ?? DEFAULT_COALESCE_MS;
    this.maxWaitMs = opts.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    this.max = opts.maxPathsPerMessage ?? MAX_PATHS_PER_MESSAGE;
  }

  private static excluder(globs: readonly string[]): (rel: string) => boolean {
    const user = compileExcludes(globs);
    const always = new Set(ALWAYS_EXCLUDED_SEGMENTS);
    return (rel) => rel.split('/').some((s) => always.has(s)) || user(rel);
  }

  /** Replaces the user exclusions (e.g. when `files.exclude` changes). */
  setExcludes(globs: readonly string[]): void {
    this.isExcluded = ChangeBatcher.excluder(globs);
  }

  /** Number of distinct paths waiting for the next batch. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Records one changed path (absolute). Returns false when it is outside the folder or excluded. */
  add(absPath: string): boolean {
    if (this.disposed) return false;
    const rel = toWorkspaceRelative(this.opts.root, absPath, this.opts.pathApi);
    if (rel === undefined || this.isExcluded(rel)) return false;
    this.pending.add(rel);
    this.schedule();
    return true;
  }

  private schedule(): void {
    if (this.quietTimer !== undefined) this.timers.clearTimeout(this.quietTimer);
    this.quietTimer = this.timers.setTimeout(() => void this.flush(), this.coalesceMs);
    if (this.maxWaitTimer === undefined) {
      this.maxWaitTimer = this.timers.setTimeout(() => void this.flush(), this.maxWaitMs);
    }
  }

  private clearTimers(): void {
    if (this.quietTimer !== undefined) this.timers.clearTimeout(this.quietTimer);
    if (this.maxWaitTimer !== undefined) this.timers.clearTimeout(this.maxWaitTimer);
    this.quietTimer = this.maxWaitTimer = undefined;
  }

  /** Sends everything pending now, in batches of at most `maxPathsPerMessage`; resolves when sent. */
  flush(): Promise<void> {
    this.clearTimers();
    if (this.pending.size === 0) return this.sending;
    const paths = [...this.pending];
    this.pending.clear();
    const batches = splitBatches(paths, this.max);
    // Chained so batches leave in order even when `send` is asynchronous.
    this.sending = this.sending.then(async () => {
      for (const batch of batches) {
        try {
          await this.opts.send(batch);
        } catch (err) {
          this.opts.onError?.(err);
        }
      }
    });
    return this.sending;
  }

  /** Stops timers and drops what is pending; later `add` calls are ignored. */
  dispose(): void {
    this.disposed = true;
    this.clearTimers();
    this.pending.clear();
  }
}
