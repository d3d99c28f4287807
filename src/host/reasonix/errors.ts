// The one error every Reasonix CLI call fails with: which step, how, and what Reasonix said
// (redacted). The faces word it for people; the step and kind are data so tests and the UI need
// no string matching.

/** What we asked the user's Reasonix to do when it failed. */
export type ReasonixStep =
  | 'find'
  | 'version'
  | 'plan'
  | 'install'
  | 'verify'
  | 'enable'
  | 'disable'
  | 'remove'
  | 'show'
  | 'doctor'
  | 'migrate'
  | 'list';

/**
 * How it failed: `missing` (no binary), `spawn` (could not start it), `timeout` (killed after the
 * budget), `exit` (non-zero exit; `refused` when Reasonix gave its reason as structured output),
 * `output` (exit 0 but output we cannot read), `mismatch` (applied something other than the plan shown).
 */
export type ReasonixFailureKind = 'missing' | 'spawn' | 'timeout' | 'exit' | 'refused' | 'output' | 'mismatch';

export class ReasonixError extends Error {
  constructor(
    readonly step: ReasonixStep,
    readonly kind: ReasonixFailureKind,
    message: string,
    /** Reasonix's own words (stderr, or the action's error), redacted; '' when it said nothing. */
    readonly said = '',
    readonly exitCode?: number | null,
  ) {
    super(message);
    this.name = 'ReasonixError';
  }
}
