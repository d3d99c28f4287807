// Finding the user's own Reasonix: the path they configured (a machine-scoped setting the face
// reads from the user's value only), else `reasonix` on PATH. Shared by everything that drives
// Reasonix (extension management, and later Reasonix sessions over ACP).
import { accessSync, constants, statSync } from 'node:fs';
import * as path from 'node:path';
import { ReasonixError } from './errors';
import { runReasonix } from './run';

export interface ReasonixBinary {
  /** Absolute path of the executable. */
  path: string;
  /** Where it was found. */
  from: 'setting' | 'PATH';
}

export interface LocateOptions {
  /** The user's `reasonix.path` ('' or undefined: search PATH). */
  configured?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

function isExecutable(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The binary to run, or a ReasonixError (step `find`, kind `missing`) saying where we looked. A
 * configured path is used as it is (it must be absolute); it is never combined with PATH.
 */
export function locateReasonix(o: LocateOptions = {}): ReasonixBinary {
  const env = o.env ?? process.env;
  const platform = o.platform ?? process.platform;
  const configured = o.configured?.trim();
  if (configured) {
    if (!path.isAbsolute(configured))
      throw new ReasonixError('find', 'missing', `the reasonix.path setting "${configured}" is not an absolute path`);
    if (!isExecutable(configured, platform))
      throw new ReasonixError('find', 'missing', `the reasonix.path setting "${configured}" is not an executable file`);
    return { path: configured, from: 'setting' };
  }
  const pathVar = env.PATH ?? env.Path ?? '';
  const sep = platform === 'win32' ? ';' : ':';
  // On Windows only the .exe: a .cmd shim (npm's) can only run through cmd.exe, which we never use.
  const exts = platform === 'win32' ? ['.exe'] : [''];
  for (const dir of pathVar.split(sep)) {
    // Only absolute PATH entries: a relative one would find a binary in whatever folder is open.
    if (!dir || !path.isAbsolute(dir)) continue;
    for (const ext of exts) {
      const file = path.join(dir, `reasonix${ext}`);
      if (isExecutable(file, platform)) return { path: file, from: 'PATH' };
    }
  }
  throw new ReasonixError('find', 'missing', 'no reasonix executable on PATH and the reasonix.path setting is empty');
}

/** "1.38.11" from `reasonix --version` ("reasonix v1.38.11"). */
export function parseVersion(text: string): string | undefined {
  return /\breasonix\s+v?(\d+\.\d+\.\d+[0-9A-Za-z.+-]*)/i.exec(text)?.[1];
}

export async function reasonixVersion(
  bin: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = 10_000,
): Promise<string> {
  const r = await runReasonix(bin, ['--version'], 'version', { cwd, env, timeoutMs });
  const v = parseVersion(r.stdout) ?? parseVersion(r.stderr);
  if (r.code !== 0 || !v)
    throw new ReasonixError(
      'version',
      r.code !== 0 ? 'exit' : 'output',
      `${bin} --version ${r.code !== 0 ? `exited with code ${r.code}` : 'did not print a Reasonix version'}`,
      (r.stderr || r.stdout).slice(0, 2000),
      r.code,
    );
  return v;
}
