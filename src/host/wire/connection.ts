// The validated JSON-RPC connection to one sidecar: vscode-jsonrpc's MessageConnection over the
// NDJSON reader/writer, with a gate in front of it that judges every inbound frame against the
// v1 envelope rules, the traffic barrier and the method schemas (HOST_SPEC §1, §2.4, §3, §9), and
// checks of everything we send. The library only ever sees frames that passed the gate.
//
// Hot path: host→extension requests (every intercept) do not go through the library. Its message
// queue delivers each inbound message on a later setImmediate turn and wraps every call in
// bookkeeping we do not use; here a response settles its call synchronously from the read that
// carried it. Sidecar→host requests and notifications still go through the library's queue on
// purpose: one message per turn lets a stream consumer drain between chunks, so a single read
// holding hundreds of stream/chunk frames cannot overflow its bounded delivery queue.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Readable, Writable } from 'node:stream';
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  ResponseError,
  createMessageConnection,
  type DataCallback,
  type Disposable,
  type Message,
  type MessageConnection,
  type MessageWriter,
} from 'vscode-jsonrpc/node';
import {
  ERRORS,
  METHODS,
  ProtocolError,
  readErrorData,
  validateParams,
  validateResult,
  wireError,
  type ErrorReason,
  type EventParams,
  type WireError,
} from '../../protocol';
import { silentLogger, type Logger } from '../log';
import { redact } from '../redact';
import { isIntegerIdText, topLevelMemberText } from './envelope';
import { NdjsonMessageReader } from './reader';
import { NdjsonMessageWriter, type Frame } from './writer';

type MethodName = keyof typeof METHODS;
type JsonId = string | number | null;

interface PendingCall {
  resolve(result: unknown): void;
  reject(err: Error): void;
  /** performance.now() by which an answer must have arrived; undefined = no timeout. */
  deadline?: number;
  expire?(): void;
}

/** An error response from the peer without valid structured data: code kept, message redacted. */
export class PeerError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
    this.name = 'PeerError';
  }
}

/** Why and how the connection ended. */
export interface ConnectionEnd {
  reason: ErrorReason;
  /** Readable, non-secret. */
  message: string;
  /** True when we ended it (dispose), false when the peer or the transport did. */
  local: boolean;
}

/** Sidecar→host traffic that passed the gate; params are schema-valid objects. */
export interface InboundHandlers {
  /** Whether the host serves this extension→host method at all (else -32601 / drop). */
  serves(method: string): boolean;
  /** Throw ProtocolError for protocol errors; anything else becomes -32603 internal. */
  request(method: string, params: object, signal: AbortSignal): unknown;
  /** Called in arrival order. */
  notification(method: string, params: object): void;
}

export interface RequestOptions {
  timeoutMs?: number;
  /** Reason for the timeout error. Default `internal`. */
  timeoutReason?: ErrorReason;
  signal?: AbortSignal;
  /**
   * `JSON.stringify(params)`, already built by the caller (the intercept path splices in payload
   * JSON it had to serialise anyway to measure it). The params object is still what is validated;
   * the caller guarantees the text is its exact serialisation, so the frame is byte-identical.
   */
  paramsJson?: string;
}

export interface ValidatedConnectionOptions {
  input: Readable;
  output: Writable;
  handlers: InboundHandlers;
  writeStallMs?: number;
  maxFrameBytes?: number;
  logger?: Logger;
  /** Frames are traced only while this returns true; keeps the hot path free of string building. */
  traceEnabled?: () => boolean;
}

const never = () => false;
const noop = () => undefined;

// The reference host's wording (HOST_SPEC §14: envelope violations carry no `data`).
const PARSE_ERROR: WireError = { code: -32700, message: 'parse error' };
const INVALID_REQUEST: WireError = { code: -32600, message: 'invalid request' };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function methodMeta(method: string): (typeof METHODS)[MethodName] | undefined {
  return Object.prototype.hasOwnProperty.call(METHODS, method) ? METHODS[method as MethodName] : undefined;
}

/** Reader handed to vscode-jsonrpc: it only ever receives frames the gate let through. */
class GatedReader extends AbstractMessageReader {
  callback: DataCallback | undefined;
  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    return { dispose: () => (this.callback = undefined) };
  }
  close(): void {
    this.fireClose();
  }
}

