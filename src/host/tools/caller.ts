// `extension/tool/call` to one sidecar (HOST_SPEC_V2 §12): the 5-minute budget, counted from the
// moment the call is asked (queue time included); at most 8 calls in flight with the rest queued
// FIFO (our policy; the reference does not bound them, the Go SDK answers "server busy" past 32);
// cancellation by abandoning the request (there is no cancel method: a late answer is ignored);
// a crash failing every pending and queued call at once, and later calls fast, until it runs again.
// A tool's own failure (`isError: true`) is a result; everything else here is a failed call.
import { ProtocolError, type ToolCallResult } from '../../protocol';
import { silentLogger, type Logger } from '../log';
import { redact } from '../redact';
import { InvalidResultError, PeerError, RequestTimeoutError } from '../wire';
import type { ToolClient, ToolClientState, ToolFailureReason } from './ports';

/** The budget of one call, ms: sent as `timeoutMillis` and enforced by the host (PROSE's current value). */
export const TOOL_CALL_BUDGET_MS = 300_000;
/** Calls in flight per sidecar (our policy); the rest wait in FIFO order, inside their budget. */
export const MAX_CONCURRENT_TOOL_CALLS = 8;

export interface ToolCallerOptions {
  budgetMs?: number;
  maxConcurrent?: number;
  logger?: Logger;
}

/** What the sidecar made of one call. */
export type ToolRun =
  | { kind: 'result'; content: string; isError: boolean }
  | { kind: 'failed'; reason: ToolFailureReason; code?: number; message: string };

interface Call {
  readonly tool: string;
  readonly args: unknown;
  readonly askedAt: number;
  readonly signal: AbortSignal | undefined;
  /** While it waits in the queue: its budget timer and the caller's abort listener. */
  queued?: { timer: NodeJS.Timeout; onAbort(): void };
  /** Waited in the queue at all: then it is sent what is left of its budget. */
  waited: boolean;
  settled: boolean;
  resolve(run: ToolRun): void;
}

export class ToolCaller {
  private readonly budgetMs: number;
  private readonly maxConcurrent: number;
  private readonly log: Logger;
  private readonly queue: Call[] = [];
  private active = 0;

  constructor(
    private readonly client: ToolClient,
    opts: ToolCallerOptions = {},
  ) {
    this.budgetMs = opts.budgetMs ?? TOOL_CALL_BUDGET_MS;
    this.maxConcurrent = opts.maxConcurrent ?? MAX_CONCURRENT_TOOL_CALLS;
    this.log = opts.logger ?? silentLogger;
    // Calls still queued when the process goes away would only wait out their budget.
    client.onStateChange((state) => {
      if (state !== 'running') this.failQueued(state);
    });
  }

  /** Calls in flight now (at most `maxConcurrent`). */
  get inFlight(): number {
    return this.active;
  }

  /** Calls waiting for a free slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Never rejects: every way a call can end is a ToolRun. `args` is sent as given (`{}` for none). */
  call(tool: string, args: unknown, opts: { signal?: AbortSignal } = {}): Promise<ToolRun> {
    if (opts.signal?.aborted) return Promise.resolve(this.cancelled(tool));
    if (this.client.state !== 'running') return Promise.resolve(this.down(tool, this.client.state));
    if (!this.client.tools.some((t) => t.name === tool)) return Promise.resolve(this.notServed(tool));
    return new Promise<ToolRun>((resolve) => {
      const call: Call = {
        tool,
        args: args === undefined ? {} : args,
        askedAt: performance.now(),
        signal: opts.signal,
        waited: false,
        settled: false,
        resolve,
      };
      if (this.active < this.maxConcurrent) this.send(call);
      else this.enqueue(call);
    });
  }

  /** A call past the bound waits its turn; its budget and the caller's signal already count. */
  private enqueue(call: Call): void {
    call.waited = true;
    const onAbort = () => this.settle(call, this.cancelled(call.tool));
    const timer = setTimeout(() => this.settle(call, this.timedOut(call.tool)), this.budgetMs);
    call.queued = { timer, onAbort };
    call.signal?.addEventListener('abort', onAbort, { once: true });
    this.queue.push(call);
  }

  /** Leaves the queue's bookkeeping (not the queue array): from here the connection watches the call. */
  private unqueue(call: Call): void {
    const queued = call.queued;
    if (!queued) return;
    call.queued = undefined;
    clearTimeout(queued.timer);
    call.signal?.removeEventListener('abort', queued.onAbort);
  }

  /** Ends a call once; a queued call leaves the queue. */
  private settle(call: Call, run: ToolRun): void {
    if (call.settled) return;
    call.settled = true;
    if (call.queued) {
      this.unqueue(call);
      this.queue.splice(this.queue.indexOf(call), 1);
    }
    call.resolve(run);
  }

