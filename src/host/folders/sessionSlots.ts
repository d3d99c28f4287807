// Two windows on the same folder must not give two sets of sidecars one session id without saying
// so (issue 43). Each window claims a numbered slot per folder with a lock file holding its process
// id: the first window keeps the folder's plain id (the same across reloads, as before), a second
// window open at the same time gets `-w2`, and so on. A slot whose process is gone is taken over.
import { createHash } from 'node:crypto';
import { mkdirSync, openSync, closeSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Slots tried per folder before giving up (then the id carries the process id). */
const MAX_SLOTS = 64;

export interface SessionSlot {
  /** 1 for the first window on the folder, 2 for a second one open at the same time… */
  readonly slot: number;
  readonly sessionId: string;
  /** Frees the slot (the window closes or reloads); harmless twice. */
  release(): void;
}

/** The folder's plain id: stable per folder across reloads, opaque to sidecars. */
export function folderHash(folderUri: string): string {
  return createHash('sha256').update(folderUri).digest('hex').slice(0, 16);
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, another user's
  }
}

/** Creates the lock file holding `pid`; fails (EEXIST) when it exists. */
function createLock(file: string, pid: number): void {
  const fd = openSync(file, 'wx', 0o600);
  try {
    writeSync(fd, String(pid));
  } finally {
    closeSync(fd);
  }
}

function tryClaim(file: string, pid: number): boolean {
  try {
    createLock(file, pid);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  let holder = NaN;
  try {
    holder = Number.parseInt(readFileSync(file, 'utf8'), 10);
  } catch {
    // vanished or unreadable between the two calls: try once more below
  }
  if (holder === pid) return true; // this process claimed it already (a folder re-added)
  if (alive(holder)) return false;
  try {
    unlinkSync(file);
  } catch {
    // someone else took it over first
  }
  try {
    createLock(file, pid);
    return true;
  } catch {
    return false;
  }
}

/**
 * Claims this process's slot for the folder in `dir` (created when missing). Any failure to use
 * the directory falls back to the plain id, said in `problem`: ids then behave as before.
 */
export function claimSessionSlot(
  dir: string,
  prefix: string,
  folderUri: string,
  pid = process.pid,
): SessionSlot & { problem?: string } {
  const hash = folderHash(folderUri);
  const plain = `${prefix}${hash}`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (let slot = 1; slot <= MAX_SLOTS; slot++) {
      const file = join(dir, `${hash}.${slot}.lock`);
      if (!tryClaim(file, pid)) continue;
      let done = false;
      return {
        slot,
        sessionId: slot === 1 ? plain : `${plain}-w${slot}`,
        release: () => {
          if (done) return;
          done = true;
          try {
            if (Number.parseInt(readFileSync(file, 'utf8'), 10) === pid) unlinkSync(file);
          } catch {
            // already gone
          }
        },
      };
    }
    return {
      slot: 0,
      sessionId: `${plain}-p${pid}`,
      release: () => undefined,
      problem: `${MAX_SLOTS} windows hold this folder`,
    };
  } catch (err) {
    return { slot: 1, sessionId: plain, release: () => undefined, problem: (err as Error).message };
  }
}
