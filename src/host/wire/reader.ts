// NDJSON framing on the read side (HOST_SPEC §1): one JSON value per 0x0A-terminated line.
// Splitting happens on bytes, so a multi-byte UTF-8 character cut across chunks is decoded only
// once its line is whole. The frame cap counts the newline; an oversize line is connection-fatal.
import type { Readable } from 'node:stream';
import { LIMITS, ProtocolError } from '../../protocol';
import { Emitter, type Disposable } from '../emitter';

/**
 * Receives every JSON value read, whatever its shape (judging envelopes is the connection's job),
 * with the byte length of its line: known here for free, so nobody serialises the value again to
 * measure it.
 */
export type DataCallback = (value: unknown, bytes: number) => void;

const NL = 0x0a;
const CR = 0x0d;

export interface NdjsonReaderOptions {
  /** Largest frame in bytes, trailing newline included. Default 8 MiB. */
  maxFrameBytes?: number;
}

export class NdjsonMessageReader {
  private readonly maxLine: number; // longest line content, newline excluded
  private readonly unparsable = new Emitter<string>();
  private readonly errors = new Emitter<Error>();
  private readonly closed = new Emitter<void>();
  /** The stream failed, or a line passed the frame cap (then the reader has stopped). */
  readonly onError = this.errors.event;
  /** The stream ended, or the reader stopped after a fatal error; fires at most once per cause. */
  readonly onClose = this.closed.event;
  private callback: DataCallback | undefined;
  // Bytes of the current line that arrived in earlier chunks (usually empty).
  private parts: Buffer[] = [];
  private partsBytes = 0;
  private stopped = false;
  private lineText: string | undefined;
  private readonly onData = (chunk: Buffer) => this.feed(chunk);
  private readonly onEnd = () => this.finish();
  private readonly onStreamError = (err: Error) => this.errors.fire(err);

  constructor(
    private readonly readable: Readable,
    options: NdjsonReaderOptions = {},
  ) {
    this.maxLine = (options.maxFrameBytes ?? LIMITS.frameBytes) - 1;
  }

  /** A line that is not JSON; the reader keeps going (the connection answers -32700). */
  readonly onUnparsable = this.unparsable.event;

  /**
   * The text of the line whose value is being delivered, readable only during the callback (the
   * connection checks how an id was written; JSON.parse has already lost that).
   */
  get currentLine(): string | undefined {
    return this.lineText;
  }

  /** Delivers every parsed JSON value: objects, and arrays and primitives as well. */
  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    this.readable.on('data', this.onData);
    this.readable.on('end', this.onEnd);
    this.readable.on('close', this.onEnd);
    this.readable.on('error', this.onStreamError);
    return { dispose: () => this.stop() };
  }

  /** Stops reading from the stream (back-pressure to the peer) until `resume()`. */
  pause(): void {
    if (!this.stopped) this.readable.pause();
  }

  resume(): void {
    if (!this.stopped) this.readable.resume();
  }

  dispose(): void {
    this.stop();
    this.errors.clear();
    this.closed.clear();
    this.unparsable.clear();
  }

  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.callback = undefined;
    this.parts = [];
    this.partsBytes = 0;
    this.readable.off('data', this.onData);
    this.readable.off('end', this.onEnd);
    this.readable.off('close', this.onEnd);
    this.readable.off('error', this.onStreamError);
  }

  private finish(): void {
    if (this.stopped) return;
    this.stop();
    this.closed.fire();
  }

  private feed(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      if (this.stopped) return;
      const nl = chunk.indexOf(NL, start);
      if (nl === -1) break;
      if (this.partsBytes === 0) {
        if (nl - start > this.maxLine) return this.tooLarge(nl - start + 1);
        this.line(chunk, start, nl);
      } else {
        const total = this.partsBytes + (nl - start);
        if (total > this.maxLine) return this.tooLarge(total + 1);
        this.parts.push(chunk.subarray(start, nl));
        const whole = Buffer.concat(this.parts, total);
        this.parts = [];
        this.partsBytes = 0;
        this.line(whole, 0, whole.length);
      }
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.length - start;
      // Fail as soon as the line can no longer fit instead of buffering it whole.
      if (this.partsBytes + rest > this.maxLine) return this.tooLarge(this.partsBytes + rest + 1);
      this.parts.push(start === 0 ? chunk : chunk.subarray(start));
      this.partsBytes += rest;
    }
  }

  private line(buf: Buffer, start: number, end: number): void {
    if (end > start && buf[end - 1] === CR) end--;
    // Skip blank (whitespace-only) lines without decoding them.
    let i = start;
    while (i < end && (buf[i] === 0x20 || buf[i] === 0x09 || buf[i] === CR)) i++;
    if (i === end) return;
    const text = buf.toString('utf8', start, end);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.unparsable.fire(text);
      return;
    }
    this.lineText = text;
    try {
      this.callback?.(value, end - start);
    } finally {
      this.lineText = undefined;
    }
  }

  private tooLarge(bytes: number): void {
    this.stop();
    this.errors.fire(
      new ProtocolError(
        'frame_too_large',
        `inbound frame of at least ${bytes} bytes exceeds the ${this.maxLine + 1}-byte limit`,
      ),
    );
    this.closed.fire();
  }
}
