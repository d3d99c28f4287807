// A watchdog that outlives the host process: when the host dies without stopping its sidecars (a
// SIGKILL, a crash), the watchdog kills their process groups (Windows: their process trees). The
// host tells it each sidecar it launches and each one that ended; the pipe between them closing
// is how it learns that the host is gone. A CLI that its caller may kill (`reasonix-host hook
// --headless` run by an agent with a 10 s hook timeout, `run` under a supervisor) installs one, so
// nothing it started is left behind (issue 28 item 5).
import { spawn, type ChildProcess } from 'node:child_process';

// The watchdog itself: plain Node, no files (run with `-e`). "+<pid>" adds, "-<pid>" removes; at
// the end of its stdin it kills what is left and exits.
const WATCHDOG = `
const pids = new Set();
let buf = '';
const kill = (pid) => {
  if (process.platform === 'win32') {
    try { require('child_process').spawnSync('taskkill', ['/T', '/F', '/PID', String(pid)], { stdio: 'ignore', windowsHide: true }); } catch {}
    return;
  }
  try { process.kill(-pid, 'SIGKILL'); } catch { try { process.kill(pid, 'SIGKILL'); } catch {} }
};
process.stdin.on('data', (d) => {
  buf += d;
  let nl;
  while ((nl = buf.indexOf('\\n')) >= 0) {
    const line = buf.slice(0, nl);
    buf = buf.slice(nl + 1);
    const pid = Number(line.slice(1));
    if (!Number.isInteger(pid) || pid <= 0) continue;
    if (line[0] === '+') pids.add(pid);
    else pids.delete(pid);
  }
});
const end = () => { for (const pid of pids) kill(pid); process.exit(0); };
process.stdin.on('end', end);
process.stdin.on('close', end);
process.stdin.on('error', end);
`;

export interface ProcessGuard {
  /** A sidecar process (its group leader) was launched. */
  add(pid: number): void;
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
  installed = { child, add: (pid) => write(`+${pid}\n`), remove: (pid) => write(`-${pid}\n`) };
  return installed;
}

/** The installed guard, if any (Sidecar reports its processes to it). */
export function processGuard(): ProcessGuard | undefined {
  return installed;
}
