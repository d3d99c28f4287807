// The validated JSON-RPC connection to one sidecar over the NDJSON reader/writer: a gate judges
// every inbound frame against the envelope rules, the traffic barrier and the method schemas of the
// peer's protocol, its Contract (v1 or v2; HOST_SPEC §1, §2.4, §3, §9), and everything we send is
// checked against the same contract. This is the one place params and results are checked:
// handlers receive typed, schema-valid params and never validate them again, and callers of
// `request` receive schema-valid results.
//
// No JSON-RPC library sits in the path: its queue delivered each inbound message on a later
// setImmediate turn and wrapped every call in bookkeeping we do not use. A response settles its
// call synchronously from the read that carried it (every intercept); a notification (a provider
// stream chunk) or a request is handed to its handler straight from the gate. Frames are judged
// in arrival order: the first of a read at once, each further one after a microtask turn, so an
// async consumer of a stream drains between chunks; every 64 frames the gate also yields an
// event-loop turn so timers, I/O and slower consumers get their share; reading pauses while more
// than 1,024 frames wait, so a sidecar cannot make the host buffer without bound.
import { performance } from 'node:perf_hooks';
import type { Readable, Writable } from 'node:stream';
import {
  ProtocolError,
  V1,
  wireError,
  type Check,
  type Contract,
  type ErrorReason,
  type EventParams,
  type MethodMeta,
  type MethodName,
  type WireError,
} from '../../protocol';
import { silentLogger, type Logger } from '../log';
import { redact } from '../redact';
import { Emitter, type Disposable } from '../emitter';
import { EncodedResult } from './encoded';
import {
  HANDSHAKE,
  IDLE,
  nextConnectionState,
  nextReadingState,
  type ConnectionState,
  type ReadingState,
} from './lifecycle';
import { isIntegerIdText, RawIntegerId, topLevelMemberText, withRawId } from './envelope';
import { NdjsonMessageReader } from './reader';
import { NdjsonMessageWriter, frameBuffer, type Frame } from './writer';

type JsonId = string | number | null | RawIntegerId;

function idJson(id: JsonId): string {
  return id instanceof RawIntegerId ? id.text : JSON.stringify(id);
}

/**
 * One call of ours waiting for its answer: a class rather than closures, so a round trip allocates
 * one object for its bookkeeping. `done`/`failed` settle the caller's promise; the entry leaves
 * `pending` when its answer arrives (gateResponse) or when it is given up (deadline, abort).
 */
class PendingCall {
  /** performance.now() by which an answer must have arrived; undefined = no timeout. */
  deadline: number | undefined;
  private abortListener: (() => void) | undefined;

  constructor(
    private readonly pending: Map<number, PendingCall>,
    private readonly id: number,
    private readonly method: string,
    private readonly resultCheck: Check,
    private readonly opts: RequestOptions,
    private readonly resolve: (value: unknown) => void,
    private readonly reject: (err: Error) => void,
  ) {}

  /** The answer's result: checked here, the one check of a result, then handed to the caller. */
  done(value: unknown): void {
    this.stopWatching();
    try {
      const problem = this.resultCheck(value);
      if (problem !== undefined) throw new InvalidResultError(this.method, redact(problem));
      this.opts.onResult?.(value);
      this.resolve(value);
    } catch (err) {
      this.reject(err as Error);
    }
  }

  failed(err: Error): void {
    this.stopWatching();
    this.reject(err);
  }

  /** An answer named this call but cannot be used: failed now when the caller asked for it (see RequestOptions). */
  unusable(problem: string): void {
    if (this.opts.failOnUnusableAnswer) this.giveUp(new InvalidResultError(this.method, problem));
  }

  /** The deadline passed: fails the call; a late answer is ignored. */
  expire(): void {
    const { timeoutReason, timeoutMs } = this.opts;
    this.giveUp(
      new RequestTimeoutError(timeoutReason ?? 'internal', `${this.method} got no answer within ${timeoutMs} ms`),
    );
  }

  /** Fails the call when `signal` aborts, after the frame went out if it already has. */
  watch(signal: AbortSignal): void {
    const onAbort = () => this.giveUp(new ProtocolError('internal', `${this.method} was cancelled`));
    if (signal.aborted) queueMicrotask(onAbort);
    else {
      this.abortListener = onAbort;
      signal.addEventListener('abort', onAbort, { once: true });
    }
  }

