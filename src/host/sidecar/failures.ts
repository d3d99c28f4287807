// What went wrong with a plugin, built in one place: the record every front end shows
// (`FailureInfo`), the one error class that carries it (`SidecarFailure`), and the readable
// problem texts of a failed start or a crash. Messages name the plugin and are redacted here.
import { redact } from '../redact';
import { PeerError } from '../wire';
import { ProtocolError, type ErrorReason } from '../../protocol';

export type FailureStage = 'spawn' | 'handshake' | 'running' | 'shutdown';

/** Why a sidecar failed to start or crashed. */
export interface FailureInfo {
  pluginId: string;
  stage: FailureStage;
  reason: ErrorReason;
  /** Redacted, readable, names the plugin. */
  message: string;
  /** Redacted, at most 16 KiB. */
  stderrTail: string;
  elapsedMs: number;
  exitCode?: number | null;
  signal?: string | null;
}

/** What ended a start early, before it is turned into a `FailureInfo`. */
export interface StartProblem {
  stage: FailureStage;
  reason: ErrorReason;
  message: string;
}

/**
 * A plugin failure as an error: its message is `info.message`, `cause` is what caused it.
 * `reported` is true once the failure was already shown to the user (no second notification).
 */
export class SidecarFailure extends ProtocolError {
  readonly reported: boolean;
  constructor(
    readonly info: FailureInfo,
    options?: { cause?: unknown; reported?: boolean },
  ) {
    super(info.reason, info.message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SidecarFailure';
    this.reported = options?.reported ?? false;
  }
}

/** The FailureInfo a rejection carries, or one describing an unexpected rejection. */
export function failureOf(err: unknown, pluginId: string, elapsedMs: number): FailureInfo {
  if (err instanceof SidecarFailure) return err.info;
  return {
    pluginId,
    stage: 'spawn',
    reason: 'internal',
    message: err instanceof Error ? err.message : String(err),
    stderrTail: '',
    elapsedMs,
  };
}

/**
 * The failure as a line for the Sidecar's own logger, which already prefixes the plugin id: the
 * message without its leading "plugin <id> ", so a log line names the plugin once.
 */
export function failureLogLine(info: FailureInfo): string {
  const head = `plugin ${info.pluginId} `;
  return info.message.startsWith(head) ? info.message.slice(head.length) : info.message;
}

/** A start failure before the process exists or after it was reaped; the caller fills the process part. */
export function startFailure(pluginId: string, problem: StartProblem, elapsedMs: number): FailureInfo {
  return {
    pluginId,
    stage: problem.stage,
    reason: problem.reason,
    message: `plugin ${pluginId} failed to start: ${redact(problem.message)}`,
    stderrTail: '',
    elapsedMs,
  };
}

/** A process that reached `running` and then died unasked. */
export function crashFailure(
  pluginId: string,
  cause: string,
  process: { stderrTail: string; elapsedMs: number; exitCode: number | null; signal: string | null },
): FailureInfo {
  return {
    pluginId,
    stage: 'running',
    reason: 'provider_interrupted',
    message: `plugin ${pluginId} crashed: ${redact(cause)}`,
    ...process,
  };
}

/** Turns whatever the `extension/initialize` request rejected with into a handshake problem. */
/**
 * The reason a handshake that ran out of time fails with: the reference's request deadline
 * reason (its call timeout is the error table's `intercept_timeout`, retryable), never `internal`,
 * which says the host itself broke.
 */
export const HANDSHAKE_TIMEOUT_REASON: ErrorReason = 'intercept_timeout';

/** "did not answer extension/initialize within 30 s, counted from spawn" (ms below a whole second). */
export function handshakeTimeoutMessage(handshakeMs: number): string {
  const bound = handshakeMs % 1000 === 0 ? `${handshakeMs / 1000} s` : `${handshakeMs} ms`;
  return `did not answer extension/initialize within ${bound}, counted from spawn`;
}

export function handshakeProblem(err: unknown, handshakeMs: number): StartProblem {
  if (err instanceof ProtocolError) {
    const message = err.message.replace(/^invalid extension\/initialize result:/, 'invalid initialize result:');
    if (err.reason === HANDSHAKE_TIMEOUT_REASON && /no answer within/.test(message)) {
      return { stage: 'handshake', reason: HANDSHAKE_TIMEOUT_REASON, message: handshakeTimeoutMessage(handshakeMs) };
    }
    return { stage: 'handshake', reason: err.reason, message };
  }
  if (err instanceof PeerError)
    return {
      stage: 'handshake',
      reason: 'internal',
      message: `extension/initialize failed (${err.code}): ${err.message}`,
    };
  return { stage: 'handshake', reason: 'internal', message: redact(String((err as Error)?.message ?? err)) };
}

/** Why `extension/shutdown` got no answer: the sidecar timed out, died, or answered an error. */
export function shutdownProblem(
  err: unknown,
  ended: { exit?: string; connection?: string } | undefined,
): { reason: ErrorReason; message: string } {
  if (err instanceof ProtocolError && err.reason === 'shutdown_timeout')
    return { reason: 'shutdown_timeout', message: redact(err.message) };
  if (ended) {
    const how = ended.exit ?? `its connection ended: ${ended.connection ?? 'closed'}`;
    return {
      reason: 'provider_interrupted',
      message: `the sidecar ended (${how}) instead of answering extension/shutdown`,
    };
  }
  return {
    reason: 'protocol_error',
    message: `extension/shutdown failed: ${redact(String((err as Error)?.message ?? err))}`,
  };
}

/** `exit code 3`, `signal SIGKILL`, or `no exit status`. */
export function describeExit(exit: { code: number | null; signal: string | null }): string {
  if (exit.signal) return `signal ${exit.signal}`;
  return exit.code === null ? 'no exit status' : `exit code ${exit.code}`;
}
