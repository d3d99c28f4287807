// The Reasonix output channel as VS Code writes it to disk (a LogOutputChannel is a log file of the
// extension host), for suites that check what the extension said and at which level. Both runners
// pass the user data's logs folder as REASONIX_TEST_LOGS (test/e2e/support/inHost.ts for
// code-server, runElectron.ts for desktop VS Code).
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { waitFor } from '../support/wait';

/** Every line of this window's Reasonix log so far. */
export function reasonixLog(): string[] {
  const root = process.env.REASONIX_TEST_LOGS;
  if (!root)
    throw new Error(
      'REASONIX_TEST_LOGS is not set: run the suite through scripts/run-inhost-tests.mjs or test:electron',
    );
  return (readdirSync(root, { recursive: true }) as string[])
    .filter((f) => basename(f) === 'Reasonix.log')
    .flatMap((f) => readFileSync(join(root, f), 'utf8').split('\n'));
}

/** The lines at `level` whose message matches `message` ("2026-01-02 03:04:05.678 [info] message"). */
export function logLines(level: 'trace' | 'debug' | 'info' | 'warning' | 'error', message: RegExp): string[] {
  const line = new RegExp(`^\\S+ \\S+ \\[${level}\\] (.*)$`);
  return reasonixLog().filter((l) => message.test(line.exec(l)?.[1] ?? '\n'));
}

/** Waits for such a line (the log reaches its file shortly after the call that wrote it). */
export function logLine(
  level: 'trace' | 'debug' | 'info' | 'warning' | 'error',
  message: RegExp,
  timeoutMs = 10_000,
): Promise<string> {
  return waitFor(() => logLines(level, message)[0], {
    timeoutMs,
    what: `a ${level} line matching ${message} in the Reasonix log`,
    intervalMs: 100,
  });
}
