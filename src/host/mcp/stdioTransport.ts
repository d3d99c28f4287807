// The MCP server's stdio wire (issue 45 item 3): newline-delimited JSON-RPC on a readable and a
// writable (the process's stdin/stdout, or a window endpoint's socket), under the SDK's Server in
// place of its StdioServerTransport, which leaves these unanswered or ends the session without a word:
//   - a line that is not JSON                → -32700, id null; the session goes on
//   - a value that is no JSON-RPC message    → -32600 (the id echoed when it is readable)
//   - `params` neither absent nor an object  → -32600 for a non-structured value, -32602 for an array
//   - an integer id past ±2^53               → served, and answered with the id exactly as written
//   - a batch (an array, MCP 2025-03-26)     → each member handled, the answers sent as one array
//                                              (none for a batch of notifications; -32600 for `[]`);
//                                              later revisions dropped batches, we still answer them
//   - a line over MAX_MCP_LINE_BYTES         → skipped as it streams in (never held whole), answered
//                                              -32600 (with its id when the first bytes show it),
//                                              one line on stderr; the session goes on
//   - the client closes our output (EPIPE)   → the transport closes quietly: the server stops
//                                              cleanly, nothing is thrown
// Everything else is the SDK's: it reads the messages this hands over and writes its answers here.
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isIntegerIdText, topLevelMemberText } from '../wire';
import { visibleLine } from './visible';

/** The longest line read, newline included: what a sidecar frame may carry (HOST_SPEC §1). */
export const MAX_MCP_LINE_BYTES = 8 * 1024 * 1024;
/** How much of an oversize line is kept to find its id. */
const HEAD_BYTES = 4096;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;

/** The stand-in for an id past 2^53 while the SDK handles its request (a string id it echoes). */
const BIG_ID_PREFIX = '\u0000reasonix-big-id:';

export interface McpStdioOptions {
  maxLineBytes?: number;
  /** One line about something the client did wrong that it may not see (stderr, or the window's log). */
  note?: (text: string) => void;
}

type Id = string | number;

