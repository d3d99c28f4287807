// Bounded automatic restart after a crash (our desktop policy; the reference host never restarts
// on its own): at most `maxRestarts` within a sliding `windowMs`, each one after a growing delay.
// Past the bound the plugin stays crashed until the user restarts it, which resets its budget.

export interface RestartPolicyOptions {
  /** Default 4. */
  maxRestarts?: number;
  /** Default 3 minutes. */
  windowMs?: number;
  /** Delay before the first restart (default 500 ms); doubles per restart within the window. */
  initialDelayMs?: number;
  /** Default 8 s. */
  maxDelayMs?: number;
  now?: () => number;
}

export type RestartDecision =
  { restart: true; attempt: number; delayMs: number } | { restart: false; attempts: number; reason: string };

export class RestartPolicy {
  readonly maxRestarts: number;
  readonly windowMs: number;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly now: () => number;
  private readonly history = new Map<string, number[]>();

  constructor(opts: RestartPolicyOptions = {}) {
    this.maxRestarts = opts.maxRestarts ?? 4;
    this.windowMs = opts.windowMs ?? 3 * 60_000;
    this.initialDelayMs = opts.initialDelayMs ?? 500;
    this.maxDelayMs = opts.maxDelayMs ?? 8_000;
    this.now = opts.now ?? Date.now;
  }

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    const kept = (this.history.get(key) ?? []).filter((t) => t > since);
    this.history.set(key, kept);
    return kept;
  }

  /** Decides what to do about a crash of `key` (e.g. `<session>/<plugin>`) and records the restart. */
  onCrash(key: string): RestartDecision {
    const recent = this.recent(key);
    if (recent.length >= this.maxRestarts) {
      const mins = Math.round(this.windowMs / 60_000);
      return {
        restart: false,
        attempts: recent.length,
        reason: `crashed ${recent.length + 1} times within ${mins} minute${mins === 1 ? '' : 's'}; automatic restart stopped`,
      };
    }
    recent.push(this.now());
    const attempt = recent.length;
    const delayMs = Math.min(this.maxDelayMs, this.initialDelayMs * 2 ** (attempt - 1));
    return { restart: true, attempt, delayMs };
  }

  /** Restarts counted for `key` inside the current window. */
  attempts(key: string): number {
    return this.recent(key).length;
  }

  /** Forgets the history of `key` (a manual restart or stop gives a fresh budget). */
  reset(key: string): void {
    this.history.delete(key);
  }
}
