// Child processes as tests see them from outside: whether one runs, who is left in a process
// group, and a hook command run the way an agent runs it. Plain Node (no vscode), for every suite.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Whether `pid` runs: it exists and is no zombie (a zombie has exited; only its reaping is pending). */
export function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Live (non-zombie) members of process group `pgid`, read from /proc. */
export function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z' && Number(fields[2]) === pgid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Runs a hook command as the agent does: `sh -c`, input as JSON on stdin, answer on stdout. `env` defaults to this process's. */
export function runHookCommand(
  command: string,
  input: unknown,
  env?: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.stdin.end(JSON.stringify(input));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
