// Process groups for code-server: it forks helpers (extension hosts, file watchers, pty hosts)
// that outlive it, so it runs as the leader of its own group and we always kill the whole group,
// on a normal stop, on a failing test, on Ctrl+C and when this process exits.
import { spawn } from 'node:child_process';
import { closeSync, openSync, rmSync } from 'node:fs';
import { waitFor } from '../../support/wait';

export interface GroupProcess {
  readonly pid: number;
  /** Resolves with the leader's exit code (or null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** SIGTERM to the group, SIGKILL to whatever is left after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<number>();
const scratchDirs = new Set<string>();

/**
 * Removes `dir` if this process ends before the returned function is called (Ctrl+C skips
 * finally blocks: the signal handler below exits directly).
 */
export function removeOnExit(dir: string): () => void {
  installExitHandlers();
  scratchDirs.add(dir);
  return () => {
    scratchDirs.delete(dir);
    rmSync(dir, { recursive: true, force: true });
  };
}

function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // group already empty
  }
}

function groupAlive(pid: number): boolean {
  return signalGroup(pid, 0);
}

let handlersInstalled = false;
function installExitHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  // 'exit' handlers must be synchronous: SIGKILL is the only thing that works there.
  process.on('exit', () => {
    for (const pid of live) signalGroup(pid, 'SIGKILL');
    for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => {
      for (const pid of live) signalGroup(pid, 'SIGKILL');
      process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1));
    });
  }
}

export function spawnGroup(
  cmd: string,
  args: string[],
  opts: { env: NodeJS.ProcessEnv; cwd: string; logFile: string },
): GroupProcess {
  installExitHandlers();
  const fd = openSync(opts.logFile, 'a');
  const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`cannot start ${cmd}`);
  const pid = child.pid;
  live.add(pid);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  return {
    pid,
    exited,
    async stop(graceMs = 3000) {
      signalGroup(pid, 'SIGTERM');
      const ended = () => !groupAlive(pid);
      await waitFor(ended, {
        timeoutMs: graceMs,
        what: `process group ${pid} to end on SIGTERM`,
        intervalMs: 50,
      }).catch(() => undefined);
      signalGroup(pid, 'SIGKILL');
      await exited;
      // Killed members may linger briefly as zombies until init reaps them; bounded wait.
      await waitFor(ended, { timeoutMs: 5000, what: `process group ${pid} to be reaped`, intervalMs: 20 }).catch(
        () => undefined,
      );
      live.delete(pid);
    },
  };
}
