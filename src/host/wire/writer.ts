// NDJSON framing on the write side (HOST_SPEC §1, §14 "Writes"): one writer, frames never
// interleave, back-pressure is honoured, nothing over the frame cap ever leaves, and a peer that
// stops reading is detected by a stall watchdog instead of buffering forever.
import type { Writable } from 'node:stream';
import { Emitter } from '../emitter';
import { LIMITS, ProtocolError } from '../../protocol';

export interface NdjsonWriterOptions {
  /** Largest frame in bytes, trailing newline included. Default 8 MiB. */
  maxFrameBytes?: number;
  /** No progress on a pending write for this long fails the writer. Default 10 s. */
  writeStallMs?: number;
  /** Queue bound in frames. Default 256. */
  queueFrames?: number;
  /** How many queue slots best-effort frames may hold. Default 16. */
  bestEffortFrames?: number;
  /** Queue bound in bytes (reliable and best-effort frames together). Default 32 MiB. */
  queueBytes?: number;
}

/** Default bound of the bytes waiting in one writer's queue (four maximum-size frames). */
export const QUEUE_BYTES = 32 * 1024 * 1024;

/** A list message that may be merged into a queued one of the same key (resources/changed). */
export interface Mergeable {
  key: string;
  items: string[];
  maxItems: number;
  build(items: string[]): string;
}

/**
 * A frame handed to the stream part by part, never joined into one buffer. A content page is
 * ~350 KB; a fresh buffer of that size costs more in page faults (on a small VM, ~1 ms) than
 * writing its parts does. Each part is at most SLICE_BYTES: a Buffer, or a string of ASCII only,
 * written as latin1 (one byte per character). `length` is the frame's size in bytes.
 */
export class FrameParts {
  constructor(
    readonly parts: readonly (Buffer | string)[],
    readonly length: number,
  ) {}

  /** The whole frame as one Buffer (traces and tests; the writer never needs it). */
  toBuffer(): Buffer {
    return Buffer.concat(this.parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p)));
  }
}

/**
 * An encoded frame. Small frames stay strings: a pipe or socket takes a string without an
 * intermediate Buffer (one copy fewer on every intercept); big ones become a Buffer to be sliced,
 * or come as parts.
 */
export type Frame = Buffer | string | FrameParts;

interface Entry {
  frame: Frame;
  bestEffort: boolean;
  bytes: number;
  merge?: { key: string; items: Set<string>; maxItems: number; build(items: string[]): string };
  resolve?: () => void;
  reject?: (err: Error) => void;
}

// What a queued frame costs beyond its bytes (the entry), counted for frames kept past the frame
// bound (answers, see send), so a flood of tiny answers is bounded in memory, not just in bytes.
const ANSWER_OVERHEAD = 128;

// Big frames go out in slices so every drain counts as progress for the stall watchdog.
const SLICE_BYTES = 256 * 1024;
// A string of at most this many UTF-16 units is at most SLICE_BYTES of UTF-8: written whole.
const WHOLE_STRING_UNITS = Math.floor(SLICE_BYTES / 3);

export class NdjsonMessageWriter {
  readonly maxFrameBytes: number;
  private readonly errors = new Emitter<Error>();
  /** The writer failed (stream error, stall): every later write rejects with the same error. */
  readonly onError = this.errors.event;
  private readonly stallMs: number;
  private readonly capacity: number;
  private readonly bestEffortCap: number;
  private queue: (Entry | undefined)[] = [];
  private head = 0;
  private bestEffortQueued = 0;
  private readonly byteCap: number;
  private queuedBytes = 0;
  private current: Buffer | undefined; // rest of the frame being written
  private parts: readonly (Buffer | string)[] | undefined; // or the parts of it
  private partAt = 0; // the next part to write
  private currentEntry: Entry | undefined;
  private blocked = false;
  private ending = false;
  private failure: Error | undefined;
  private stallTimer: NodeJS.Timeout | undefined;
  private readonly onDrain = () => {
    this.blocked = false;
    this.clearStall();
    this.pump();
  };
  private readonly onStreamError = (err: Error) => this.fail(err);

