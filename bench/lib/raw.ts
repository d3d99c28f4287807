// The floor's parent: the least a host could do over the same kind of pipe. JSON.stringify and
// write out; split on newline and JSON.parse in. No validation, no JSON-RPC library, no queue.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

type Json = Record<string, unknown>;

export class RawPeer {
  readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<number, (msg: Json) => void>();
  private parts: Buffer[] = [];
  private nextId: number;
  /** Whether this peer spawned the child (and so ends it on close). */
  private readonly owned: boolean;
  private readonly onData = (chunk: Buffer) => this.feed(chunk);
  /** Every frame that is not a response to one of our requests. */
  onOther: (msg: Json) => void = () => undefined;

  /**
   * `from`: a script to spawn, or a child another reader already speaks to (bench/lib/sameChild.ts;
   * that reader keeps owning it). `firstId`: where our request ids start (another reader of the
   * same child counts from 1).
   */
  constructor(from: string | ChildProcessWithoutNullStreams, env: NodeJS.ProcessEnv = {}, firstId = 1) {
    this.nextId = firstId;
    this.owned = typeof from === 'string';
    this.child =
      typeof from === 'string'
        ? spawn(process.execPath, [from], {
            stdio: ['pipe', 'pipe', 'pipe'],
            env: { ...process.env, ...env },
            detached: true,
          })
        : from;
    this.child.stdout.on('data', this.onData);
    if (this.owned) {
      this.child.stderr.resume();
      this.child.stdin.on('error', () => undefined);
    }
  }

  /** Sends one request frame and resolves with the response frame. */
  request(method: string, params: unknown): Promise<Json> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  }

  /** Resolves once the child has exited; a child this peer did not spawn is only let go. */
  close(): Promise<void> {
    this.child.stdout.off('data', this.onData);
    if (!this.owned) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.stdin.end();
      setTimeout(() => this.child.kill('SIGKILL'), 2000).unref();
    });
  }

  private feed(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) break;
      let text: string;
      if (this.parts.length) {
        this.parts.push(chunk.subarray(start, nl));
        text = Buffer.concat(this.parts).toString('utf8');
        this.parts = [];
      } else {
        text = chunk.toString('utf8', start, nl);
      }
      start = nl + 1;
      const msg = JSON.parse(text) as Json;
      const done = msg.method === undefined ? this.waiting.get(msg.id as number) : undefined;
      if (done) {
        this.waiting.delete(msg.id as number);
        done(msg);
      } else this.onOther(msg);
    }
    if (start < chunk.length) this.parts.push(chunk.subarray(start));
  }
}