/**
 * Writer handed to vscode-jsonrpc, which only ever sends responses to sidecar→host requests. It
 * never rejects (the library would turn that into an unhandled rejection).
 */
class LibWriter extends AbstractMessageWriter implements MessageWriter {
  constructor(private readonly owner: ValidatedConnection, private readonly ndjson: NdjsonMessageWriter) {
    super();
  }
  write(msg: Message): Promise<void> {
    let m = msg as { id?: JsonId; method?: string };
    if (typeof m.id === 'string' && this.owner.takeNullId(m.id)) m = { ...m, id: null };
    let frame: Frame;
    try {
      frame = this.ndjson.encodeText(m);
    } catch {
      // Our own response would be too big: answer internal instead (HOST_SPEC §1).
      frame = this.ndjson.encodeText({ jsonrpc: '2.0', id: m.id ?? null, error: wireError('internal') });
    }
    this.owner.traceOut(frame);
    return this.ndjson.writeFrame(frame).catch(noop);
  }
  end(): void {
    this.ndjson.end();
  }
}

export class ValidatedConnection {
  private readonly reader: NdjsonMessageReader;
  private readonly writer: NdjsonMessageWriter;
  private readonly gated = new GatedReader();
  private readonly libWriter: LibWriter;
  private readonly conn: MessageConnection;
  private readonly handlers: InboundHandlers;
  private readonly logger: Logger;
  private readonly traceOn: () => boolean;
  private readonly abort = new AbortController();
  // Our outbound calls: wire ids count from 1 like the reference host.
  private nextId = 1;
  private readonly pending = new Map<number, PendingCall>();
  // One timer for every call's deadline (armed for the earliest one) instead of a setTimeout and
  // clearTimeout per call: intercepts are sequential with equal budgets, so it is rarely re-armed.
  // Unref'd: a pending call never keeps the process alive on its own (the child's pipes do).
  private deadlineTimer: NodeJS.Timeout | undefined;
  private armedFor = Infinity;
  private ready = false;
  private shuttingDown = false;
  private endInfo: ConnectionEnd | undefined;
  private readonly endListeners: ((end: ConnectionEnd) => void)[] = [];
  private readonly barrierListeners: ((method: string) => void)[] = [];
  // A request with `id: null` is served (as the reference does), but vscode-jsonrpc only treats
  // string/number ids as requests: it gets a private stand-in id, answered as null again.
  private readonly nullIdPrefix = `\u0000null-id:${randomUUID()}:`;
  private readonly nullIds = new Set<string>();
  private nullIdCount = 0;

  constructor(opts: ValidatedConnectionOptions) {
    this.handlers = opts.handlers;
    this.logger = opts.logger ?? silentLogger;
    this.traceOn = opts.traceEnabled ?? never;
    this.reader = new NdjsonMessageReader(opts.input, { maxFrameBytes: opts.maxFrameBytes });
    this.writer = new NdjsonMessageWriter(opts.output, { maxFrameBytes: opts.maxFrameBytes, writeStallMs: opts.writeStallMs });
    this.libWriter = new LibWriter(this, this.writer);
    const libLog = (m: string) => this.logger.debug(`jsonrpc: ${redact(m)}`);
    this.conn = createMessageConnection(this.gated, this.libWriter, { error: libLog, warn: libLog, info: noop, log: noop });
    this.conn.onRequest((method, params) => this.serve(method, params as object));
    this.conn.onNotification((method, params) => this.handlers.notification(method, params as object));
    this.conn.listen();

    this.reader.onUnparsable((text) => {
      if (this.traceOn()) this.logger.trace(`<- (not JSON) ${redact(text.slice(0, 2000))}`);
      this.reply(null, PARSE_ERROR);
    });
    this.reader.onError((err) => {
      const reason = err instanceof ProtocolError ? err.reason : 'provider_interrupted';
      this.finish({ reason, message: err.message, local: false });
    });
    this.reader.onClose(() => this.finish({ reason: 'provider_interrupted', message: 'the sidecar closed its stdout', local: false }));
    this.writer.onError(([err]) => this.finish({ reason: 'provider_interrupted', message: err.message, local: false }));
    this.reader.listen((raw) => this.gate(raw));
  }

  get ended(): ConnectionEnd | undefined {
    return this.endInfo;
  }

  /** Aborts when the connection ends; given to inbound request handlers. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Opens the traffic barrier (HOST_SPEC §2.4). Call right before sending `extension/initialized`. */
  markReady(): void {
    this.ready = true;
  }

