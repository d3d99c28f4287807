// The frozen v1 error table (HOST_SPEC §9) as code: reason → JSON-RPC code, retryable, message.
import { ERROR_TABLE, type ErrorReason } from './generated/contract';

export type { ErrorReason };

export interface ErrorEntry {
  readonly code: number;
  readonly retryable: boolean;
  readonly message: string;
}

export const ERRORS: Readonly<Record<ErrorReason, ErrorEntry>> = Object.fromEntries(
  ERROR_TABLE.map((e) => [e.reason, { code: e.jsonRpcCode, retryable: e.retryable, message: e.message }]),
) as Record<ErrorReason, ErrorEntry>;

export function isErrorReason(value: unknown): value is ErrorReason {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERRORS, value);
}

/** The `error.data` member every structured protocol error carries on the wire. */
export interface ProtocolErrorData {
  reason: ErrorReason;
  retryable: boolean;
}

/** A wire error object: `{code, message, data:{reason, retryable}}`. */
export interface WireError {
  code: number;
  message: string;
  data?: ProtocolErrorData;
}

/**
 * An error with a protocol reason. `message` may be more specific than the frozen text but must
 * never carry secrets (callers redact sidecar-sourced text before building one).
 */
export class ProtocolError extends Error {
  readonly reason: ErrorReason;
  readonly code: number;
  readonly retryable: boolean;

  constructor(reason: ErrorReason, message?: string, options?: { cause?: unknown }) {
    super(message ?? ERRORS[reason].message, options);
    this.name = 'ProtocolError';
    this.reason = reason;
    this.code = ERRORS[reason].code;
    this.retryable = ERRORS[reason].retryable;
  }

  toWire(): WireError {
    return { code: this.code, message: this.message, data: { reason: this.reason, retryable: this.retryable } };
  }
}

/** The wire error for a reason with the frozen generic message (or a specific, non-secret one). */
export function wireError(reason: ErrorReason, message?: string): WireError {
  return new ProtocolError(reason, message).toWire();
}

/**
 * Reads `error.data` from a peer: accepted only when `reason` is in the table and `retryable`
 * matches it exactly (HOST_SPEC §9.2); anything else is an unstructured error.
 */
export function readErrorData(data: unknown): ProtocolErrorData | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const { reason, retryable } = data as { reason?: unknown; retryable?: unknown };
  if (!isErrorReason(reason) || retryable !== ERRORS[reason].retryable) return undefined;
  return { reason, retryable };
}