interface Batch {
  /** The ids of the member requests still unanswered (stand-ins for big ids). */
  waiting: Set<Id>;
  answers: string[];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export class McpStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly maxLine: number;
  private readonly note: (text: string) => void;
  /**
   * The line read so far when it spans reads: one buffer grown by doubling (at most the cap), so a
   * client writing a byte at a time costs amortised copies, not a Buffer object per byte.
   */
  private acc = Buffer.alloc(0);
  private accLen = 0;
  /** Set while an oversize line streams in: its first bytes and its length so far. */
  private skipping?: { head: Buffer; bytes: number };
  private closed = false;
  /** Stand-in id → the id's text as the client wrote it. */
  private readonly bigIds = new Map<string, string>();
  /** Request id → the batch its answer belongs to. */
  private readonly batchOf = new Map<Id, Batch>();
  private nextBig = 0;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    opts: McpStdioOptions = {},
  ) {
    this.maxLine = opts.maxLineBytes ?? MAX_MCP_LINE_BYTES;
    this.note = opts.note ?? (() => undefined);
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onInputError);
    this.output.on('error', this.onOutputError);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.acc = Buffer.alloc(0);
    this.accLen = 0;
    this.skipping = undefined;
    // The error listeners stay: a late EPIPE must not become an uncaught exception.
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const id = (message as { id?: Id }).id;
    if (id === undefined || 'method' in message) return this.write(JSON.stringify(message) + '\n');
    const text = this.answerText(id, message as unknown as Record<string, unknown>);
    const batch = this.batchOf.get(id);
    if (batch) {
      this.batchOf.delete(id);
      batch.waiting.delete(id);
      batch.answers.push(text);
      if (batch.waiting.size === 0) return this.write(`[${batch.answers.join(',')}]\n`);
      return;
    }
    return this.write(text + '\n');
  }

  // ---- reading ------------------------------------------------------------------------------

  private readonly onData = (chunk: Buffer | string): void => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    while (buf.length && !this.closed) {
      const nl = buf.indexOf(0x0a);
      const piece = nl === -1 ? buf : buf.subarray(0, nl);
      let line: Buffer | undefined;
      if (this.skipping) this.skipping.bytes += piece.length;
      else if (this.accLen + piece.length + 1 > this.maxLine) {
        // Past the cap: only the first bytes are kept (to find the id), the rest is counted.
        const head = Buffer.concat([
          this.acc.subarray(0, Math.min(this.accLen, HEAD_BYTES)),
          piece.subarray(0, HEAD_BYTES),
        ]);
        this.skipping = { head: head.subarray(0, HEAD_BYTES), bytes: this.accLen + piece.length };
        this.release();
      } else if (nl !== -1 && this.accLen === 0)
        line = piece; // a whole line in one read: no copy
      else this.append(piece);
      if (nl === -1) return;
      buf = buf.subarray(nl + 1);
      this.endOfLine(line);
    }
  };

  private append(piece: Buffer): void {
    const need = this.accLen + piece.length;
    if (need > this.acc.length) {
      const grown = Buffer.allocUnsafe(Math.min(Math.max(need, this.acc.length * 2, 4096), this.maxLine));
      this.acc.copy(grown, 0, 0, this.accLen);
      this.acc = grown;
    }
    piece.copy(this.acc, this.accLen);
    this.accLen = need;
  }

  /** Forgets the partial line; a large buffer is let go rather than kept for the next line. */
  private release(): void {
    this.accLen = 0;
    if (this.acc.length > 64 * 1024) this.acc = Buffer.alloc(0);
  }

  private endOfLine(whole: Buffer | undefined): void {
    if (this.skipping) {
      const { head, bytes } = this.skipping;
      this.skipping = undefined;
      return this.oversize(head.toString('utf8'), bytes + 1);
    }
    const text = (whole ?? this.acc.subarray(0, this.accLen)).toString('utf8').replace(/\r$/, '');
    if (!whole) this.release();
    if (text.trim()) this.line(text);
  }

  private readonly onEnd = (): void => {
    void this.close();
  };

  private readonly onInputError = (err: Error): void => {
    this.onerror?.(err);
    void this.close();
  };

  private readonly onOutputError = (err: NodeJS.ErrnoException): void => {
    // The client closed the pipe it reads us from: nobody is left to answer, so stop quietly.
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED' || err.code === 'ECONNRESET') {
      if (!this.closed) this.note('the MCP client closed the connection it reads answers from; stopping');
    } else this.onerror?.(err);
    void this.close();
  };

  private oversize(head: string, bytes: number): void {
    const idText = topLevelMemberText(head, 'id');
    const id = idText !== undefined && (/^-?\d+$/.test(idText) || /^"(?:[^"\\]|\\.)*"$/.test(idText)) ? idText : 'null';
    const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;
    const why = `the message is ${mib(bytes)}, more than the ${mib(this.maxLine)} the Reasonix MCP server reads; it was skipped`;
    this.note(
      `skipped a ${mib(bytes)} message from the MCP client (id ${id}): more than the ${mib(this.maxLine)} it may send`,
    );
    void this.write(
      `{"jsonrpc":"2.0","id":${id},"error":${JSON.stringify({ code: INVALID_REQUEST, message: why })}}\n`,
    );
  }

  private line(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return void this.write(errorLine('null', PARSE_ERROR, 'Parse error: the line is not JSON') + '\n');
    }
    if (!Array.isArray(value)) {
      const reply = this.message(value, topLevelMemberText(text, 'id'), text);
      if (reply) void this.write(reply + '\n');
      return;
    }
    if (value.length === 0)
      return void this.write(errorLine('null', INVALID_REQUEST, 'Invalid Request: an empty batch') + '\n');
    const batch: Batch = { waiting: new Set(), answers: [] };
    const members: unknown[] = [];
    for (const m of value) {
      // A member's own text is not kept: an id past 2^53 inside a batch is refused (not echoed rounded).
      const ok = isObject(m) && m.method !== undefined && (typeof m.id === 'string' || Number.isSafeInteger(m.id));
      if (ok) {
        batch.waiting.add(m.id as Id);
        this.batchOf.set(m.id as Id, batch);
      }
      members.push(m);
    }
    for (const m of members) {
      const reply = this.message(m, undefined, undefined);
      if (reply) {
        if (isObject(m) && this.batchOf.get(m.id as Id) === batch) {
          this.batchOf.delete(m.id as Id);
          batch.waiting.delete(m.id as Id);
        }
        batch.answers.push(reply);
      }
    }
    if (batch.waiting.size === 0 && batch.answers.length) void this.write(`[${batch.answers.join(',')}]\n`);
  }

  /**
   * One message: handed to the SDK, or the error answer's text (undefined when nothing is owed).
   * `idText` is how a single line wrote its id (a batch member's is not known).
   */
  private message(m: unknown, idText: string | undefined, line: string | undefined): string | undefined {
    if (!isObject(m)) return errorLine('null', INVALID_REQUEST, 'Invalid Request: not a JSON-RPC message object');
    const hasId = 'id' in m;
    const id = m.id;
    let echo = 'null';
    let forwardId: Id | undefined;
    if (typeof id === 'string') {
      echo = JSON.stringify(id);
      forwardId = id;
    } else if (typeof id === 'number' && Number.isSafeInteger(id) && isIntegerIdText(idText)) {
      echo = idText ?? String(id);
      forwardId = id;
    } else if (typeof id === 'number' && Number.isInteger(id) && idText !== undefined && /^-?\d+$/.test(idText)) {
      // Past 2^53 JSON.parse rounds the id: the SDK serves a stand-in, the answer carries the text.
      echo = idText;
      forwardId = `${BIG_ID_PREFIX}${++this.nextBig}`;
      this.bigIds.set(forwardId, idText);
    }
    const method = m.method;
    if (m.jsonrpc !== '2.0')
      return errorLine(
        forwardId !== undefined ? echo : 'null',
        INVALID_REQUEST,
        'Invalid Request: jsonrpc must be "2.0"',
      );
    if (method === undefined) {
      // An answer to one of our requests (ping): the SDK matches it.
      if (hasId && forwardId !== undefined && ('result' in m || 'error' in m))
        this.onmessage?.({ ...m, id: forwardId } as JSONRPCMessage);
      return undefined;
    }
    if (hasId && forwardId === undefined)
      return errorLine('null', INVALID_REQUEST, 'Invalid Request: id must be a string or an integer');
    if (typeof method !== 'string')
      return hasId ? errorLine(echo, INVALID_REQUEST, 'Invalid Request: method must be a string') : undefined;
    const params = m.params;
    if (params !== undefined && !isObject(params)) {
      if (!hasId) return undefined; // a notification is never answered
      this.forget(forwardId!);
      const named = visibleLine(method.slice(0, 100)); // the client's text in ours, shown safely (item 8)
      return Array.isArray(params)
        ? errorLine(echo, INVALID_PARAMS, `Invalid params: the params of ${named} must be an object, not an array`)
        : errorLine(echo, INVALID_REQUEST, `Invalid Request: params must be an object (${named})`);
    }
    if (!hasId) {
      this.onmessage?.(this.bigCancel(m, line) as JSONRPCMessage);
      return undefined;
    }
    this.onmessage?.({ ...m, id: forwardId } as JSONRPCMessage);
    return undefined;
  }

  /** A cancellation of a request whose id was past 2^53 names its stand-in. */
  private bigCancel(m: Record<string, unknown>, line: string | undefined): Record<string, unknown> {
    if (m.method !== 'notifications/cancelled' || !line || !isObject(m.params)) return m;
    const rid = m.params.requestId;
    if (typeof rid !== 'number' || Number.isSafeInteger(rid)) return m;
    const text = /"requestId"\s*:\s*(-?\d+)/.exec(line)?.[1];
    for (const [stand, raw] of this.bigIds)
      if (raw === text) return { ...m, params: { ...m.params, requestId: stand } };
    return m;
  }

  private forget(id: Id): void {
    if (typeof id === 'string') this.bigIds.delete(id);
  }

  // ---- writing ------------------------------------------------------------------------------

  /** An answer's text, its id as the client wrote it. */
  private answerText(id: Id, message: Record<string, unknown>): string {
    const raw = typeof id === 'string' ? this.bigIds.get(id) : undefined;
    if (raw === undefined) return JSON.stringify(message);
    this.bigIds.delete(id as string);
    const { jsonrpc: _j, id: _i, ...rest } = message;
    return `{"jsonrpc":"2.0","id":${raw},${JSON.stringify(rest).slice(1)}`;
  }

  private write(text: string): Promise<void> {
    if (this.closed || this.output.destroyed || this.output.writableEnded) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.output.write(text)) resolve();
      else {
        const done = () => {
          this.output.off('drain', done);
          this.output.off('close', done);
          resolve();
        };
        this.output.once('drain', done);
        this.output.once('close', done);
      }
    });
  }
}

function errorLine(idText: string, code: number, message: string): string {
  return `{"jsonrpc":"2.0","id":${idText},"error":${JSON.stringify({ code, message })}}`;
}