  constructor(
    private readonly stream: Writable,
    options: NdjsonWriterOptions = {},
  ) {
    this.maxFrameBytes = options.maxFrameBytes ?? LIMITS.frameBytes;
    this.stallMs = options.writeStallMs ?? 10_000;
    this.capacity = options.queueFrames ?? 256;
    this.bestEffortCap = options.bestEffortFrames ?? 16;
    this.byteCap = options.queueBytes ?? QUEUE_BYTES;
    stream.on('drain', this.onDrain);
    stream.on('error', this.onStreamError);
  }

  /** Frames queued and not yet handed to the stream. */
  get queued(): number {
    return this.queue.length - this.head + (this.writing ? 1 : 0);
  }

  /** Whether a frame is part way out. */
  private get writing(): boolean {
    return this.current !== undefined || this.parts !== undefined;
  }

  /** Bytes of the frames waiting in the queue. */
  get queuedByteCount(): number {
    return this.queuedBytes;
  }

  get failed(): Error | undefined {
    return this.failure;
  }

  /** Serialises one message as a frame; throws `frame_too_large` when it would exceed the cap. */
  encode(msg: unknown): Buffer {
    return Buffer.from(this.encodeText(msg), 'utf8');
  }

  /** Like `encode`, as text: what the connection writes (see `Frame`). */
  encodeText(msg: unknown): string {
    return this.frameText(JSON.stringify(msg));
  }

  /** A frame from JSON text the caller already serialised; throws `frame_too_large` like `encode`. */
  frameText(json: string): string {
    const text = json + '\n';
    // Cheap bound first: UTF-8 never takes more than 3 bytes per UTF-16 unit.
    if (text.length * 3 > this.maxFrameBytes) {
      const bytes = Buffer.byteLength(text, 'utf8');
      if (bytes > this.maxFrameBytes) {
        throw new ProtocolError(
          'frame_too_large',
          `outbound frame of ${bytes} bytes exceeds the ${this.maxFrameBytes}-byte limit`,
        );
      }
    }
    return text;
  }

