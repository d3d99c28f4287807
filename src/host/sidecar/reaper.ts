// A watchdog that outlives the host process: when the host dies without stopping its sidecars (a
// SIGKILL, a crash), the watchdog kills their process groups (Windows: their process trees). The
// host tells it each sidecar it launches and each one that ended; the pipe between them closing
// is how it learns that the host is gone. A CLI that its caller may kill (`reasonix-host hook
// --headless` run by an agent with a 10 s hook timeout, `run` under a supervisor) installs one, so
// nothing it started is left behind (issue 28 item 5).
//
// "Our processes" are known here, in one place: a sidecar's process group, and every process of
// this user whose environment carries the launch's random token (REASONIX_LAUNCH_TOKEN). The
// token reaches every descendant that keeps its environment, also one that left the group
// (setsid, `detached: true`) or was reparented by a double fork; another user's process, or one
// that merely shares a name, never carries it. Linux reads /proc/<pid>/environ; elsewhere only
// the group is known (docs/reliability.md says what escapes).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';

/** The variable each launch's token is set in (after the manifest's env, so it cannot be forged). */
export const LAUNCH_TOKEN_VAR = 'REASONIX_LAUNCH_TOKEN';

/** A fresh per-launch token: 128 random bits, hex. */
export function newLaunchToken(): string {
  return randomBytes(16).toString('hex');
}

/**
 * SIGKILLs every live process of this uid (but this one) whose initial environment holds
 * `entry` ("REASONIX_LAUNCH_TOKEN=<token>") as a whole NUL-separated entry; scans again until a
 * pass finds none (a forking process gets no second chance), at most 8 passes. Returns how many
 * were killed. Linux only (0 elsewhere). Self-contained, because it is also the watchdog's source
 * (`killTagged.toString()`): it may use only its arguments and globals.
 */
export function killTagged(fsm: typeof fs, entry: string): number {
  if (process.platform !== 'linux' || typeof process.getuid !== 'function') return 0;
  const uid = process.getuid();
  const needle = Buffer.from(entry + '\0');
  let total = 0;
  for (let pass = 0; pass < 8; pass++) {
    let killed = 0;
    let names: string[];
    try {
      names = fsm.readdirSync('/proc');
    } catch {
      return total;
    }
    for (const name of names) {
      const c = name.charCodeAt(0);
      if (c < 48 || c > 57 || Number(name) === process.pid) continue;
      try {
        if (fsm.statSync('/proc/' + name).uid !== uid) continue;
        const env = fsm.readFileSync('/proc/' + name + '/environ');
        const at = env.indexOf(needle);
        if (at < 0 || (at > 0 && env[at - 1] !== 0)) continue;
        process.kill(Number(name), 'SIGKILL');
        killed++;
      } catch {
        // gone meanwhile, a zombie (empty environ), or not readable: not ours to kill
      }
    }
    total += killed;
    if (killed === 0) break;
  }
  return total;
}

// The watchdog itself: plain Node, no files (run with `-e`). "+<pid> <token>" adds, "-<pid>"
// removes; at the end of its stdin it kills what is left (each group, then each token's
// processes) and exits.
const WATCHDOG = `
const pids = new Map();
let buf = '';
const killTagged = ${killTagged.toString()};
const kill = (pid, token) => {
  if (process.platform === 'win32') {
    try { require('child_process').spawnSync('taskkill', ['/T', '/F', '/PID', String(pid)], { stdio: 'ignore', windowsHide: true }); } catch {}
    return;
  }
  try { process.kill(-pid, 'SIGKILL'); } catch { try { process.kill(pid, 'SIGKILL'); } catch {} }
  if (token) killTagged(require('fs'), '${LAUNCH_TOKEN_VAR}=' + token);
};
process.stdin.on('data', (d) => {
  buf += d;
  let nl;
  while ((nl = buf.indexOf('\\n')) >= 0) {
    const line = buf.slice(0, nl);
    buf = buf.slice(nl + 1);
    const [pidText, token] = line.slice(1).split(' ');
    const pid = Number(pidText);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    if (line[0] === '+') pids.set(pid, token && /^[0-9a-f]+$/.test(token) ? token : '');
    else pids.delete(pid);
  }
});
const end = () => { for (const [pid, token] of pids) kill(pid, token); process.exit(0); };
process.stdin.on('end', end);
process.stdin.on('close', end);
process.stdin.on('error', end);
`;

export interface ProcessGuard {
  /** A sidecar process (its group leader) was launched with this launch token. */
  add(pid: number, token: string): void;
  /** It ended (or was stopped): the watchdog must not touch its pid again. */
  remove(pid: number): void;
}

let installed: (ProcessGuard & { child: ChildProcess }) | undefined;

/**
 * Starts the watchdog once per process; later calls return it. It never keeps the host alive: its
 * handles are unreferenced, and it exits by itself when the host's end of the pipe closes.
 */
export function installReaper(): ProcessGuard {
  if (installed) return installed;
  const child = spawn(process.execPath, ['-e', WATCHDOG], {
    // Its own session: a kill of the host's process group does not take the watchdog with it.
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    windowsHide: true,
    // The host may be an Electron runtime (VS Code's): run it as plain Node.
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  child.on('error', () => undefined);
  child.stdin!.on('error', () => undefined);
  child.unref();
  (child.stdin as unknown as { unref?(): void }).unref?.();
  const write = (line: string) => {
    if (child.stdin!.writable) child.stdin!.write(line);
  };
  installed = { child, add: (pid, token) => write(`+${pid} ${token}\n`), remove: (pid) => write(`-${pid}\n`) };
  return installed;
}

/** The installed guard, if any (Sidecar reports its processes to it). */
export function processGuard(): ProcessGuard | undefined {
  return installed;
}
