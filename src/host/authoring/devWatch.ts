// Restart on change for linked development folders (issue 42): which file changes count, and the
// throttle between a burst of saves and the one restart it causes. Installed packages are never
// watched (the face watches only linked folders); this file decides the rest.
import * as path from 'node:path';

/** Folders whose changes never restart a sidecar: dependencies, version control, caches. */
export const DEV_WATCH_EXCLUDED_DIRS: readonly string[] = ['node_modules', '.git', '__pycache__', '.venv'];

/** The path of `file` inside `root` when a change to it restarts the sidecar, else undefined. */
export function devChangeOf(root: string, file: string): string | undefined {
  const rel = path.relative(root, file);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const parts = rel.split(/[\\/]/);
  if (parts.some((p) => DEV_WATCH_EXCLUDED_DIRS.includes(p))) return undefined;
  // Editors' swap and backup files are not the sidecar's sources.
  const base = parts[parts.length - 1];
  if (/^\.#|~$|\.sw[px]$|^#.*#$/.test(base)) return undefined;
  return parts.join('/');
}

export interface DevChange {
  root: string;
  /** Relative to root, `/`-separated. */
  file: string;
}

/**
 * One restart per burst: `run` is called `quietMs` after the last change of a burst, with every
 * folder's latest changed file; never two at once (changes during a run cause one more run after
 * it); and runs start at least `minIntervalMs` apart.
 */
export class RestartThrottle {
  private pending = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private lastStart = -Infinity;
  private disposed = false;

  constructor(
    private readonly run: (changes: DevChange[]) => Promise<void>,
    private readonly opts: { quietMs?: number; minIntervalMs?: number } = {},
  ) {}

  add(change: DevChange): void {
    if (this.disposed) return;
    this.pending.set(change.root, change.file);
    if (!this.running) this.arm();
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    const quiet = this.opts.quietMs ?? 300;
    const spacing = this.lastStart + (this.opts.minIntervalMs ?? 1000) - Date.now();
    this.timer = setTimeout(() => void this.fire(), Math.max(quiet, spacing));
  }

  private async fire(): Promise<void> {
    this.timer = undefined;
    if (this.disposed || !this.pending.size) return;
    const changes = [...this.pending].map(([root, file]) => ({ root, file }));
    this.pending = new Map();
    this.running = true;
    this.lastStart = Date.now();
    try {
      await this.run(changes);
    } finally {
      this.running = false;
      if (this.pending.size && !this.disposed) this.arm();
    }
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
