// `reasonix-host mcp` spoken to line by line, without an MCP SDK client in between (issue 45): what
// no well-behaved client sends (deep arguments, batches, ids past 2^53, non-JSON lines, 64 MiB
// lines) must still get its documented answer. A real child process on real pipes; its stdout is
// read as raw lines so an answer's id is seen exactly as written.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { waitFor } from '../../support/wait';
import { CLI } from './support';

export class RawMcp {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every line the server wrote, as written. */
  readonly lines: string[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private partial = '';

  constructor(plugins: string[], workspace: string, extra: string[] = [], env?: Record<string, string>) {
    this.child = spawn(
      process.execPath,
      [CLI, 'mcp', ...plugins.flatMap((p) => ['--plugin', p]), '--workspace', workspace, ...extra],
      { stdio: 'pipe', ...(env ? { env: { ...(process.env as Record<string, string>), ...env } } : {}) },
    );
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (d: string) => {
      const parts = (this.partial + d).split('\n');
      this.partial = parts.pop() ?? '';
      this.lines.push(...parts.filter((l) => l.trim()));
    });
    this.child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.child.stdin.on('error', () => undefined); // the server may be gone before a write lands
    this.exited = new Promise((done) => this.child.once('exit', (code, signal) => done({ code, signal })));
  }

  /** Writes one line (a newline is added). */
  send(line: string | object): void {
    this.child.stdin.write((typeof line === 'string' ? line : JSON.stringify(line)) + '\n');
  }

  /** The first line written after `from` lines that `match` accepts. */
  async next(match: (line: string) => boolean, from = 0, what = 'an answer', timeoutMs = 10_000): Promise<string> {
    let hit: string | undefined;
    await waitFor(() => (hit = this.lines.slice(from).find(match)) !== undefined, {
      timeoutMs,
      what: `${what} (stderr: ${this.stderr.slice(-500)})`,
    });
    return hit!;
  }

  /** The answer to a request with a numeric or string id, parsed. */
  async answer(id: number | string, from = 0, timeoutMs = 10_000): Promise<Record<string, unknown>> {
    const line = await this.next(
      (l) => (JSON.parse(l) as { id?: unknown }).id === id && !('method' in JSON.parse(l)),
      from,
      `the answer to id ${JSON.stringify(id)}`,
      timeoutMs,
    );
    return JSON.parse(line) as Record<string, unknown>;
  }

  /** Initializes the session at `protocolVersion`. */
  async initialize(protocolVersion = '2025-06-18'): Promise<void> {
    this.send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await this.answer('init');
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** Closes stdin and waits for the exit. */
  async close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin.end();
    const t = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    const r = await this.exited;
    clearTimeout(t);
    return r;
  }
}