  private send(call: Call): void {
    this.active++;
    // The SDK derives its handler deadline from timeoutMillis: a call that waited is sent what is
    // left of its budget, so both sides give up at the same moment. The connection keeps that
    // deadline with its one timer and abandons the call when the caller's signal aborts (a late
    // answer is ignored): no timer, controller or listener of our own per call in flight.
    const left = call.waited ? Math.max(1, call.askedAt + this.budgetMs - performance.now()) : this.budgetMs;
    this.client
      .request<ToolCallResult>(
        'extension/tool/call',
        { name: call.tool, arguments: call.args, timeoutMillis: Math.floor(left) },
        // An answer the host cannot use fails the call at once, not after 5 minutes (issue 45 item 3).
        { timeoutMs: left, signal: call.signal, failOnUnusableAnswer: true },
      )
      .then(
        (r) => this.done(call, this.answered(call, r)),
        (err: unknown) => this.done(call, this.failed(call, err)),
      );
  }

  /** A call in flight ended: its slot goes to the next queued call. */
  private done(call: Call, run: ToolRun): void {
    this.active--;
    this.settle(call, run);
    this.pump();
  }

  private pump(): void {
    while (this.active < this.maxConcurrent && this.queue.length > 0) {
      const next = this.queue.shift() as Call;
      this.unqueue(next);
      if (this.client.state !== 'running') this.settle(next, this.down(next.tool, this.client.state));
      else this.send(next);
    }
  }

  private failQueued(state: ToolClientState): void {
    for (const call of this.queue.splice(0)) {
      this.unqueue(call);
      this.settle(call, this.down(call.tool, state));
    }
  }

  private answered(call: Call, r: ToolCallResult): ToolRun {
    const isError = r.isError === true;
    const ms = Math.round(performance.now() - call.askedAt);
    // Content is product data for the model (HOST_SPEC_V2 §12 "redaction"): only the log copy is redacted.
    this.log.debug(
      `tool ${call.tool}: ${isError ? 'error result' : 'result'} of ${r.content.length} characters after ${ms} ms: ${JSON.stringify(redact(r.content.slice(0, 400)).slice(0, 200))}`,
    );
    return { kind: 'result', content: r.content, isError };
  }

  /** The call could not run: each cause in words that name the tool, the extension and what to do. */
  private failed(call: Call, err: unknown): ToolRun {
    const tool = call.tool;
    if (err instanceof RequestTimeoutError) return this.timedOut(tool);
    if (call.signal?.aborted) return this.cancelled(tool);
    const id = this.client.pluginId;
    let run: ToolRun;
    if (err instanceof InvalidResultError) {
      run = {
        kind: 'failed',
        reason: 'protocol_error',
        message: `extension ${id} answered tool ${tool} with an invalid result (${err.problem}); the extension must answer {"content": "<text>", "isError"?: <bool>}`,
      };
    } else if (err instanceof PeerError) {
      run = {
        kind: 'failed',
        reason: 'extension_error',
        code: err.code,
        message: `extension ${id} could not run tool ${tool} (JSON-RPC error ${err.code}): ${err.message}`,
      };
    } else if (err instanceof ProtocolError && err.reason === 'provider_interrupted') {
      run = {
        kind: 'failed',
        reason: 'provider_interrupted',
        message: `tool ${tool} was interrupted: extension ${id} crashed or stopped during the call (${err.message}); its tools fail until it runs again (restart it or reload the runtime)`,
      };
    } else if (err instanceof ProtocolError) {
      run = {
        kind: 'failed',
        reason: err.reason,
        message: `extension ${id} could not run tool ${tool} (${err.reason}): ${err.message}`,
      };
    } else {
      run = {
        kind: 'failed',
        reason: 'internal',
        message: `tool ${tool} of extension ${id} could not be sent: ${redact(String((err as Error)?.message ?? err))}`,
      };
    }
    this.log.debug(`tool ${tool}: failed (${run.reason}): ${run.message}`);
    return run;
  }

  private down(tool: string, state: ToolClientState): ToolRun {
    const id = this.client.pluginId;
    const what =
      state === 'crashed'
        ? `extension ${id} crashed`
        : state === 'starting'
          ? `extension ${id} is still starting`
          : `extension ${id} is not running (${state})`;
    return {
      kind: 'failed',
      reason: 'provider_interrupted',
      message: `tool ${tool} could not run: ${what}; its tools fail until it runs again (restart it or reload the runtime)`,
    };
  }

  private notServed(tool: string): ToolRun {
    return {
      kind: 'failed',
      reason: 'not_offered',
      message: `extension ${this.client.pluginId} does not serve a tool named ${tool} (it must be declared in runtime.tools and named in its InitializeResult.tools)`,
    };
  }

  private timedOut(tool: string): ToolRun {
    const s = this.budgetMs / 1000;
    return {
      kind: 'failed',
      reason: 'timeout',
      message: `extension tool timed out after ${s} s: tool ${tool} of extension ${this.client.pluginId} did not answer in time; a late answer is ignored`,
    };
  }

  private cancelled(tool: string): ToolRun {
    return {
      kind: 'failed',
      reason: 'cancelled',
      message: `tool ${tool} of extension ${this.client.pluginId} was cancelled by the caller; a late answer is ignored`,
    };
  }
}
