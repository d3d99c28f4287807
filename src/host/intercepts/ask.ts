// One `extension/intercept` round trip to one client: externalize the payload if needed, send
// with the effective budget, validate the answer, and resolve/decode a replacement. Every way it
// can go wrong comes back as a Failure (never a throw), except the caller's own cancellation.
import {
  ProtocolError,
  isErrorReason,
  type ErrorReason,
  type InterceptParams,
  type InterceptResult,
} from '../../protocol';
import { externalizePayload, resolveReplacement, type SerializedPayload } from '../content';
import { redact } from '../redact';
import type { InterceptClient } from './ports';
import { decodeReplacement, type DecodeOptions, type HookPayload } from './payloads';
import { HOOK_POINTS, interceptBudget, type HookPoint, type InterceptTimeouts } from './points';

export interface Failure {
  kind: 'failure';
  reason: ErrorReason;
  /** Credential-redacted. */
  message: string;
  /**
   * A contract violation that fails the operation whatever the plugin's class (a `tool.before`
   * replacement with empty arguments or an unknown tool): never skipped as an optional ruling.
   */
  everyClass?: boolean;
}

export type Answer =
  | { kind: 'continue' }
  | { kind: 'block'; reason?: string }
  | { kind: 'allow' | 'deny'; reason?: string }
  | { kind: 'replace'; payload: HookPayload };

/** Each point's name as JSON, made once rather than on every intercept. */
const POINT_JSON = Object.fromEntries(HOOK_POINTS.map((p) => [p, JSON.stringify(p)])) as Record<HookPoint, string>;

/** The common answer, one shared (frozen) object: callers read answers, never change them. */
const CONTINUE: Answer = Object.freeze({ kind: 'continue' });

export function failure(reason: ErrorReason, message: string): Failure {
  return { kind: 'failure', reason, message: redact(message) };
}

function failureFrom(err: unknown): Failure {
  if (err instanceof ProtocolError) return failure(err.reason, err.message);
  const reason = (err as { reason?: unknown } | null)?.reason;
  const message = err instanceof Error ? err.message : String(err);
  return failure(isErrorReason(reason) ? reason : 'internal', message);
}

export interface AskContext {
  point: HookPoint;
  payload: SerializedPayload;
  timeouts: InterceptTimeouts;
  decode: DecodeOptions;
  signal?: AbortSignal;
}

/** The caller's cancellation is not a plugin failure: it propagates as a rejection. */
function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new Error('intercept dispatch cancelled');
}

/**
 * Sends the intercept and judges its answer. Not an async function: the answer is judged in the
 * one `then` of the request's promise, a frame and a resumption fewer on every round trip.
 */
export function ask(client: InterceptClient, ctx: AskContext): Promise<Answer | Failure> {
  if (!client.isLive())
    return Promise.resolve(failure('provider_interrupted', `plugin '${client.pluginId}' is not running`));
  let wire;
  try {
    wire = externalizePayload(client.content, ctx.payload);
  } catch (err) {
    return Promise.resolve(failureFrom(err));
  }
  const budget = interceptBudget(ctx.point, client.runtime.timeoutMillis, ctx.timeouts);
  const params: InterceptParams = {
    event: ctx.point,
    seq: client.nextInterceptSeq(),
    payload: wire.payload,
    timeoutMillis: budget,
  };
  if (wire.externalized) params.externalized = wire.externalized;
  // An inline payload was serialised once already (to measure it): splice that text into the
  // frame instead of stringifying it again. Key order matches JSON.stringify(params) exactly.
  const paramsJson =
    wire.externalized || ctx.payload.value === undefined
      ? undefined
      : `{"event":${POINT_JSON[ctx.point]},"seq":${params.seq},"payload":${ctx.payload.json},"timeoutMillis":${budget}}`;
  // The result arrives schema-valid: the client's connection checks every result once.
  return client
    .request<InterceptResult>('extension/intercept', params, {
      timeoutMs: budget,
      timeoutReason: 'intercept_timeout',
      signal: ctx.signal,
      paramsJson,
    })
    .then(
      (result) => judge(client, ctx, result),
      (err: unknown) => {
        throwIfAborted(ctx.signal);
        return failureFrom(err);
      },
    );
}

/** What a schema-valid answer means for the walk. */
function judge(client: InterceptClient, ctx: AskContext, result: InterceptResult): Answer | Failure {
  throwIfAborted(ctx.signal);
  if (result.decision !== 'replace' && result.externalized !== undefined && result.externalized.length > 0) {
    // The reference validates an envelope on any answer (issue 11 item 7): a bad one is a
    // protocol error of this plugin even when the decision itself carries no replacement.
    try {
      resolveReplacement(client.content, result);
    } catch (err) {
      const f = failureFrom(err);
      return { ...f, message: redact(`invalid externalized envelope on a '${result.decision}' answer: ${f.message}`) };
    }
  }
  switch (result.decision) {
    case 'continue':
      return CONTINUE;
    case 'block':
    case 'allow':
    case 'deny':
      return { kind: result.decision, reason: result.reason === undefined ? undefined : redact(result.reason) };
    case 'replace': {
      let value: unknown;
      try {
        value = resolveReplacement(client.content, result);
      } catch (err) {
        return failureFrom(err);
      }
      if (value === undefined || value === null)
        return failure('protocol_error', `contract violation: 'replace' at ${ctx.point} without a replacement`);
      const decoded = decodeReplacement(ctx.point, value, ctx.decode);
      if (!decoded.ok) {
        const everyClass = 'everyClass' in decoded;
        return {
          ...failure('protocol_error', `contract violation: invalid ${ctx.point} replacement: ${decoded.message}`),
          ...(everyClass ? { everyClass: true } : {}),
        };
      }
      return { kind: 'replace', payload: decoded.value };
    }
  }
}
