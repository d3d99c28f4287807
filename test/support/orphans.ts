// Finds processes started by this test run, wherever they were reparented: every descendant
// inherits REASONIX_TEST_OWNER from the test process's environment, so /proc/<pid>/environ tells.
import { readdirSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { waitFor } from './wait';

const MARK = 'REASONIX_TEST_OWNER';
// A mocha worker (`mocha --parallel`) takes a mark of its own: its siblings carry the main
// process's mark in their environ, so one worker never counts another, or another's children.
const mochaWorker = /[\\/]mocha[\\/]lib[\\/]nodejs[\\/]worker\.js$/.test(process.argv[1] ?? '');
if (!process.env[MARK] || mochaWorker) process.env[MARK] = randomUUID();
const marker = Buffer.from(`${MARK}=${process.env[MARK]}\0`);

export function liveDescendants(): { pid: number; cmd: string }[] {
  const found: { pid: number; cmd: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const env = readFileSync(`/proc/${pid}/environ`);
      if (env.indexOf(marker) === -1) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (/\) Z /.test(stat)) continue; // a zombie is dead; its parent reaps it
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      found.push({ pid, cmd });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** Waits up to `ms` for every descendant to end; returns the ones still alive. */
export async function waitForNoDescendants(ms = 3000): Promise<{ pid: number; cmd: string }[]> {
  await waitFor(() => liveDescendants().length === 0, {
    timeoutMs: ms,
    what: 'every process this run started to end',
    intervalMs: 50,
  }).catch(() => undefined);
  return liveDescendants();
}
