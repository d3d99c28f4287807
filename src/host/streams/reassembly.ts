// Per-stream sequencing (HOST_SPEC §6): reorder within a bounded window, drop duplicates, freeze
// the terminal boundary at the first end, and decide exactly one outcome. Pure apart from the gap
// timer (one per stream, armed once after the end), whose length is a parameter so tests run in
// milliseconds. The common case, a chunk arriving in order with nothing buffered, is handed on
// without touching the reorder map.
import type { ProviderChunk, StreamEndParams } from '../../protocol';
import type { StreamOutcome } from './ports';

export interface ReassemblerSink {
  /** Hands one in-order chunk to the consumer; false when the delivery queue is full. */
  deliver(chunk: ProviderChunk): boolean;
  /** Called exactly once with the terminal outcome. */
  finish(outcome: StreamOutcome): void;
  /** Credential-redacts sidecar text before it reaches an outcome message. */
  redact(text: string): string;
}

export interface ReassemblerOptions {
  /** Chunks at or beyond next + window fail the stream (reference: 256). */
  window: number;
  /** How long a gap may remain after the end before the stream fails (reference: 1 s). */
  gapMs: number;
}

export class Reassembler {
  private next = 1;
  // The reorder window as a ring: the chunk of seq s (next <= s < next + window) sits in slot
  // s % window, so a buffered chunk costs an array store and load, no map entry.
  private slots: (ProviderChunk | undefined)[];
  private buffered = 0;
  private end: { lastSeq: number; error: string; interrupted: boolean } | undefined;
  private gapTimer: NodeJS.Timeout | undefined;
  private done = false;

  constructor(
    private readonly sink: ReassemblerSink,
    private readonly opts: ReassemblerOptions,
  ) {
    this.slots = new Array<ProviderChunk | undefined>(opts.window).fill(undefined);
  }

  get finished(): boolean {
    return this.done;
  }

  /** The next seq the consumer expects (1-based). */
  get expected(): number {
    return this.next;
  }

  chunk(seq: number, chunk: ProviderChunk): void {
    if (this.done) return;
    if (seq === this.next && this.buffered === 0 && this.end === undefined) {
      this.next = seq + 1;
      if (!this.sink.deliver(chunk))
        this.fail('provider_interrupted', 'the consumer fell behind: delivery queue overflow');
      return;
    }
    if (seq < this.next || (seq < this.next + this.opts.window && this.slots[seq % this.opts.window] !== undefined))
      return; // duplicate
    if (this.end && seq > this.end.lastSeq) {
      this.fail('provider_interrupted', `chunk ${seq} arrived after the stream ended at ${this.end.lastSeq}`);
      return;
    }
    if (seq >= this.next + this.opts.window) {
      this.fail('stream_gap', `chunk ${seq} is outside the reorder window (expecting ${this.next})`);
      return;
    }
    this.slots[seq % this.opts.window] = chunk;
    this.buffered++;
    this.flush();
  }

  endWith(params: StreamEndParams): void {
    if (this.done) return;
    const incoming = { lastSeq: params.lastSeq, error: params.error ?? '', interrupted: params.interrupted === true };
    if (this.end) {
      const same =
        this.end.lastSeq === incoming.lastSeq &&
        this.end.error === incoming.error &&
        this.end.interrupted === incoming.interrupted;
      if (!same) this.fail('provider_interrupted', 'the provider sent conflicting stream ends');
      return;
    }
    this.end = incoming;
    // An end below what was already delivered settles the stream at once, like the reference host:
    // the consumer has every chunk up to lastSeq (and more), so the flags alone decide the outcome.
    if (this.buffered > 0) {
      for (let seq = Math.max(this.next, incoming.lastSeq + 1); seq < this.next + this.opts.window; seq++) {
        if (this.slots[seq % this.opts.window] !== undefined) {
          this.fail('provider_interrupted', `chunk ${seq} lies beyond the stream end ${incoming.lastSeq}`);
          return;
        }
      }
    }
    this.settleIfComplete();
  }

  /** Ends the stream from outside (cancel, disconnect, idle bound); buffered out-of-order chunks are dropped. */
  interrupt(reason: 'provider_interrupted' | 'stream_gap' | 'stream_cancelled', message: string): void {
    this.fail(reason, message);
  }

  /** Ends the stream with an outcome decided outside the sequence (e.g. a declined open). */
  abort(outcome: StreamOutcome): void {
    this.finish(outcome);
  }

  private flush(): void {
    const w = this.opts.window;
    let chunk = this.slots[this.next % w];
    while (chunk !== undefined) {
      this.slots[this.next % w] = undefined;
      this.buffered--;
      this.next += 1;
      if (!this.sink.deliver(chunk)) {
        this.fail('provider_interrupted', 'the consumer fell behind: delivery queue overflow');
        return;
      }
      chunk = this.slots[this.next % w];
    }
    this.settleIfComplete();
  }

  private settleIfComplete(): void {
    const end = this.end;
    if (!end || this.done) return;
    if (this.next > end.lastSeq) {
      if (end.interrupted) {
        this.finish({
          kind: 'interrupted',
          reason: 'provider_interrupted',
          message: end.error ? this.sink.redact(end.error) : 'the provider interrupted the stream',
        });
      } else if (end.error) {
        this.finish({ kind: 'failed', reason: 'provider_failed', message: this.sink.redact(end.error) });
      } else {
        this.finish({ kind: 'completed' });
      }
      return;
    }
    // A hole remains below lastSeq: give stragglers a bounded time to arrive.
    this.gapTimer ??= setTimeout(() => {
      this.fail('stream_gap', `missing chunk ${this.next} of ${end.lastSeq}`);
    }, this.opts.gapMs);
  }

  private fail(reason: 'provider_interrupted' | 'stream_gap' | 'stream_cancelled', message: string): void {
    this.finish({ kind: 'interrupted', reason, message });
  }

  private finish(outcome: StreamOutcome): void {
    if (this.done) return;
    this.done = true;
    if (this.gapTimer) clearTimeout(this.gapTimer);
    this.gapTimer = undefined;
    this.slots = [];
    this.buffered = 0;
    this.sink.finish(outcome);
  }
}
