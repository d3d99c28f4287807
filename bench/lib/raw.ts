// The floor's parent: the least a host could do over the same kind of pipe. JSON.stringify and
// write out; split on newline and JSON.parse in. No validation, no JSON-RPC library, no queue.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

type Json = Record<string, unknown>;

export class RawPeer {
  readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<number, (msg: Json) => void>();
  private parts: Buffer[] = [];
  private nextId: number;
  /** Every frame that is not a response to one of our requests. */
  onOther: (msg: Json) => void = () => undefined;

  /** `firstId`: where our request ids start (another reader of the same child counts from 1). */
  constructor(script: string, env: NodeJS.ProcessEnv = {}, firstId = 1) {
    this.nextId = firstId;
    this.child = spawn(process.execPath, [script], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
      detached: true,
    });
    this.child.stdout.on('data', (chunk: Buffer) => this.feed(chunk));
    this.child.stderr.resume();
    this.child.stdin.on('error', () => undefined);
  }

  /** Sends one request frame and resolves with the response frame. */
  request(method: string, params: unknown): Promise<Json> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  }

  /** Resolves once the child has exited. */
  close(): Promise<void> {
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
