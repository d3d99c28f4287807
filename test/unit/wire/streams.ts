// In-memory stream helpers for the wire tests.
import { PassThrough, Writable } from 'node:stream';
import { NdjsonMessageReader, type NdjsonReaderOptions } from '../../../src/host/wire';

export interface ReadOutcome {
  values: unknown[];
  /** The byte length the reader reported with each value (its line, without the line ending). */
  bytes: number[];
  unparsable: string[];
  errors: Error[];
}

/** Feeds `chunks` to a reader and collects what it delivered once the stream ended. */
export function readAll(chunks: Buffer[], options?: NdjsonReaderOptions): Promise<ReadOutcome> {
  const input = new PassThrough();
  const reader = new NdjsonMessageReader(input, options);
  const out: ReadOutcome = { values: [], bytes: [], unparsable: [], errors: [] };
  reader.onUnparsable((t) => out.unparsable.push(t));
  reader.onError((e) => out.errors.push(e));
  return new Promise((resolve) => {
    reader.onClose(() => resolve(out));
    reader.listen((m, bytes) => {
      out.values.push(m);
      out.bytes.push(bytes);
    });
    for (const c of chunks) input.write(c);
    input.end();
  });
}

/** Splits `buf` at the given cut points (any order, out-of-range ignored). */
export function cut(buf: Buffer, points: number[]): Buffer[] {
  const sorted = [...new Set(points.filter((p) => p > 0 && p < buf.length))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let prev = 0;
  for (const p of sorted) {
    out.push(buf.subarray(prev, p));
    prev = p;
  }
  out.push(buf.subarray(prev));
  return out;
}

/**
 * A writable whose writes complete only when the test says so: models a peer that reads slowly
 * or not at all. `received` holds everything written, in order.
 */
export class GatedSink extends Writable {
  received: Buffer[] = [];
  private held: (() => void)[] = [];
  flowing: boolean;
  constructor(flowing = false, highWaterMark = 1024) {
    super({ highWaterMark });
    this.flowing = flowing;
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.received.push(Buffer.from(chunk));
    if (this.flowing) setImmediate(cb);
    else this.held.push(() => cb());
  }
  /** Lets the peer read everything from now on. */
  open(): void {
    this.flowing = true;
    for (const cb of this.held.splice(0)) cb();
  }
  text(): string {
    return Buffer.concat(this.received).toString('utf8');
  }
}