  private giveUp(err: Error): void {
    if (this.pending.get(this.id) !== this) return;
    this.pending.delete(this.id); // a late answer is ignored
    this.failed(err);
  }

  private stopWatching(): void {
    if (this.abortListener) this.opts.signal?.removeEventListener('abort', this.abortListener);
  }
}

/** An error response from the peer without valid structured data: code kept, message redacted. */
export class PeerError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'PeerError';
  }
}

/**
 * The peer answered a request with a result its method's schema refuses (HOST_SPEC_V2 §12: a tool
 * result without `content` or with an unknown member). Kept apart from a `protocol_error` the peer
 * itself reported in error data: callers that tolerate a bad answer (shutdown) or name it
 * (tool calls) can tell the two apart.
 */
export class InvalidResultError extends ProtocolError {
  constructor(
    readonly method: string,
    readonly problem: string,
  ) {
    super('protocol_error', `invalid ${method} result: ${problem}`);
    this.name = 'InvalidResultError';
  }
}

/**
 * A request's `timeoutMs` passed without an answer; its reason is the request's `timeoutReason`.
 * Its own class because a peer may report any reason in its error data: a caller that words its
 * own timeouts (tool calls) tells the two apart by class, not by reason.
 */
export class RequestTimeoutError extends ProtocolError {
  constructor(reason: ErrorReason, message: string) {
    super(reason, message);
    this.name = 'RequestTimeoutError';
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

/**
 * Serves sidecar→host traffic that passed the gate: `params` are schema-valid objects and
 * `frameBytes` the byte length of the frame that carried them (what a handler that budgets
 * payloads counts, without serialising them again). A request's handler answers with its result
 * (or a promise of it, or an `EncodedResult`); it throws a ProtocolError for a protocol error,
 * anything else becomes -32603 internal. A notification's handler is called in arrival order and
 * its return value is ignored.
 */
export type InboundHandler = (params: object, signal: AbortSignal, frameBytes: number) => unknown;

export interface InboundHandlers {
  /**
   * The handler of an extension→host method the host serves; undefined when it does not (requests
   * are answered -32601, notifications dropped). Asked once per method and connection, so the
   * answer must not change while the connection lives.
   */
  handler(method: string): InboundHandler | undefined;
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
  /**
   * Called synchronously with the validated result, before any later frame of the same read is
   * judged: the handshake opens the traffic barrier here, so the barrier holds in wire order.
   */
  onResult?: (result: unknown) => void;
  /**
   * An answer that names this call but cannot be used (not JSON-RPC 2.0, both or neither of
   * `result` and `error`, a malformed error, its id written as a string) fails the call at once
   * with an InvalidResultError naming the fault, instead of leaving it to its deadline: a tool call
   * waits up to 5 minutes, with a model waiting on it (issue 45 item 3). Without it such an answer
   * leaves the call untouched (HOST_SPEC §12 case 8) and a later valid answer still settles it.
   */
  failOnUnusableAnswer?: boolean;
}

export interface ValidatedConnectionOptions {
  /**
   * The protocol this peer speaks (default v1): every frame both ways is judged by its methods and
   * schemas, so a member or method of another version can neither arrive nor leave.
   */
  contract?: Contract;
  input: Readable;
  output: Writable;
  handlers: InboundHandlers;
  writeStallMs?: number;
  maxFrameBytes?: number;
  logger?: Logger;
  /** Frames are traced only while this returns true; keeps the hot path free of string building. */
  traceEnabled?: () => boolean;
  /**
   * Every frame both ways as its JSON text (`in`: from the sidecar, with its size; `out`: to it,
   * sized by the reader of the tap, newline included or not), for a protocol trace (src/host/trace).
   * Asked per frame, like traceEnabled: while it returns undefined nothing is built.
   */
  frameTap?: () => FrameTap | undefined;
}

export type FrameTap = (dir: 'in' | 'out', text: string, bytes?: number) => void;

const never = () => false;
const noop = () => undefined;

/** Inbound frames judged between two event-loop turns (each after a microtask turn). */
const FRAMES_PER_TURN = 64;
/** Frames read but not judged yet at which reading pauses (back-pressure to the sidecar's pipe). */
const INBOX_PAUSE_AT = 1024;

// The reference host's wording (HOST_SPEC §14: envelope violations carry no `data`).
const PARSE_ERROR: WireError = { code: -32700, message: 'parse error' };
const INVALID_REQUEST: WireError = { code: -32600, message: 'invalid request' };

/** At most this many paths per `extension/resources/changed` (HOST_SPEC §8, our policy). */
const RESOURCES_PER_MESSAGE = 1000;

/** A line of the input that is not JSON, queued in wire order with the frames around it. */
class UnparsableLine {
  constructor(readonly text: string) {}
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** How the gate treats a method the peer names: worked out once per method and connection. */
interface Route {
  /** What the host serves it as in the peer's direction; undefined = not served (-32601 / dropped). */
  served: 'request' | 'notification' | undefined;
  /** The params schema check; only consulted when served. */
  check: Check;
  handler: InboundHandler;
}

// A microtask turn without queueMicrotask's per-call async-context bookkeeping.
const RESOLVED = Promise.resolve();

const NOT_SERVED: Route = { served: undefined, check: () => undefined, handler: noop };

/** How the host sends a method to the peer, worked out once per method and connection. */
interface OutRoute {
  direction: MethodMeta['direction'] | undefined;
  params: Check;
  result: Check;
  /** JSON.stringify(method), for frames built around pre-serialised params. */
  methodJson: string;
}

export class ValidatedConnection {
  private readonly reader: NdjsonMessageReader;
  private readonly writer: NdjsonMessageWriter;
  private readonly handlers: InboundHandlers;
  readonly contract: Contract;
  private readonly logger: Logger;
  private readonly traceOn: () => boolean;
  private readonly tap: () => FrameTap | undefined;
  private readonly abort = new AbortController();
  // Our outbound calls: wire ids count from 1 like the reference host.
  private nextId = 1;
  private readonly pending = new Map<number, PendingCall>();
  // One timer for every call's deadline (armed for the earliest one) instead of a setTimeout and
  // clearTimeout per call: intercepts are sequential with equal budgets, so it is rarely re-armed.
  // Unref'd: a pending call never keeps the process alive on its own (the child's pipes do).
  private deadlineTimer: NodeJS.Timeout | undefined;
  private armedFor = Infinity;
  /** Barrier, shutdown and end, moved only through lifecycle.ts's table. */
  private state: ConnectionState = HANDSHAKE;
  // The rare events (end, barrier and peer violations) use the engine's one Emitter; the gate's
  // hot path never touches them.
  private readonly endReached = new Emitter<ConnectionEnd>();
  private readonly barrierViolated = new Emitter<string>();
  private readonly peerViolated = new Emitter<string>();
  // Frames of the current read not judged yet, in arrival order (see the header).
  private inbox: unknown[] = [];
  /** The byte length of each waiting frame, beside it (a number array: no object per frame). */
  private inboxBytes: number[] = [];
  private inboxHead = 0;
  /**
   * Whether frames wait, whether the reader is paused for them, and a close or read error of the
   * transport waiting until the frames before it have been judged (lifecycle.ts).
   */
  private reading: ReadingState = IDLE;
  // Frames whose numeric id was written with a fraction or an exponent (see receive()).
  private readonly nonIntegerIds = new WeakSet<object>();
  /** Frames whose integer id is past 2^53: the id as written, for the answer. */
  private readonly rawIds = new WeakMap<object, RawIntegerId>();
  // One entry per protocol method the peer has named (a bounded set: unknown names are not kept).
  private readonly routes = new Map<string, Route>();
  private readonly outRoutes = new Map<string, OutRoute>();
  private lastMethod = '';
  private lastRoute = NOT_SERVED;
  private judgedInTurn = 0;
  private readonly drainStep = () => this.judgeNext();

  constructor(opts: ValidatedConnectionOptions) {
    this.handlers = opts.handlers;
    this.contract = opts.contract ?? V1;
    this.logger = opts.logger ?? silentLogger;
    this.traceOn = opts.traceEnabled ?? never;
    this.tap = opts.frameTap ?? noop;
    this.reader = new NdjsonMessageReader(opts.input, { maxFrameBytes: opts.maxFrameBytes });
    this.writer = new NdjsonMessageWriter(opts.output, {
      maxFrameBytes: opts.maxFrameBytes,
      writeStallMs: opts.writeStallMs,
    });

    // A line that is not JSON waits its turn like any frame, so answers keep wire order (no
    // handler ever sees it, so its size is not needed).
    this.reader.onUnparsable((text) => this.receive(new UnparsableLine(text), 0));
    this.reader.onError((err) => {
      const reason = err instanceof ProtocolError ? err.reason : 'provider_interrupted';
      this.finishAfterDrain({ reason, message: err.message, local: false });
    });
    this.reader.onClose(() =>
      this.finishAfterDrain({ reason: 'provider_interrupted', message: 'the sidecar closed its stdout', local: false }),
    );
    this.writer.onError((err) => this.finish({ reason: 'provider_interrupted', message: err.message, local: false }));
    this.reader.listen((raw, bytes) => this.receive(raw, bytes));
  }

  get ended(): ConnectionEnd | undefined {
    return this.state.kind === 'ended' ? this.state.end : undefined;
  }

  /** Aborts when the connection ends; given to inbound request handlers. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Opens the traffic barrier (HOST_SPEC §2.4). Call right before sending `extension/initialized`. */
  markReady(): void {
    this.state = nextConnectionState(this.state, 'ready');
  }

  /** From now on sidecar→host requests are refused with -32600. */
  beginShutdown(): void {
    this.state = nextConnectionState(this.state, 'shutdown');
  }

  /** Fires once when the connection ends; a listener added after the end is called at once. */
  onEnd(listener: (end: ConnectionEnd) => void): Disposable {
    const ended = this.ended;
    if (!ended) return this.endReached.event(listener);
    listener(ended);
    return { dispose: () => undefined };
  }

  /** The peer sent something that is not a JSON-RPC 2.0 message: a non-JSON line, a bare value, a broken envelope. */
  onPeerViolation(listener: (what: string) => void): Disposable {
    return this.peerViolated.event(listener);
  }

  /** Sidecar→host traffic arrived before `markReady()`. */
  onBarrierViolation(listener: (method: string) => void): Disposable {
    return this.barrierViolated.event(listener);
  }

  /**
   * Host→extension request. Params are validated first (a violation is our bug and rejects before
   * anything is written); the result is validated against the method's result schema.
   */
  request<R>(method: string, params: object, opts: RequestOptions = {}): Promise<R> {
    if (this.ended) return Promise.reject(this.interrupted());
    const out = this.outRoute(method);
    if (out.direction !== 'host_to_extension_request') {
      return Promise.reject(
        new ProtocolError('internal', `${method} is not a host-to-extension request of ${this.contract.protocolId}`),
      );
    }
    const invalid = out.params(params);
    if (invalid !== undefined)
      return Promise.reject(new ProtocolError('internal', `refusing to send invalid ${method} params: ${invalid}`));
    const id = this.nextId++;
    let frame: Frame;
    try {
      frame =
        opts.paramsJson === undefined
          ? this.writer.encodeText({ jsonrpc: '2.0', id, method, params })
          : this.writer.frameText(
              `{"jsonrpc":"2.0","id":${id},"method":${out.methodJson},"params":${opts.paramsJson}}`,
            );
    } catch (err) {
      return Promise.reject(err as Error); // oversize: this call fails, the connection stays
    }
    // A sidecar that does not read cannot make us queue without bound: this call fails instead.
    const full = this.writer.refusal(frame);
    if (full) return Promise.reject(full);
    // One promise per call, settled by its pending entry straight from the read that carries the
    // answer (no wrapper promise, no extra turns); one timer serves every call's deadline.
    let resolve!: (value: unknown) => void;
    let reject!: (err: Error) => void;
    const result = new Promise<R>((res, rej) => {
      resolve = res as (value: unknown) => void;
      reject = rej;
    });
    const call = new PendingCall(this.pending, id, method, out.result, opts, resolve, reject);
    this.pending.set(id, call);
    if (opts.signal) call.watch(opts.signal);
    if (opts.timeoutMs !== undefined) {
      call.deadline = performance.now() + opts.timeoutMs;
      this.watchDeadline(call.deadline);
    }
    this.traceOut(frame);
    this.writer.send(frame); // a failed writer ends the connection, which rejects the call
    return result;
  }

  /** Reliable host→extension notification. Throws on invalid params or an oversize frame. */
  notify(method: string, params: object): void {
    if (this.ended) throw this.interrupted();
    const out = this.outRoute(method);
    if (out.direction !== 'host_to_extension_notification') {
      throw new ProtocolError(
        'internal',
        `${method} is not a host-to-extension notification of ${this.contract.protocolId}`,
      );
    }
    const invalid = out.params(params);
    if (invalid !== undefined)
      throw new ProtocolError('internal', `refusing to send invalid ${method} params: ${invalid}`);
    if (method === 'extension/resources/changed') {
      // Coalesced while the sidecar is not reading, so file churn never grows the queue.
      const paths = (params as { paths: string[] }).paths;
      if (this.traceOn())
        this.logger.trace(`-> ${method} (${paths.length} paths; merged into a queued one if the sidecar is behind)`);
      this.tap()?.('out', JSON.stringify({ jsonrpc: '2.0', method, params }));
      this.writer
        .writeMergeable({
          key: method,
          items: paths,
          maxItems: RESOURCES_PER_MESSAGE,
          build: (items) => JSON.stringify({ jsonrpc: '2.0', method, params: { paths: items } }),
        })
        .catch(noop);
      return;
    }
    const frame = this.writer.encodeText({ jsonrpc: '2.0', method, params });
    const full = this.writer.refusal(frame);
    if (full) throw full;
    this.traceOut(frame);
    this.writer.send(frame);
  }

  /** Best-effort `extension/event`; false when dropped (queue slots full or connection gone). */
  sendEvent(params: EventParams): boolean {
    if (this.ended) return false;
    const invalid = this.outRoute('extension/event').params(params);
    if (invalid !== undefined)
      throw new ProtocolError('internal', `refusing to send invalid extension/event params: ${invalid}`);
    const frame = { jsonrpc: '2.0', method: 'extension/event', params };
    this.tap()?.('out', JSON.stringify(frame));
    return this.writer.writeBestEffort(frame);
  }

  /** Flushes queued frames, then closes the output (the child's stdin). */
  end(): void {
    this.writer.end();
  }

  /** Ends the connection from our side; pending calls fail with `provider_interrupted`. */
  dispose(message = 'the connection was closed'): void {
    this.finish({ reason: 'provider_interrupted', message, local: true });
  }

  private traceOut(frame: Frame): void {
    this.tap()?.('out', typeof frame === 'string' ? frame : frameBuffer(frame).toString());
    if (!this.traceOn()) return;
    const end = Math.min(frame.length - 1, 2000);
    this.logger.trace(
      `-> ${redact(typeof frame === 'string' ? frame.slice(0, end) : frameBuffer(frame).toString('utf8', 0, end))}`,
    );
  }

  private watchDeadline(deadline: number): void {
    if (deadline >= this.armedFor || this.ended) return;
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
      if (call.deadline <= now) call.expire();
      else if (call.deadline < next) next = call.deadline;
    }
    if (next !== Infinity) this.watchDeadline(next);
  }

  // ---- inbound gate -------------------------------------------------------------------------

  /**
   * Before the barrier opens every frame is judged on arrival (a barrier violation is judged by
   * the state it arrived in); after it, the first frame of a read is, and the rest wait in order.
   */
  private receive(raw: unknown, bytes: number): void {
    if (this.ended) return;
    // How the id was written is only known while the reader delivers its line (JSON.parse turns
    // `1e2` into 100): judge it now, the frame itself may be judged a few turns later.
    // An id past 2^53 has been rounded as well: its text is kept to echo (only such ids pay for it).
    if (isPlainObject(raw) && Number.isInteger(raw.id)) {
      const huge = !Number.isSafeInteger(raw.id);
      if (raw.method !== undefined || huge) {
        const text = topLevelMemberText(this.reader.currentLine ?? '', 'id');
        if (!isIntegerIdText(text)) {
          if (raw.method !== undefined) this.nonIntegerIds.add(raw);
        } else if (huge && text !== undefined) this.rawIds.set(raw, new RawIntegerId(text));
      }
    }
    if (this.state.kind === 'handshake') return this.gate(raw, bytes);
    if (this.reading.kind !== 'idle') {
      this.inboxBytes.push(bytes);
      if (this.inbox.push(raw) - this.inboxHead >= INBOX_PAUSE_AT && this.reading.kind === 'draining') {
        this.reading = nextReadingState(this.reading, 'pause');
        this.reader.pause();
      }
      return;
    }
    this.reading = nextReadingState(this.reading, 'drain');
    this.judgedInTurn = 1;
    this.gate(raw, bytes);
    RESOLVED.then(this.drainStep); // the consumer of the frame just judged gets its turn first
  }

  /** Judges the next waiting frame, one per microtask turn and an event-loop turn every 64. */
  private judgeNext(): void {
    if (this.inboxHead === this.inbox.length || this.ended) return this.drained();
    if (this.judgedInTurn === FRAMES_PER_TURN) {
      this.judgedInTurn = 0;
      setImmediate(this.drainStep);
      return;
    }
    const raw = this.inbox[this.inboxHead];
    const bytes = this.inboxBytes[this.inboxHead];
    this.inbox[this.inboxHead++] = undefined;
    this.judgedInTurn++;
    this.gate(raw, bytes);
    RESOLVED.then(this.drainStep);
  }

  private drained(): void {
    if (this.inbox.length) {
      this.inbox = [];
      this.inboxBytes = [];
    }
    this.inboxHead = 0;
    const was = this.reading;
    this.reading = nextReadingState(was, 'drained');
    if (was.kind === 'idle') return; // not reached: the table refuses it
    if (was.kind === 'paused') this.reader.resume();
    if (was.endAfter) this.finish(was.endAfter);
  }

  private finishAfterDrain(end: ConnectionEnd): void {
    if (this.reading.kind !== 'idle') this.reading = nextReadingState(this.reading, 'endPending', end);
    else this.finish(end);
  }

  private gate(raw: unknown, bytes: number): void {
    if (this.ended) return;
    this.tap()?.('in', raw instanceof UnparsableLine ? raw.text : JSON.stringify(raw), bytes);
    if (raw instanceof UnparsableLine) return this.unparsable(raw.text);
    if (this.traceOn()) this.logger.trace(`<- ${redact(JSON.stringify(raw).slice(0, 2000))}`);
    if (!isPlainObject(raw)) return this.reply(null, INVALID_REQUEST); // batch arrays, bare values
    const id = raw.id as unknown;
    const hasId = id !== undefined;
    // Envelope rules as the reference host's frame validator (issue 11 item 6): an id must be a
    // string, an integer written as one (`1.5` and `1e2` are not) or null; an id that is not
    // parseable that way is answered as null.
    const integerId = typeof id === 'number' && Number.isInteger(id) && !this.nonIntegerIds.has(raw);
    const validId = id === null || typeof id === 'string' || integerId;
    const echo: JsonId = validId ? (this.rawIds.get(raw) ?? (id as JsonId)) : null;
    if (hasId && !validId) return this.reply(null, INVALID_REQUEST);
    if (raw.jsonrpc !== '2.0') {
      this.unusableAnswer(raw, 'not JSON-RPC 2.0');
      return this.reply(echo, INVALID_REQUEST);
    }
    const method = raw.method;
    if (method === undefined) return this.gateResponse(raw, hasId, echo);
    // A method of the wrong type makes the frame unreadable as a request: answered with id null.
    if (typeof method !== 'string') return this.reply(null, INVALID_REQUEST);
    if (method === '' || raw.result !== undefined || raw.error !== undefined) return this.reply(echo, INVALID_REQUEST);
    // `params` absent, an object or an array passes the envelope; null, a string, a number or a
    // boolean is an invalid request. (An array then fails the method's DTO with -32602, HOST_SPEC
    // case 4: the seed schema wants an object for every method, the reference's frame validator
    // lets arrays through to the DTO decode; we give the reference's -32602.)
    if (raw.params !== undefined && (typeof raw.params !== 'object' || raw.params === null))
      return this.reply(echo, INVALID_REQUEST);

    if (this.state.kind === 'handshake') {
      if (hasId) this.reply(echo, wireError('protocol_error', `${method} arrived before extension/initialized`));
      this.barrierViolated.fire(method);
      return;
    }
    const route = this.route(method);
    if (hasId) {
      if (this.state.kind === 'closing')
        return this.reply(echo, wireError('protocol_error', 'the host is shutting this connection down'));
      if (route.served !== 'request') return this.reply(echo, this.contract.unknownMethod(method));
      const params = raw.params === undefined ? {} : raw.params;
      if (!isPlainObject(params)) return this.reply(echo, wireError('invalid_params', 'params must be an object'));
      const problem = route.check(params);
      if (problem !== undefined)
        return this.reply(echo, wireError('invalid_params', `invalid ${method} params: ${problem}`));
      this.serve(echo, method, route.handler, params, bytes); // a request with `id: null` is served, as the reference does
      return;
    }
    // Notification: anything invalid is dropped without an answer.
    if (route.served !== 'notification') {
      this.logger.debug(`dropped notification ${method}: not served`);
      return;
    }
    const params = raw.params === undefined ? {} : raw.params;
    if (!isPlainObject(params) || route.check(params) !== undefined) {
      this.logger.debug(`dropped notification ${method}: invalid params`);
      return;
    }
    try {
      route.handler(params, this.abort.signal, bytes);
    } catch (err) {
      this.logger.error(`host handler for ${method} failed: ${redact(String((err as Error)?.message ?? err))}`);
    }
  }

  private route(method: string): Route {
    // A stream is a run of frames naming the same method: one string compare instead of a lookup.
    if (method === this.lastMethod) return this.lastRoute;
    const route = this.routes.get(method) ?? this.newRoute(method);
    this.lastMethod = method;
    this.lastRoute = route;
    return route;
  }

  private newRoute(method: string): Route {
    const meta: MethodMeta | undefined = this.contract.method(method);
    if (!meta) return NOT_SERVED;
    const served =
      meta.direction === 'extension_to_host_request'
        ? 'request'
        : meta.direction === 'extension_to_host_notification'
          ? 'notification'
          : undefined;
    const handler = served ? this.handlers.handler(method) : undefined;
    const route: Route = handler
      ? { served, check: this.contract.paramsCheck(method as MethodName), handler }
      : NOT_SERVED;
    this.routes.set(method, route); // protocol methods only: a bounded set
    return route;
  }

  private gateResponse(raw: Record<string, unknown>, hasId: boolean, echo: JsonId): void {
    const hasResult = 'result' in raw;
    const hasError = 'error' in raw;
    if (!hasId || raw.params !== undefined || hasResult === hasError) {
      this.unusableAnswer(
        raw,
        hasResult === hasError ? `${hasResult ? 'both' : 'neither'} result and error` : 'params',
      );
      return this.reply(echo, INVALID_REQUEST);
    }
    if (hasError) {
      const e = raw.error;
      if (!isPlainObject(e) || !Number.isInteger(e.code) || typeof e.message !== 'string') {
        this.unusableAnswer(raw, 'a malformed error');
        return this.reply(echo, INVALID_REQUEST);
      }
    }
    const id = raw.id;
    // Our ids are positive safe integers; anything else (a string id, null, an id past 2^53 that
    // JSON.parse rounded onto one of ours) matches nothing.
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1 || this.rawIds.has(raw)) {
      this.logger.debug(`ignored response with id ${JSON.stringify(id)}`);
      if (typeof id === 'string') this.unusableAnswer(raw, 'a string id');
      return;
    }
    const call = this.pending.get(id);
    if (!call) {
      this.logger.debug(`ignored response with id ${id}: no call is waiting for it`);
      return;
    }
    this.pending.delete(id);
    if (hasError) call.failed(this.peerError(raw.error as { code: number; message: string; data?: unknown }));
    else call.done(raw.result);
  }

  /**
   * A response-shaped frame the host cannot use that still names one of its calls (by its number,
   * or by that number written as a string): the call hears of it (PendingCall.unusable).
   */
  private unusableAnswer(raw: Record<string, unknown>, problem: string): void {
    if (raw.method !== undefined || this.rawIds.has(raw)) return;
    const id = raw.id;
    const n = typeof id === 'number' ? id : typeof id === 'string' && /^[1-9][0-9]{0,15}$/.test(id) ? Number(id) : NaN;
    if (Number.isSafeInteger(n)) this.pending.get(n)?.unusable(problem);
  }

  private reply(id: JsonId, error: WireError): void {
    if (this.ended) return;
    // Envelope violations are the -32600 answers without data (HOST_SPEC §14); barrier and
    // shutdown refusals carry data and are reported where they happen.
    if (error.code === INVALID_REQUEST.code && error.data === undefined) {
      this.violation('a frame is not a JSON-RPC 2.0 message (answered -32600 invalid request)');
    }
    const frame =
      id instanceof RawIntegerId
        ? this.writer.frameText(withRawId(id, { error }))
        : this.writer.encodeText({ jsonrpc: '2.0', id, error });
    this.traceOut(frame);
    this.writer.send(frame);
  }

  /** Runs a host handler and answers; a handler may answer synchronously or with a promise. */
  private serve(id: JsonId, method: string, handler: InboundHandler, params: object, bytes: number): void {
    let out: unknown;
    try {
      out = handler(params, this.abort.signal, bytes);
    } catch (err) {
      return this.answerError(id, method, err);
    }
    if (out instanceof Promise) {
      out.then(
        (result: unknown) => this.answer(id, method, result),
        (err: unknown) => this.answerError(id, method, err),
      );
    } else this.answer(id, method, out);
  }

  private answer(id: JsonId, method: string, result: unknown): void {
    if (this.ended) return;
    const encoded = result instanceof EncodedResult ? result : undefined;
    const v = this.contract.validateResult(method as MethodName, encoded ? encoded.value : result);
    if (!v.ok) {
      this.logger.error(`host handler for ${method} produced an invalid result: ${v.message}`);
      return this.reply(id, wireError('internal'));
    }
    let frame: Frame;
    try {
      // A pre-encoded result (a content page) is spliced in as bytes, never re-stringified.
      frame = encoded
        ? encoded.frame(`{"jsonrpc":"2.0","id":${idJson(id)},"result":`, '}\n', this.writer.maxFrameBytes)
        : id instanceof RawIntegerId
          ? this.writer.frameText(withRawId(id, { result }))
          : this.writer.encodeText({ jsonrpc: '2.0', id, result });
    } catch {
      // Our own answer would be too big: answer internal instead (HOST_SPEC §1).
      return this.reply(id, wireError('internal'));
    }
    this.traceOut(frame);
    this.writer.send(frame);
  }

  private answerError(id: JsonId, method: string, err: unknown): void {
    if (err instanceof ProtocolError) {
      const wire = this.contract.toWire(err);
      if (wire.data?.reason !== err.reason)
        this.logger.error(
          `host handler for ${method} failed with ${err.reason}, a reason ${this.contract.protocolId} lacks`,
        );
      return this.reply(id, wire);
    }
    this.logger.error(`host handler for ${method} failed: ${redact(String((err as Error)?.message ?? err))}`);
    this.reply(id, wireError('internal'));
  }

  // ---- outbound --------------------------------------------------------------------------------

  private outRoute(method: string): OutRoute {
    let out = this.outRoutes.get(method);
    if (!out) {
      const meta = this.contract.method(method);
      const methodJson = JSON.stringify(method);
      out = meta
        ? {
            direction: meta.direction,
            params: this.contract.paramsCheck(method as MethodName),
            result: this.contract.resultCheck(method as MethodName),
            methodJson,
          }
        : { direction: undefined, params: NOT_SERVED.check, result: NOT_SERVED.check, methodJson };
      if (meta) this.outRoutes.set(method, out); // protocol methods only: a bounded set
    }
    return out;
  }

  /** A structured error keeps its reason; anything else keeps its code. Messages are redacted. */
  private peerError(error: { code: number; message: string; data?: unknown }): Error {
    const data = this.contract.readErrorData(error.data);
    const message = redact(String(error.message));
    return data ? new ProtocolError(data.reason, message) : new PeerError(error.code, message);
  }

  private interrupted(): ProtocolError {
    return new ProtocolError('provider_interrupted', `connection closed: ${this.ended?.message ?? 'not open'}`);
  }

  private unparsable(text: string): void {
    if (this.traceOn()) this.logger.trace(`<- (not JSON) ${redact(text.slice(0, 2000))}`);
    this.violation(
      `a line on stdout is not JSON (${JSON.stringify(redact(text.slice(0, 80)))}); stdout carries protocol frames only, write diagnostics to stderr`,
    );
    this.reply(null, PARSE_ERROR);
  }

  private violation(what: string): void {
    this.peerViolated.fire(what);
  }

  private finish(end: ConnectionEnd): void {
    if (this.ended) return;
    this.state = nextConnectionState(this.state, 'end', end);
    this.inbox = []; // frames not judged yet die with the connection
    this.inboxBytes = [];
    this.inboxHead = 0;
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineTimer = undefined;
    this.abort.abort();
    this.reader.dispose();
    const calls = [...this.pending.values()];
    this.pending.clear();
    for (const call of calls) call.failed(this.interrupted());
    this.writer.dispose();
    this.endReached.fire(end);
    this.endReached.clear();
  }
}
