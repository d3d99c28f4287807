// One `reasonix acp` process: spawned without a shell in its own process group (its extensions'
// sidecars are its children, so stopping it stops them), a bounded stderr tail for error texts, and
// a cheap count of stdout lines that are not JSON (a Reasonix that writes garbage is named as such).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { redact } from '../redact';

/** Stderr kept for error texts (the tail). */
const STDERR_TAIL_BYTES = 8 * 1024;

export interface AcpProcessOptions {
  bin: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export class AcpProcess {
  readonly child: ChildProcessWithoutNullStreams;
  private stderrTail = '';
  /** Lines on stdout that did not start a JSON object. */
  garbageLines = 0;
  /** The first such line, cut short (redacted when read). */
  private firstGarbage = '';
  private atLineStart = true;
  exited = false;
  exitCode: number | null = null;
  exitSignal: NodeJS.Signals | null = null;
  readonly exit: Promise<void>;

  constructor(o: AcpProcessOptions) {
    const posix = process.platform !== 'win32';
    this.child = spawn(o.bin, [...o.args], {
      cwd: o.cwd,
      env: o.env,
      shell: false,
      windowsHide: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: posix,
    });
    this.exit = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exited = true;
        this.exitCode = code;
        this.exitSignal = signal;
        resolve();
      });
      this.child.once('error', () => {
        this.exited = true;
        resolve();
      });
    });
    this.child.stderr.on('data', (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    this.child.stdout.on('data', (d: Buffer) => this.scan(d));
    // A closed pipe while it exits is reported through the exit, not as an uncaught error.
    this.child.stdin.on('error', () => {});
  }

  /** Reasonix's last words on stderr, redacted, at most `max` characters. */
  said(max = 600): string {
    const t = redact(this.stderrTail.trim());
    return t.length > max ? `…${t.slice(-max)}` : t;
  }

  /** The first non-JSON stdout line, redacted and cut short. */
  garbageSample(): string {
    return redact(this.firstGarbage);
  }

  /** Ends stdin (Reasonix exits on end of input), then terminates its group if it lingers. */
  async stop(graceMs = 2000): Promise<void> {
    if (this.exited) return;
    this.child.stdin.end();
    if (await this.exitedWithin(graceMs)) return;
    this.signal('SIGTERM');
    if (await this.exitedWithin(1000)) return;
    this.signal('SIGKILL');
    await this.exitedWithin(1000);
  }

  /** Kills it and its group at once (hung, or the window is closing). */
  kill(): void {
    this.signal('SIGKILL');
  }

  private signal(sig: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      if (process.platform !== 'win32') process.kill(-pid, sig);
      else this.child.kill(sig);
    } catch {
      try {
        this.child.kill(sig);
      } catch {
        // already gone
      }
    }
  }

  private exitedWithin(ms: number): Promise<boolean> {
    if (this.exited) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), ms);
      void this.exit.then(() => {
        clearTimeout(t);
        resolve(true);
      });
    });
  }

  /** Looks only at the first byte of each line: the SDK parses the lines themselves. */
  private scan(d: Buffer): void {
    for (let i = 0; i < d.length; i++) {
      const c = d[i];
      if (c === 0x0a) {
        this.atLineStart = true;
        continue;
      }
      if (!this.atLineStart) continue;
      if (c === 0x20 || c === 0x09 || c === 0x0d) continue;
      this.atLineStart = false;
      if (c !== 0x7b) {
        this.garbageLines++;
        if (!this.firstGarbage) {
          const end = d.indexOf(0x0a, i);
          this.firstGarbage = d
            .subarray(i, end < 0 ? Math.min(d.length, i + 120) : Math.min(end, i + 120))
            .toString('utf8');
        }
      }
    }
  }
}
