// One StreamHub per sidecar connection: mints and registers streams, routes stream/chunk and
// stream/end notifications by streamId (in arrival order, as the sidecar delivers them), and ends
// every open stream as interrupted when the connection goes away. Params arrive schema-valid: the
// connection checked them (one check per frame), so nothing here validates them again.
import { performance } from 'node:perf_hooks';
import {
  ProtocolError,
  type StreamChunkParams,
  type StreamEndParams,
  type StreamOpenParams,
  type StreamOpenResult,
} from '../../protocol';
import { silentLogger, type Logger } from '../log';
import { redact } from '../redact';
import { mintStreamId } from './ids';
import type { ClientState, Disposable, ProviderClient, StreamOutcome } from './ports';
import { Reassembler } from './reassembly';
import { normaliseRequest, type ProviderRequestInput } from './request';
import { ProviderStream } from './stream';

export interface StreamHubOptions {
  logger?: Logger;
  /** Post-end gap timer (reference 1 s). */
  gapMs?: number;
  /** Reorder window (reference 256). */
  window?: number;
  /** Undelivered chunks a consumer may fall behind by (reference 256). */
  queueCapacity?: number;
  /** Bound of the best-effort stream/cancel call (reference 2 s). */
  cancelTimeoutMs?: number;
  /** Optional idle bound for every stream (our policy; the reference has none). 0 = none. */
  idleMs?: number;
}

export interface OpenStreamOptions {
  providerRef: string;
  model?: string;
  effort?: string;
  request?: ProviderRequestInput;
  /** Aborting cancels the stream exactly like `stream.cancel()`. */
  signal?: AbortSignal;
  /** Overrides the hub's idle bound for this stream. 0 = none. */
  idleMs?: number;
}

interface Entry {
  stream: ProviderStream;
  reassembler: Reassembler;
  idleMs: number;
  /** performance.now() of the last traffic; the idle timer re-arms from it lazily. */
  lastTraffic: number;
  idleTimer?: NodeJS.Timeout;
  openAbort: AbortController;
  detachSignal?: () => void;
}

const GONE: ReadonlySet<ClientState> = new Set(['stopping', 'stopped', 'crashed', 'failed']);

export class StreamHub implements Disposable {
  private readonly streams = new Map<string, Entry>();
  private readonly log: Logger;
  private readonly gapMs: number;
  private readonly window: number;
  private readonly queueCapacity: number;
  private readonly cancelTimeoutMs: number;
  private readonly idleMs: number;
  private readonly stateSub: Disposable;
  // The stream of the last chunk: chunks come in runs per stream, so one string compare usually
  // replaces the map lookup (which would hash the freshly parsed id every time).
  private lastId = '';
  private lastEntry: Entry | undefined;

  constructor(
    private readonly client: ProviderClient,
    opts: StreamHubOptions = {},
  ) {
    this.log = opts.logger ?? silentLogger;
    this.gapMs = opts.gapMs ?? 1000;
    this.window = opts.window ?? 256;
    this.queueCapacity = opts.queueCapacity ?? 256;
    this.cancelTimeoutMs = opts.cancelTimeoutMs ?? 2000;
    this.idleMs = opts.idleMs ?? 0;
    this.stateSub = client.onStateChange((state) => {
      if (GONE.has(state))
        this.interruptAll(`sidecar ${client.pluginId} ${state === 'crashed' ? 'crashed' : 'stopped'}`);
    });
  }

  /** Streams that have not reached an outcome yet. */
  get openCount(): number {
    return this.streams.size;
  }

  /**
   * Routes `extension/provider/stream/chunk` (validated by the connection); unknown ids are dropped
   * silently. A v2 chunk of a generation older than the published one is dropped silently too
   * (HOST_SPEC_V2 §6: `params.generation`, else `chunk.generation`; none or 0 is never stale). A v1
   * chunk carries neither member (its schema has none), so it pays one falsy read.
   */
  handleChunk(params: StreamChunkParams): void {
    const generation = params.generation || params.chunk.generation;
    if (generation && generation < this.client.generation) return;
    let entry = this.lastEntry;
    if (entry === undefined || params.streamId !== this.lastId) {
      entry = this.streams.get(params.streamId);
      if (!entry) return;
      this.lastId = params.streamId;
      this.lastEntry = entry;
    }
    if (entry.idleMs) entry.lastTraffic = performance.now();
    entry.reassembler.chunk(params.seq, params.chunk);
  }

  /** Routes `extension/provider/stream/end` (validated by the connection). */
  handleEnd(params: StreamEndParams): void {
    const entry = this.streams.get(params.streamId);
    if (!entry) return;
    if (entry.idleMs) entry.lastTraffic = performance.now();
    entry.reassembler.endWith(params);
  }