  /** From now on sidecar→host requests are refused with -32600. */
  beginShutdown(): void {
    this.shuttingDown = true;
  }

  onEnd(listener: (end: ConnectionEnd) => void): void {
    if (this.endInfo) listener(this.endInfo);
    else this.endListeners.push(listener);
  }

  /** Sidecar→host traffic arrived before `markReady()`. */
  onBarrierViolation(listener: (method: string) => void): void {
    this.barrierListeners.push(listener);
  }

  /**
   * Host→extension request. Params are validated first (a violation is our bug and rejects before
   * anything is written); the result is validated against the method's result schema.
   */
  request<R>(method: string, params: object, opts: RequestOptions = {}): Promise<R> {
    if (this.endInfo) return Promise.reject(this.interrupted());
    const meta = methodMeta(method);
    if (!meta || meta.direction !== 'host_to_extension_request') {
      return Promise.reject(new ProtocolError('internal', `${method} is not a host-to-extension request`));
    }
    const v = validateParams(method as MethodName, params);
    if (!v.ok) return Promise.reject(new ProtocolError('internal', `refusing to send invalid ${method} params: ${v.message}`));
    const id = this.nextId++;
    let frame: Frame;
    try {
      frame = opts.paramsJson === undefined
        ? this.writer.encodeText({ jsonrpc: '2.0', id, method, params })
        : this.writer.frameText(`{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${opts.paramsJson}}`);
    } catch (err) {
      return Promise.reject(err as Error); // oversize: this call fails, the connection stays
    }
    // One promise per call: the pending entry carries its own timer and abort listener, so the
    // response settles the caller's promise directly (no wrapper promise, no extra turns).
    const result = new Promise<R>((resolve, reject) => {
      const signal = opts.signal;
      const cleanup = () => {
        signal?.removeEventListener('abort', onAbort);
      };
      const call: PendingCall = {
        resolve: (value) => {
          cleanup();
          try {
            resolve(this.checkResult<R>(method as MethodName, value));
          } catch (err) {
            reject(err as Error);
          }
        },
        reject: (err) => {
          cleanup();
          reject(err);
        },
      };
      const giveUp = (err: Error) => {
        if (this.pending.get(id) !== call) return;
        this.pending.delete(id); // a late answer is ignored
        call.reject(err);
      };
      function onAbort(): void {
        giveUp(new ProtocolError('internal', `${method} was cancelled`));
      }
      this.pending.set(id, call);
      if (signal) {
        if (signal.aborted) queueMicrotask(onAbort); // after the frame went out, as before
        else signal.addEventListener('abort', onAbort, { once: true });
      }
      if (opts.timeoutMs !== undefined) {
        const ms = opts.timeoutMs;
        call.deadline = performance.now() + ms;
        call.expire = () => giveUp(new ProtocolError(opts.timeoutReason ?? 'internal', `${method} got no answer within ${ms} ms`));
        this.watchDeadline(call.deadline);
      }
    });
    this.traceOut(frame);
    this.writer.writeFrame(frame).catch(noop); // a failed writer ends the connection, which rejects the call
    return result;
  }

  /** Reliable host→extension notification. Throws on invalid params or an oversize frame. */
  notify(method: string, params: object): void {
    if (this.endInfo) throw this.interrupted();
    const meta = methodMeta(method);
    if (!meta || meta.direction !== 'host_to_extension_notification') {
      throw new ProtocolError('internal', `${method} is not a host-to-extension notification`);
    }
    const v = validateParams(method as MethodName, params);
    if (!v.ok) throw new ProtocolError('internal', `refusing to send invalid ${method} params: ${v.message}`);
    const frame = this.writer.encodeText({ jsonrpc: '2.0', method, params });
    this.traceOut(frame);
    this.writer.writeFrame(frame).catch(noop);
  }

  /** Best-effort `extension/event`; false when dropped (queue slots full or connection gone). */
  sendEvent(params: EventParams): boolean {
    if (this.endInfo) return false;
    const v = validateParams('extension/event', params);
    if (!v.ok) throw new ProtocolError('internal', `refusing to send invalid extension/event params: ${v.message}`);
    return this.writer.writeBestEffort({ jsonrpc: '2.0', method: 'extension/event', params });
  }

