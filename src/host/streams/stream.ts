// The consumer face of one provider stream: an async iterable of in-order chunks plus a promise
// of exactly one terminal outcome. Chunks already handed over stay readable after an
// interruption (drain first); a cancel discards them because the caller asked to stop.
import type { ProviderChunk, StreamOutcome } from './ports';

export class ProviderStream implements AsyncIterable<ProviderChunk> {
  readonly outcome: Promise<StreamOutcome>;
  private resolveOutcome!: (o: StreamOutcome) => void;
  private readonly queue: ProviderChunk[] = [];
  private readonly waiters: Array<(r: IteratorResult<ProviderChunk>) => void> = [];
  private result: StreamOutcome | undefined;

  constructor(
    readonly streamId: string,
    private readonly capacity: number,
    private readonly requestCancel: () => void,
  ) {
    this.outcome = new Promise((resolve) => (this.resolveOutcome = resolve));
  }

  /** The outcome once decided; undefined while the stream is open. */
  get settled(): StreamOutcome | undefined {
    return this.result;
  }

  /** Stop delivering, finish interrupted (`stream_cancelled`) and tell the sidecar. Idempotent. */
  cancel(): void {
    if (!this.result) this.requestCancel();
  }

  /** @internal Hub side: queue one in-order chunk; false when the consumer is `capacity` behind. */
  push(chunk: ProviderChunk): boolean {
    if (this.result) return true;
    const waiter = this.waiters.shift();
    if (waiter) {
      waiter({ value: chunk, done: false });
      return true;
    }
    if (this.queue.length >= this.capacity) return false;
    this.queue.push(chunk);
    return true;
  }

  /** @internal Hub side: record the terminal outcome once. */
  close(outcome: StreamOutcome, discardQueued: boolean): void {
    if (this.result) return;
    this.result = outcome;
    if (discardQueued) this.queue.length = 0;
    for (const w of this.waiters.splice(0)) w({ value: undefined, done: true });
    this.resolveOutcome(outcome);
  }

  [Symbol.asyncIterator](): AsyncIterator<ProviderChunk> {
    return {
      next: () => {
        const chunk = this.queue.shift();
        if (chunk !== undefined) return Promise.resolve({ value: chunk, done: false });
        if (this.result) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => this.waiters.push(resolve));
      },
      // Leaving a for-await loop early means the caller no longer wants the stream.
      return: () => {
        this.cancel();
        this.queue.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