  /**
   * Reliable write: resolves once the frame is handed to the stream. An oversize frame rejects
   * with `frame_too_large` and leaves the connection usable; a failed writer rejects everything.
   */
  write(msg: object): Promise<void> {
    let frame: string;
    try {
      frame = this.encodeText(msg);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    return this.writeFrame(frame);
  }

  /** Reliable write of an already encoded frame. */
  writeFrame(frame: Frame): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.ending) return Promise.reject(new ProtocolError('provider_interrupted', 'the connection is closing'));
    if (this.idle) {
      // Fast path: nothing queued, write straight through.
      this.put(frame, undefined);
      return Promise.resolve();
    }
    const bytes = frameBytes(frame);
    const full = this.fullFor(bytes);
    if (full) return Promise.reject(full);
    return new Promise<void>((resolve, reject) => {
      this.enqueue({ frame, bestEffort: false, bytes, resolve, reject });
    });
  }

  /**
   * `writeFrame` for a caller that reads no outcome: the connection learns of a failed writer from
   * onError. Requests and notifications check the queue's bound (`refusal`) before they are built,
   * so they never reach it here; what does is an answer to the peer's own request, which must
   * never be dropped (HOST_SPEC §1: host→extension traffic other than events is reliable). An
   * answer is therefore kept past the frame bound, counted in bytes (each with ANSWER_OVERHEAD
   * for its queue entry); past the byte bound the writer fails (a connection failure naming the
   * cause), and a peer that keeps writing requests but never reads is failed sooner by the stall
   * watchdog, which only a drain resets.
   */
  send(frame: Frame): void {
    if (this.failure || this.ending) return;
    if (this.idle) return this.put(frame, undefined);
    const raw = frameBytes(frame);
    if (!this.fullFor(raw)) return this.enqueue({ frame, bestEffort: false, bytes: raw });
    const bytes = raw + ANSWER_OVERHEAD;
    if (this.queuedBytes + bytes <= this.byteCap) return this.enqueue({ frame, bestEffort: false, bytes });
    const frames = this.queue.length - this.head;
    this.fail(
      new ProtocolError(
        'provider_interrupted',
        `the sidecar sends requests but does not read their answers from its stdin: ${frames} frames (${(this.queuedBytes / 1048576).toFixed(1)} MiB) wait, the most one connection may hold is ${(this.byteCap / 1048576).toFixed(0)} MiB; keep reading stdin while sending requests`,
      ),
    );
  }

  /**
   * Reliable write of a list message (`extension/resources/changed`) that a sidecar which is not
   * reading must not turn into a growing queue: while a message of the same key waits unwritten,
   * the new items are merged into it (de-duplicated, at most `maxItems` per message) instead of
   * taking another slot. Only what does not fit takes a slot of its own, within the bounds;
   * past them this throws (synchronously) the queue-full error.
   */
  writeMergeable(m: Mergeable): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.ending) return Promise.reject(new ProtocolError('provider_interrupted', 'the connection is closing'));
    if (this.idle) return this.writeFrame(this.frameText(m.build(m.items)));
    let rest = [...new Set(m.items)];
    for (let i = this.head; i < this.queue.length && rest.length; i++) {
      const e = this.queue[i];
      if (!e?.merge || e.merge.key !== m.key) continue;
      const merged = e.merge.items;
      const before = merged.size;
      const left: string[] = [];
      for (const item of rest) {
        if (merged.has(item)) continue; // already on its way
        if (merged.size < e.merge.maxItems) merged.add(item);
        else left.push(item);
      }
      rest = left;
      if (merged.size === before) continue;
      const frame = this.frameText(e.merge.build([...merged]));
      this.queuedBytes += frameBytes(frame) - e.bytes;
      e.bytes = frameBytes(frame);
      e.frame = frame;
    }
    if (!rest.length) return Promise.resolve();
    const frame = this.frameText(m.build(rest));
    const bytes = frameBytes(frame);
    const full = this.fullFor(bytes);
    if (full) throw full; // synchronously, so the caller can report the loss
    return new Promise<void>((resolve, reject) => {
      this.enqueue({
        frame,
        bestEffort: false,
        bytes,
        merge: { key: m.key, items: new Set(rest), maxItems: m.maxItems, build: m.build },
        resolve,
        reject,
      });
    });
  }

  /** Why `frame` could not be written now (the queue is at its bound), or undefined. */
  refusal(frame: Frame): ProtocolError | undefined {
    return this.idle || this.failure || this.ending ? undefined : this.fullFor(frameBytes(frame));
  }

  private get idle(): boolean {
    return !this.blocked && !this.writing && this.head === this.queue.length;
  }

  /** Why a frame of `bytes` cannot be queued now, or undefined when it can. */
  private fullFor(bytes: number): ProtocolError | undefined {
    const frames = this.queue.length - this.head;
    if (frames < this.capacity && this.queuedBytes + bytes <= this.byteCap) return undefined;
    return new ProtocolError(
      'provider_interrupted',
      `the sidecar is not reading its stdin: ${frames} frames (${(this.queuedBytes / 1048576).toFixed(1)} MiB) already wait, the most one connection may queue is ${this.capacity} frames or ${(this.byteCap / 1048576).toFixed(0)} MiB`,
    );
  }

  private enqueue(entry: Entry): void {
    this.queuedBytes += entry.bytes;
    this.queue.push(entry);
  }

  /**
   * Best-effort write (used for `extension/event`): never waits and never displaces reliable
   * frames. Returns false when the frame was dropped because its slots or the queue are full.
   */
  writeBestEffort(msg: unknown): boolean {
    if (this.failure || this.ending) return false;
    // Check for room before encoding: a peer that stopped reading must not cost a stringify per drop.
    const direct = this.idle;
    if (
      !direct &&
      (this.bestEffortQueued >= this.bestEffortCap ||
        this.queue.length - this.head >= this.capacity ||
        this.queuedBytes >= this.byteCap)
    )
      return false;
    let frame: string;
    try {
      frame = this.encodeText(msg);
    } catch {
      return false;
    }
    if (direct) {
      this.put(frame, undefined);
      return true;
    }
    const bytes = frameBytes(frame);
    if (this.bestEffortQueued >= this.bestEffortCap || this.fullFor(bytes)) return false;
    this.bestEffortQueued++;
    this.enqueue({ frame, bestEffort: true, bytes });
    return true;
  }

  /** Flushes what is queued, then ends the stream (closes the child's stdin). */
  end(): void {
    if (this.ending) return;
    this.ending = true;
    if (!this.failure && this.idle) this.stream.end();
  }

  dispose(): void {
    this.clearStall();
    this.stream.off('drain', this.onDrain);
    this.stream.off('error', this.onStreamError);
    this.rejectQueued(this.failure ?? new ProtocolError('provider_interrupted', 'the connection was closed'));
    this.errors.clear();
  }

  private put(frame: Frame, entry: Entry | undefined): void {
    if (frame instanceof FrameParts) {
      this.parts = frame.parts;
      this.partAt = 0;
      this.currentEntry = entry;
      this.pump();
      return;
    }
    if (typeof frame === 'string' ? frame.length <= WHOLE_STRING_UNITS : frame.length <= SLICE_BYTES) {
      entry?.resolve?.();
      if (!this.stream.write(frame)) this.block();
      return;
    }
    const bytes = typeof frame === 'string' ? Buffer.from(frame, 'utf8') : frame;
    if (bytes.length <= SLICE_BYTES) {
      entry?.resolve?.();
      if (!this.stream.write(bytes)) this.block();
      return;
    }
    this.current = bytes;
    this.currentEntry = entry;
    this.pump();
  }

  private pump(): void {
    while (!this.blocked && !this.failure) {
      if (this.parts) {
        const part = this.parts[this.partAt++];
        if (this.partAt >= this.parts.length) {
          this.parts = undefined;
          this.currentEntry?.resolve?.();
          this.currentEntry = undefined;
        }
        if (
          part !== undefined &&
          !(typeof part === 'string' ? this.stream.write(part, 'latin1') : this.stream.write(part))
        )
          this.block();
        continue;
      }
      if (this.current) {
        const piece = this.current.length > SLICE_BYTES ? this.current.subarray(0, SLICE_BYTES) : this.current;
        const rest = piece === this.current ? undefined : this.current.subarray(SLICE_BYTES);
        this.current = rest;
        if (!rest) {
          this.currentEntry?.resolve?.();
          this.currentEntry = undefined;
        }
        if (!this.stream.write(piece)) this.block();
        continue;
      }
      if (this.head === this.queue.length) {
        this.queue = [];
        this.head = 0;
        if (this.ending) this.stream.end();
        return;
      }
      const entry = this.queue[this.head] as Entry;
      this.queue[this.head++] = undefined;
      this.queuedBytes -= entry.bytes;
      if (entry.bestEffort) this.bestEffortQueued--;
      this.put(entry.frame, entry);
    }
  }

  private block(): void {
    this.blocked = true;
    if (!this.stallTimer) {
      this.stallTimer = setTimeout(() => {
        this.stallTimer = undefined;
        if (this.blocked)
          this.fail(new ProtocolError('internal', `write to the peer made no progress for ${this.stallMs} ms`));
      }, this.stallMs);
    }
  }

  private clearStall(): void {
    if (this.stallTimer) {
      clearTimeout(this.stallTimer);
      this.stallTimer = undefined;
    }
  }

  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    this.clearStall();
    this.rejectQueued(err);
    this.errors.fire(err);
  }

  private rejectQueued(err: Error): void {
    const pending = this.queue.slice(this.head);
    if (this.currentEntry) pending.unshift(this.currentEntry);
    this.queue = [];
    this.head = 0;
    this.current = undefined;
    this.parts = undefined;
    this.currentEntry = undefined;
    this.bestEffortQueued = 0;
    this.queuedBytes = 0;
    for (const e of pending) e?.reject?.(err);
  }
}

function frameBytes(frame: Frame): number {
  return typeof frame === 'string' ? Buffer.byteLength(frame, 'utf8') : frame.length;
}

/** The frame's bytes as one Buffer. */
export function frameBuffer(frame: Frame): Buffer {
  return typeof frame === 'string'
    ? Buffer.from(frame, 'utf8')
    : frame instanceof FrameParts
      ? frame.toBuffer()
      : frame;
}