  /** Flushes queued frames, then closes the output (the child's stdin). */
  end(): void {
    this.writer.end();
  }

  /** Ends the connection from our side; pending calls fail with `provider_interrupted`. */
  dispose(message = 'the connection was closed'): void {
    this.finish({ reason: 'provider_interrupted', message, local: true });
  }

  /** @internal used by the library writer: true (once) when `id` stood in for a null id. */
  takeNullId(id: string): boolean {
    return this.nullIds.delete(id);
  }

  /** @internal used by the library writer. */
  traceOut(frame: Frame): void {
    if (!this.traceOn()) return;
    const end = Math.min(frame.length - 1, 2000);
    this.logger.trace(`-> ${redact(typeof frame === 'string' ? frame.slice(0, end) : frame.toString('utf8', 0, end))}`);
  }

  private watchDeadline(deadline: number): void {
    if (deadline >= this.armedFor || this.endInfo) return;
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.armedFor = deadline;
    this.deadlineTimer = setTimeout(() => this.expireDue(), Math.max(0, Math.ceil(deadline - performance.now())));
    this.deadlineTimer.unref();
  }

  /** Fails every call whose deadline has passed, then re-arms for the earliest one left. */
  private expireDue(): void {
    this.deadlineTimer = undefined;
    this.armedFor = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const call of [...this.pending.values()]) {
      if (call.deadline === undefined) continue;
      if (call.deadline <= now) call.expire?.();
      else if (call.deadline < next) next = call.deadline;
    }
    if (next !== Infinity) this.watchDeadline(next);
  }

  // ---- inbound gate -------------------------------------------------------------------------

  private gate(raw: unknown): void {
    if (this.endInfo) return;
    if (this.traceOn()) this.logger.trace(`<- ${redact(JSON.stringify(raw).slice(0, 2000))}`);
    if (!isPlainObject(raw)) return this.reply(null, INVALID_REQUEST); // batch arrays, bare values
    const id = raw.id as unknown;
    const hasId = id !== undefined;
    // Envelope rules as the reference host's frame validator (issue 11 item 6): an id must be a
    // string, an integer written as one (`1.5` and `1e2` are not) or null; an id that is not
    // parseable that way is answered as null. How the id was written is read from the text only
    // for frames with a method: responses (the intercept hot path) are matched by value.
    const integerId = typeof id === 'number' && Number.isInteger(id)
      && (raw.method === undefined || isIntegerIdText(topLevelMemberText(this.reader.currentLine ?? '', 'id')));
    const validId = id === null || typeof id === 'string' || integerId;
    const echo: JsonId = validId ? (id as JsonId) : null;
    if (hasId && !validId) return this.reply(null, INVALID_REQUEST);
    if (raw.jsonrpc !== '2.0') return this.reply(echo, INVALID_REQUEST);
    const method = raw.method;
    if (method === undefined) return this.gateResponse(raw, hasId, echo);
    // A method of the wrong type makes the frame unreadable as a request: answered with id null.
    if (typeof method !== 'string') return this.reply(null, INVALID_REQUEST);
    if (method === '' || raw.result !== undefined || raw.error !== undefined) return this.reply(echo, INVALID_REQUEST);
    // `params` absent, an object or an array passes the envelope; null, a string, a number or a
    // boolean is an invalid request. (An array then fails the method's DTO with -32602, HOST_SPEC
    // case 4: the seed schema wants an object for every method, the reference's frame validator
    // lets arrays through to the DTO decode; we give the reference's -32602.)
    if (raw.params !== undefined && (typeof raw.params !== 'object' || raw.params === null)) return this.reply(echo, INVALID_REQUEST);

    if (!this.ready) {
      if (hasId) this.reply(echo, wireError('protocol_error', `${method} arrived before extension/initialized`));
      for (const l of this.barrierListeners) l(method);
      return;
    }
    const meta = methodMeta(method);
    if (hasId) {
      if (this.shuttingDown) return this.reply(echo, wireError('protocol_error', 'the host is shutting this connection down'));
      if (!meta || meta.direction !== 'extension_to_host_request' || !this.handlers.serves(method)) {
        return this.reply(echo, wireError('unknown_method', `method not found: ${method}`));
      }
      const params = raw.params === undefined ? {} : raw.params;
      if (!isPlainObject(params)) return this.reply(echo, wireError('invalid_params', 'params must be an object'));
      const v = validateParams(method as MethodName, params);
      if (!v.ok) return this.reply(echo, wireError('invalid_params', `invalid ${method} params: ${v.message}`));
      raw.params = params;
      if (id === null) {
        const standIn = `${this.nullIdPrefix}${++this.nullIdCount}`;
        this.nullIds.add(standIn);
        raw.id = standIn;
      }
      this.gated.callback?.(raw as unknown as Message);
      return;
    }
    // Notification: anything invalid is dropped without an answer.
    if (!meta || meta.direction !== 'extension_to_host_notification' || !this.handlers.serves(method)) {
      this.logger.debug(`dropped notification ${method}: not served`);
      return;
    }
    const params = raw.params === undefined ? {} : raw.params;
    if (!isPlainObject(params) || !validateParams(method as MethodName, params).ok) {
      this.logger.debug(`dropped notification ${method}: invalid params`);
      return;
    }
    raw.params = params;
    this.gated.callback?.(raw as unknown as Message);
  }

  private gateResponse(raw: Record<string, unknown>, hasId: boolean, echo: JsonId): void {
    const hasResult = 'result' in raw;
    const hasError = 'error' in raw;
    if (!hasId || raw.params !== undefined || hasResult === hasError) return this.reply(echo, INVALID_REQUEST);
    if (hasError) {
      const e = raw.error;
      if (!isPlainObject(e) || !Number.isInteger(e.code) || typeof e.message !== 'string') return this.reply(echo, INVALID_REQUEST);
    }
    const id = raw.id;
    // Our ids are positive integers; anything else (a string id, null) matches nothing.
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 1) {
      this.logger.debug(`ignored response with id ${JSON.stringify(id)}`);
      return;
    }
    const call = this.pending.get(id);
    if (!call) {
      this.logger.debug(`ignored response with id ${id}: no call is waiting for it`);
      return;
    }
    this.pending.delete(id);
    if (hasError) call.reject(this.peerError(raw.error as { code: number; message: string; data?: unknown }));
    else call.resolve(raw.result);
  }

  private reply(id: JsonId, error: WireError): void {
    if (this.endInfo) return;
    const frame = this.writer.encodeText({ jsonrpc: '2.0', id, error });
    this.traceOut(frame);
    this.writer.writeFrame(frame).catch(noop);
  }

  private async serve(method: string, params: object): Promise<unknown> {
    try {
      const result = await this.handlers.request(method, params, this.abort.signal);
      const v = validateResult(method as MethodName, result);
      if (v.ok) return result;
      this.logger.error(`host handler for ${method} produced an invalid result: ${v.message}`);
      return toResponseError(new ProtocolError('internal'));
    } catch (err) {
      if (err instanceof ProtocolError) return toResponseError(err);
      this.logger.error(`host handler for ${method} failed: ${redact(String((err as Error)?.message ?? err))}`);
      return toResponseError(new ProtocolError('internal'));
    }
  }

  // ---- outbound results -----------------------------------------------------------------------

  private checkResult<R>(method: MethodName, result: unknown): R {
    const v = validateResult<R>(method, result);
    if (v.ok) return v.value;
    throw new ProtocolError('protocol_error', `invalid ${method} result: ${redact(v.message)}`);
  }

  /** A structured error keeps its reason; anything else keeps its code. Messages are redacted. */
  private peerError(error: { code: number; message: string; data?: unknown }): Error {
    const data = readErrorData(error.data);
    const message = redact(String(error.message));
    return data ? new ProtocolError(data.reason, message) : new PeerError(error.code, message);
  }

  private interrupted(): ProtocolError {
    return new ProtocolError('provider_interrupted', `connection closed: ${this.endInfo?.message ?? 'not open'}`);
  }

  private finish(end: ConnectionEnd): void {
    if (this.endInfo) return;
    this.endInfo = end;
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineTimer = undefined;
    this.abort.abort();
    this.reader.dispose();
    const calls = [...this.pending.values()];
    this.pending.clear();
    for (const call of calls) call.reject(this.interrupted());
    this.conn.dispose();
    this.writer.dispose();
    this.gated.close();
    for (const l of this.endListeners.splice(0)) l(end);
  }
}

function toResponseError(err: ProtocolError): ResponseError<{ reason: ErrorReason; retryable: boolean }> {
  return new ResponseError(err.code, err.message, { reason: err.reason, retryable: ERRORS[err.reason].retryable });
}
