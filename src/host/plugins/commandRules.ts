// The exec-form rules for `runtime.command` (HOST_SPEC §2.1), in one place for the manifest check
// and the spawn check, and parameterised by platform so the Windows rules are unit-tested on any
// machine with `path.win32`. A shell turns the exec form back into a command line, so it is
// refused however it is reached: by name, through a symlink (checked with the resolved path at
// spawn time), through `env` launching one, or through a Windows batch file (which Node can only
// run through cmd.exe since its 2024 fix, CVE-2024-27980).
import * as path from 'node:path';

export const SHELLS: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'zsh',
  'fish',
  'dash',
  'ksh',
  'mksh',
  'tcsh',
  'csh',
  'ash',
  'busybox',
  'cmd',
  'powershell',
  'pwsh',
]);

/** The subset of `path` the rules need: `path.posix` or `path.win32`. */
export type PathApi = Pick<typeof path, 'isAbsolute' | 'basename' | 'extname'>;

export interface Platform {
  path: PathApi;
  /** 'win32' adds the batch-file rule; a shell's `.exe` suffix is ignored everywhere. */
  os: NodeJS.Platform;
}

export const HOST_PLATFORM: Platform = { path, os: process.platform };

/** The program name a basename stands for: lower-cased, without a Windows `.exe`. */
function programName(file: string, p: PathApi): string {
  const base = p.basename(file).toLowerCase();
  return base.endsWith('.exe') ? base.slice(0, -4) : base;
}

export function isShell(file: string, platform: Platform = HOST_PLATFORM): boolean {
  return SHELLS.has(programName(file, platform.path));
}

/**
 * What is wrong with launching `command` (already expanded) with `args`, or undefined. Messages
 * complete the sentence "runtime.command …".
 */
export function commandProblem(
  command: string,
  args: readonly string[],
  platform: Platform = HOST_PLATFORM,
  shown = JSON.stringify(command),
): string | undefined {
  const p = platform.path;
  if (command.includes('\0')) return `must not contain a NUL byte (got ${shown})`;
  if (!p.isAbsolute(command)) return `must be absolute (got ${shown}); no PATH lookup is done`;
  if (isShell(command, platform)) return `must not be a shell (got ${shown}); run the program directly`;
  const ext = p.extname(command).toLowerCase();
  if (platform.os === 'win32' && (ext === '.cmd' || ext === '.bat')) {
    return `must not be a batch file (got ${shown}): Windows runs .cmd/.bat only through cmd.exe; point runtime.command at an .exe, or at node.exe with the script as the first of runtime.args`;
  }
  if (programName(command, p) === 'env') {
    const launched = envProgram(args);
    if (launched === 'split')
      return `runs env -S (got ${shown}), which splits a command line like a shell; run the program directly`;
    if (launched !== undefined && isShell(launched, platform)) {
      return `runs a shell through env (got ${shown} ${JSON.stringify(launched)}); run the program directly`;
    }
  }
  return undefined;
}

/** The program `env ARGS…` would run: the first argument that is not an option or NAME=VALUE. */
function envProgram(args: readonly string[]): string | 'split' | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-S' || a.startsWith('--split-string') || /^-[^-]*S/.test(a)) return 'split';
    if (a === '-u' || a === '--unset' || a === '-C' || a === '--chdir') {
      i++;
      continue;
    }
    if (a === '--') return args[i + 1];
    if (a.startsWith('-')) continue;
    if (/^[^=]+=/.test(a)) continue;
    return a;
  }
  return undefined;
}

/** A problem with a NUL byte in an argument or environment value (Node cannot pass one). */
export function nulProblem(value: string): string | undefined {
  return value.includes('\0') ? 'must not contain a NUL byte' : undefined;
}

/** The command that kills a whole process tree on Windows, where there are no process groups. */
export function windowsTreeKill(pid: number): { command: string; args: string[] } {
  return { command: 'taskkill', args: ['/T', '/F', '/PID', String(pid)] };
}
