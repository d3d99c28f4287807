// The narrow view of one sidecar that tool calls need, and of the folder's interceptor chain. The
// real `Sidecar` is adapted by sidecarAdapter.ts; unit tests may supply in-process fakes.
import type { ErrorReason, ToolCallParams } from '../../protocol';
import type { Disposable } from '../emitter';
import type { DispatchOptions, DispatchOutcome, HookPayloadMap } from '../intercepts';
import type { ToolDecl } from '../plugins';

export type { Disposable };

/** Lifecycle states of a client; only `running` serves calls. */
export type ToolClientState = 'idle' | 'starting' | 'running' | 'stopping' | 'stopped' | 'crashed' | 'failed';

export interface ToolClient {
  readonly pluginId: string;
  readonly state: ToolClientState;
  /**
   * The tools the process serves: manifest declarations it named at its last handshake (kept after
   * it stops or crashes, so a later call by name fails as interrupted, not as unknown).
   */
  readonly tools: readonly ToolDecl[];
  /**
   * Whether the extension's manifest lists the `ui` capability: its tools may anchor a view to
   * their call (issue 41), so a caller that can draw one mints a call id for them. Absent: false.
   */
  readonly ui?: boolean;
  /**
   * Resolves only with a schema-valid ToolCallResult (the connection checks every result once);
   * rejects with InvalidResultError, ProtocolError or PeerError, and with RequestTimeoutError once
   * `timeoutMs` has passed. Aborting `signal` abandons the request: it rejects at once. A late
   * answer is ignored either way.
   */
  request<R>(
    method: 'extension/tool/call',
    params: ToolCallParams,
    opts: { timeoutMs: number; signal?: AbortSignal; failOnUnusableAnswer?: boolean },
  ): Promise<R>;
  onStateChange(listener: (state: ToolClientState, previous: ToolClientState) => void): Disposable;
}

/** The three points every tool call passes (HOST_SPEC_V2 §12 "interceptors"). */
export type ToolPoint = 'tool.before' | 'permission.decision' | 'tool.after';

/** The folder's dispatcher, as the engine has it for the current generation. */
export type ToolChainDispatch = <P extends ToolPoint>(
  point: P,
  payload: HookPayloadMap[P],
  opts: DispatchOptions,
) => Promise<DispatchOutcome<P>>;

/** The folder's current dispatcher, as a tool call asks it (its bound method, so the ask goes straight to it). */
export interface ToolChainDispatcher {
  dispatch: ToolChainDispatch;
}

/** Why a tool call could not run (the call failed; the tool never answered with a result). */
export type ToolFailureReason =
  /** A protocol reason: the sidecar crashed or stopped (`provider_interrupted`), answered with an
   * invalid result (`protocol_error`), or reported this reason in its structured error data. */
  | ErrorReason
  /** The sidecar answered with a JSON-RPC error without valid data; `code` holds its code. */
  | 'extension_error'
  /** The budget passed without an answer; a late answer is ignored. */
  | 'timeout'
  /** The caller aborted its signal. */
  | 'cancelled'
  /** No extension of the folder serves a tool by that name. */
  | 'not_offered';
