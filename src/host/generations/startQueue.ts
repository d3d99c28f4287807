// One start queue for a whole window: at most `limit` sidecars handshake at the same time across
// every folder's session (HOST_SPEC §2.5 bounds one session; a window of many folders needs the
// same bound over all of them). A freed slot goes to the waiting start with the highest priority
// (the folder the user is in), then to the one that asked first.

/** Hands out handshake slots; `acquire` resolves with the slot's release (calling it twice is harmless). */
export interface StartSlots {
  acquire(priority: () => number, signal?: AbortSignal): Promise<() => void>;
}

interface Waiter {
  priority: () => number;
  seq: number;
  grant: (release: () => void) => void;
}

export class StartQueue implements StartSlots {
  private running = 0;
  private seq = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private limit: number) {
    if (!(limit >= 1)) throw new RangeError(`a start queue needs at least one slot (got ${limit})`);
  }

  /** Starts handshaking now. */
  get active(): number {
    return this.running;
  }

  /** Starts waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** A new bound (the user changed `reasonix.startup.maxParallel`): takes effect as slots free up. */
  setLimit(limit: number): void {
    if (!(limit >= 1)) throw new RangeError(`a start queue needs at least one slot (got ${limit})`);
    this.limit = limit;
    this.pump();
  }

  acquire(priority: () => number, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason ?? new Error('start cancelled'));
    return new Promise((resolve, reject) => {
      const w: Waiter = {
        priority,
        seq: this.seq++,
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(w);
        if (at < 0) return; // already granted: the caller releases
        this.waiting.splice(at, 1);
        reject(signal?.reason ?? new Error('start cancelled'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(w);
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.limit && this.waiting.length) {
      let best = 0;
      let bestPriority = this.waiting[0].priority();
      for (let i = 1; i < this.waiting.length; i++) {
        const p = this.waiting[i].priority();
        if (p > bestPriority || (p === bestPriority && this.waiting[i].seq < this.waiting[best].seq)) {
          best = i;
          bestPriority = p;
        }
      }
      const [w] = this.waiting.splice(best, 1);
      this.running++;
      let released = false;
      w.grant(() => {
        if (released) return;
        released = true;
        this.running--;
        this.pump();
      });
    }
  }
}
