// The extension's stderr belongs to it: always drained, never parsed, only the last 16 KiB kept
// for diagnostics, and redacted when read (HOST_SPEC §1).
import { redact } from '../redact';

export const STDERR_TAIL_BYTES = 16 * 1024;

export class StderrRing {
  private buf = Buffer.alloc(0);
  private truncated = false;

  constructor(private readonly capacity = STDERR_TAIL_BYTES) {}

  push(chunk: Buffer): void {
    if (chunk.length >= this.capacity) {
      this.buf = Buffer.from(chunk.subarray(chunk.length - this.capacity));
      this.truncated = true;
      return;
    }
    const total = this.buf.length + chunk.length;
    if (total <= this.capacity) {
      this.buf = Buffer.concat([this.buf, chunk], total);
      return;
    }
    this.buf = Buffer.concat([this.buf.subarray(total - this.capacity), chunk], this.capacity);
    this.truncated = true;
  }

  /** The redacted tail, at most `capacity` bytes of UTF-8. */
  text(): string {
    let text = this.buf.toString('utf8');
    if (this.truncated) {
      // The first line is probably cut mid-way (maybe mid-secret, which no pattern would
      // recognise), so drop it when a later line exists.
      const nl = text.indexOf('\n');
      text = nl >= 0 && nl < text.length - 1 ? text.slice(nl + 1) : text.replace(/^\uFFFD+/, '');
    }
    text = redact(text);
    while (Buffer.byteLength(text, 'utf8') > this.capacity) text = text.slice(Math.max(1, text.length - this.capacity));
    return text;
  }
}
