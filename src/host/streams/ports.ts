// The narrow view of one sidecar connection that provider streams need. The real `Sidecar`
// satisfies it structurally; unit tests use in-process fakes.
import type { Contract, ErrorReason, ProviderChunk } from '../../protocol';
import type { Disposable } from '../emitter';

export type { Disposable };

/** Lifecycle states of a client; only `running` serves calls. */
export type ClientState = 'idle' | 'starting' | 'running' | 'stopping' | 'stopped' | 'crashed' | 'failed';

export interface RequestOptions {
  timeoutMs?: number;
  timeoutReason?: ErrorReason;
  signal?: AbortSignal;
}

export interface ProviderClient {
  readonly pluginId: string;
  readonly state: ClientState;
  /** The protocol the client speaks: whether streams carry generations (HOST_SPEC_V2 §6). */
  readonly contract: Contract;
  /** The runtime generation the client serves now (the published one). */
  readonly generation: number;
  request<R>(method: string, params: object, opts?: RequestOptions): Promise<R>;
  onStateChange(listener: (state: ClientState, previous: ClientState) => void): Disposable;
}

/** How a provider stream ended. Exactly one per stream. */
export type StreamOutcome =
  | { kind: 'completed' }
  | { kind: 'failed'; reason: 'provider_failed'; message: string }
  | { kind: 'interrupted'; reason: 'provider_interrupted' | 'stream_gap' | 'stream_cancelled'; message: string };

export type { ProviderChunk };