  /**
   * Registers a stream, then sends stream/open (chunks may race its answer). Never throws: every
   * failure, including a declined open, becomes the stream's outcome.
   */
  openStream(opts: OpenStreamOptions): ProviderStream {
    const streamId = mintStreamId();
    const stream = new ProviderStream(streamId, this.queueCapacity, () => this.cancel(streamId));
    const entry: Entry = {
      stream,
      openAbort: new AbortController(),
      idleMs: opts.idleMs ?? this.idleMs,
      lastTraffic: 0,
      reassembler: undefined as unknown as Reassembler,
    };
    entry.reassembler = new Reassembler(
      {
        deliver: (chunk) => stream.push(chunk),
        finish: (outcome) => this.settle(streamId, entry, outcome),
        redact,
      },
      { window: this.window, gapMs: this.gapMs },
    );
    this.streams.set(streamId, entry);

    if (this.client.state !== 'running') {
      entry.reassembler.interrupt('provider_interrupted', `sidecar ${this.client.pluginId} is not running`);
      return stream;
    }
    if (opts.signal) {
      const signal = opts.signal;
      if (signal.aborted) {
        entry.reassembler.interrupt('stream_cancelled', 'the stream was cancelled before it opened');
        return stream;
      }
      const onAbort = (): void => stream.cancel();
      signal.addEventListener('abort', onAbort, { once: true });
      entry.detachSignal = () => signal.removeEventListener('abort', onAbort);
    }
    this.armIdle(entry);

    const params: StreamOpenParams = {
      streamId,
      providerRef: opts.providerRef,
      request: normaliseRequest(opts.request),
      seqBase: 1,
    };
    if (opts.model !== undefined) params.model = opts.model;
    if (opts.effort !== undefined) params.effort = opts.effort;
    const { streamGeneration, streamOpenTimeoutMs } = this.client.contract.features;
    // v2: the generation the turn is pinned to, and no epoch (HOST_SPEC_V2 §6, our policy).
    if (streamGeneration) params.generation = this.client.generation;
    this.client
      .request<StreamOpenResult>('extension/provider/stream/open', params, {
        signal: entry.openAbort.signal,
        ...(streamOpenTimeoutMs === undefined
          ? {}
          : { timeoutMs: streamOpenTimeoutMs, timeoutReason: 'provider_interrupted' as const }),
      })
      .then(
        (res) => {
          if (entry.reassembler.finished || res?.accepted === true) return;
          // A declined open is a provider failure; no model is tried instead.
          entry.reassembler.abort({
            kind: 'failed',
            reason: 'provider_failed',
            message: `provider ${opts.providerRef} declined the stream`,
          });
          this.sendCancel(streamId);
        },
        (err: unknown) => {
          if (entry.reassembler.finished) return;
          this.failOpen(streamId, entry, err);
        },
      );
    return stream;
  }

  /** Cancels one stream: stop delivering, finish `stream_cancelled`, best-effort stream/cancel. */
  cancel(streamId: string): void {
    const entry = this.streams.get(streamId);
    if (!entry) return;
    entry.reassembler.interrupt('stream_cancelled', 'the stream was cancelled');
    this.sendCancel(streamId);
  }

  /** Ends every open stream as interrupted (connection gone); delivered chunks stay readable. */
  interruptAll(message: string): void {
    for (const entry of [...this.streams.values()]) entry.reassembler.interrupt('provider_interrupted', message);
  }

  dispose(): void {
    this.stateSub.dispose();
    this.interruptAll(`sidecar ${this.client.pluginId} released its streams`);
  }

  private failOpen(streamId: string, entry: Entry, err: unknown): void {
    if (err instanceof ProtocolError && err.reason === 'provider_interrupted') {
      entry.reassembler.interrupt('provider_interrupted', redact(err.message));
    } else {
      const text = err instanceof Error ? err.message : String(err);
      entry.reassembler.abort({
        kind: 'failed',
        reason: 'provider_failed',
        message: `stream/open failed: ${redact(text)}`,
      });
    }
    this.sendCancel(streamId);
  }

  private settle(streamId: string, entry: Entry, outcome: StreamOutcome): void {
    this.streams.delete(streamId);
    if (this.lastEntry === entry) {
      this.lastId = '';
      this.lastEntry = undefined;
    }
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    entry.detachSignal?.();
    entry.openAbort.abort();
    if (outcome.kind !== 'completed') this.log.debug(`stream ${streamId} ${outcome.kind}: ${outcome.message}`);
    entry.stream.close(outcome, outcome.kind === 'interrupted' && outcome.reason === 'stream_cancelled');
  }

  /**
   * One idle timer per stream, armed at open. Traffic only records its time; when the timer fires
   * early because traffic came meanwhile, it re-arms for the rest of the bound (no timer per chunk).
   */
  private armIdle(entry: Entry): void {
    if (!entry.idleMs) return;
    entry.lastTraffic = performance.now();
    const check = (): void => {
      const id = entry.stream.streamId;
      if (!this.streams.has(id)) return;
      const quiet = performance.now() - entry.lastTraffic;
      if (quiet < entry.idleMs) {
        entry.idleTimer = setTimeout(check, Math.ceil(entry.idleMs - quiet));
        return;
      }
      entry.reassembler.interrupt('provider_interrupted', `no stream traffic for ${entry.idleMs} ms`);
      this.sendCancel(id);
    };
    entry.idleTimer = setTimeout(check, entry.idleMs);
  }

  private sendCancel(streamId: string): void {
    if (this.client.state !== 'running') return;
    this.client
      .request('extension/provider/stream/cancel', { streamId }, { timeoutMs: this.cancelTimeoutMs })
      .catch((err: unknown) =>
        this.log.debug(
          `stream/cancel ${streamId} ignored: ${redact(err instanceof Error ? err.message : String(err))}`,
        ),
      );
  }
}
