// The narrow port the dispatcher needs from one running sidecar. The real Sidecar is adapted by
// sidecarAdapter.ts; tests may supply in-process fakes.
import type { EventParams, InterceptParams } from '../../protocol';
import type { ContentStore } from '../content';
import type { RuntimeBlock } from '../plugins';

/** The installed manifest's runtime members that decide membership, order, slots and budgets. */
export type InterceptRuntime = Pick<
  RuntimeBlock,
  'intercepts' | 'replaces' | 'priority' | 'required' | 'timeoutMillis'
>;

export interface InterceptRequestOptions {
  timeoutMs: number;
  timeoutReason: 'intercept_timeout';
  signal?: AbortSignal;
  /** `JSON.stringify(params)`, pre-built with the payload JSON spliced in; clients may ignore it. */
  paramsJson?: string;
}

export interface InterceptClient {
  readonly pluginId: string;
  readonly runtime: InterceptRuntime;
  /** Registration order: the last tie-breaker after priority and plugin id. */
  readonly registration: number;
  isLive(): boolean;
  /** Its lifecycle state in words ("running", "crashed", "stopped"…), for messages. */
  readonly state?: string;
  /** Per-connection counter starting at 1; consumed once per intercept actually sent. */
  nextInterceptSeq(): number;
  /**
   * Resolves only with a schema-valid InterceptResult: the connection checks every result once
   * (one check per frame), so the dispatcher never validates it again.
   * Rejects with ProtocolError (timeout → intercept_timeout, dead connection → provider_interrupted). */
  request<R>(method: 'extension/intercept', params: InterceptParams, opts: InterceptRequestOptions): Promise<R>;
  /** Best-effort `extension/event`; false when the event was dropped. */
  sendEvent(params: EventParams): boolean;
  /** The connection's content store (refs die with the connection). */
  readonly content: ContentStore;
}

/** Required-class (HOST_SPEC §4.4): manifest `required`, or owner of any replacement slot. */
export function isRequiredClass(runtime: InterceptRuntime): boolean {
  return runtime.required || runtime.replaces.length > 0;
}

/**
 * A client for a plugin that has no process (its session has no runtime generation): it takes
 * part in membership exactly as it would running, and is never live.
 */
export function offlineClient(
  pluginId: string,
  runtime: InterceptRuntime,
  registration: number,
  state: () => string,
): InterceptClient {
  const down = () => Promise.reject(new Error(`plugin '${pluginId}' is not running`));
  return {
    pluginId,
    runtime,
    registration,
    get state() {
      return state();
    },
    isLive: () => false,
    nextInterceptSeq: () => {
      throw new Error(`plugin '${pluginId}' is not running`);
    },
    request: down,
    sendEvent: () => false,
    get content(): ContentStore {
      throw new Error(`plugin '${pluginId}' is not running`);
    },
  };
}
