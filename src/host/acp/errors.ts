// The one error a Reasonix session over ACP fails with: what we were doing, how it failed, and what
// Reasonix said (its stderr tail, redacted). The faces word it for people ("Reasonix … : what to do");
// the stage and kind are data so tests and the UI need no string matching.

/** What the client was doing with `reasonix acp` when it failed. */
export type AcpStage = 'start' | 'initialize' | 'session' | 'prompt' | 'reload' | 'running';

/**
 * `spawn` (could not start it), `exit` (it exited), `timeout` (no answer within the budget: hung),
 * `garbage` (its stdout was not ACP), `refused` (it answered with a JSON-RPC error),
 * `unsupported` (this Reasonix lacks what was asked, e.g. a form answer over ACP).
 */
export type AcpFailureKind = 'spawn' | 'exit' | 'timeout' | 'garbage' | 'refused' | 'unsupported';

export class AcpError extends Error {
  constructor(
    readonly stage: AcpStage,
    readonly kind: AcpFailureKind,
    message: string,
    /** Reasonix's own words (stderr tail or its error message), redacted; '' when it said nothing. */
    readonly said = '',
  ) {
    super(message);
    this.name = 'AcpError';
  }
}
