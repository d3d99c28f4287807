// stderr for the log, one redacted line at a time, over a window that sees more than one write:
// a token split across two writes (`ghp_AB…` now, the rest 80 ms later) is joined before it is
// redacted, and a PEM private key block is one secret from its BEGIN line to its END line however
// the sidecar wrote it. Bounded: a partial line waits at most `idleMs` or `maxLineBytes`, and the
// inside of a PEM block is never held (it is dropped as it arrives).
import { StringDecoder } from 'node:string_decoder';
import { redact, REDACTED } from '../redact';

export const STDERR_LINE_MAX = 8 * 1024;
export const STDERR_IDLE_MS = 1_000;

const PEM_BEGIN = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
const PEM_END = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;

export class StderrLines {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';
  private inPem = false;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly emit: (line: string) => void,
    private readonly opts: { maxLineBytes?: number; idleMs?: number } = {},
  ) {}

  push(chunk: Buffer | string): void {
    this.partial += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    let nl: number;
    while ((nl = this.partial.indexOf('\n')) >= 0) {
      const line = this.partial.slice(0, nl);
      this.partial = this.partial.slice(nl + 1);
      this.line(line);
    }
    const max = this.opts.maxLineBytes ?? STDERR_LINE_MAX;
    while (this.partial.length > max) {
      // A line that never ends: emit what we have in bounded pieces, every piece of this chunk
      // (one piece per chunk would let a writer without newlines grow `partial` by a chunk less
      // 8 KiB per read: hundreds of MB in seconds, issue 45 item 12).
      const head = this.partial.slice(0, max);
      this.partial = this.partial.slice(max);
      this.line(head);
    }
    this.armIdle();
  }

  /** Emits whatever is still buffered (the process ended, or the sidecar went quiet). */
  flush(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    const rest = this.partial + this.decoder.end();
    this.partial = '';
    if (rest) this.line(rest);
    if (this.inPem) {
      this.inPem = false; // an unterminated block was already reported redacted
    }
  }

  dispose(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    this.partial = '';
  }

  private armIdle(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    if (!this.partial) return;
    this.idle = setTimeout(() => this.flush(), this.opts.idleMs ?? STDERR_IDLE_MS);
    this.idle.unref();
  }

  private line(raw: string): void {
    let text = raw.replace(/\r$/, '');
    if (this.inPem) {
      const end = PEM_END.exec(text);
      if (!end) return; // body of a private key: never logged
      this.inPem = false;
      text = text.slice(end.index + end[0].length);
      if (!text.trim()) return;
    }
    const begin = PEM_BEGIN.exec(text);
    if (begin) {
      const after = text.slice(begin.index + begin[0].length);
      const end = PEM_END.exec(after);
      const before = text.slice(0, begin.index);
      if (!end) {
        this.inPem = true;
        this.out(`${before}${REDACTED}`);
        return;
      }
      text = `${before}${REDACTED}${after.slice(end.index + end[0].length)}`;
    }
    if (text.trim()) this.out(text);
  }

  private out(text: string): void {
    const clean = redact(text); // before shortening, so a cut can never split a secret
    this.emit(clean.length > 2000 ? `${clean.slice(0, 2000)}…` : clean);
  }
}
