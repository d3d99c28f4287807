// Runs the user's Reasonix binary once: never through a shell, stdin closed (so it never waits for
// a terminal), output bounded, killed with its process group after the budget. Every failure is a
// ReasonixError naming the step; stdout and stderr come back redacted.
import { spawn } from 'node:child_process';
import { redact } from '../redact';
import { ReasonixError, type ReasonixStep } from './errors';

/** A plugin command answers in well under a second; a git source may clone. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Its plans and listings are a few KiB; more than this is not an answer we can use. */
export const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

export interface RunOptions {
  /** Folder it runs in: a `--link` source must be inside it or the home. */
  cwd: string;
  /** Its environment (REASONIX_HOME names the home it writes). */
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

export interface RunResult {
  code: number;
  /** Redacted. */
  stdout: string;
  /** Redacted, trimmed. */
  stderr: string;
}

/** Runs `bin args`; resolves with any exit code (callers decide what a non-zero one means). */
export function runReasonix(
  bin: string,
  args: readonly string[],
  step: ReasonixStep,
  o: RunOptions,
): Promise<RunResult> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const posix = process.platform !== 'win32';
    let child;
    try {
      child = spawn(bin, [...args], {
        cwd: o.cwd,
        env: o.env,
        shell: false,
        windowsHide: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group, so a timeout stops whatever it started too.
        detached: posix,
      });
    } catch (err) {
      reject(new ReasonixError(step, 'spawn', `could not start ${bin}: ${(err as Error).message}`));
      return;
    }
    const out: Buffer[] = [];
    const errs: Buffer[] = [];
    let bytes = 0;
    let overflow = false;
    let timedOut = false;
    const kill = () => {
      try {
        if (posix && child.pid) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    const take = (into: Buffer[]) => (b: Buffer) => {
      bytes += b.length;
      if (bytes > MAX_OUTPUT_BYTES) {
        if (!overflow) kill();
        overflow = true;
        return;
      }
      into.push(b);
    };
    child.stdout.on('data', take(out));
    child.stderr.on('data', take(errs));
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new ReasonixError(step, 'spawn', `could not start ${bin}: ${err.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const stderr = redact(Buffer.concat(errs).toString('utf8')).trim();
      if (timedOut)
        return reject(
          new ReasonixError(
            step,
            'timeout',
            `Reasonix did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped`,
            stderr,
          ),
        );
      if (overflow)
        return reject(
          new ReasonixError(
            step,
            'output',
            `Reasonix printed more than ${MAX_OUTPUT_BYTES} bytes; it was stopped`,
            stderr,
          ),
        );
      resolve({ code: code ?? 1, stdout: redact(Buffer.concat(out).toString('utf8')), stderr });
    });
  });
}
