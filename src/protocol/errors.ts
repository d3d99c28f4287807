// The frozen error tables (HOST_SPEC §9, HOST_SPEC_V2 §9) as code: reason → JSON-RPC code,
// retryable, message. v2's 20 reasons contain v1's 14 with the same code and retryable; what a
// version adds or words differently lives in that version's contract (contract.ts).
import { CONTRACT_TABLES, type ErrorReason } from './generated/contract';

export type { ErrorReason };

export interface ErrorEntry {
  readonly code: number;
  readonly retryable: boolean;
  readonly message: string;
}

/** One version's frozen table as a map. */
export function errorTable(
  rows: readonly { reason: string; jsonRpcCode: number; retryable: boolean; message: string }[],
): Readonly<Record<string, ErrorEntry>> {
  return Object.fromEntries(
    rows.map((e) => [e.reason, { code: e.jsonRpcCode, retryable: e.retryable, message: e.message }]),
  );
}

/**
 * Every reason the engine knows: v1's rows with v1's frozen messages, then the rows only v2 has.
 * A ProtocolError's default message comes from here; a connection of either version answers with
 * its own table's text where the two differ (contract.ts).
 */
export const ERRORS: Readonly<Record<ErrorReason, ErrorEntry>> = {
  ...errorTable(CONTRACT_TABLES.v2.errors),
  ...errorTable(CONTRACT_TABLES.v1.errors),
} as Record<ErrorReason, ErrorEntry>;

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
