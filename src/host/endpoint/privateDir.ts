// The window endpoint's private places: the per-user directory its record and socket live in
// (checked 0700, ours, not a link, a parent nobody else can swap it in), the socket or named pipe's
// path, and the random window id and token. The bridge checks a record and its socket the same way
// before it sends anything.
import { createHash, randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';

/**
 * Where a window's record and socket may live, best first. Each is a place only this user can
 * create (issue 28: a predictable name in the shared /tmp let another user take it first):
 * `$XDG_RUNTIME_DIR/reasonix-host` (a 0700 per-user directory the login session owns), else a
 * directory under the user's own state directory (`$XDG_STATE_HOME` or ~/.local/state; on macOS
 * ~/Library/Caches). A window opens the first usable one; the bridge looks in all of them, because a
 * terminal may lack XDG_RUNTIME_DIR that the window had. `REASONIX_HOOKS_DIR` is the only place when
 * set (tests, unusual setups). Windows: %LOCALAPPDATA%, which is per user already.
 */
export function hooksDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.REASONIX_HOOKS_DIR) return [env.REASONIX_HOOKS_DIR];
  if (process.platform === 'win32')
    return [join(env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local'), 'reasonix-host', 'hooks')];
  const home = env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir();
  const out: string[] = [];
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && isAbsolute(runtime) && !privacyProblem(runtime)) out.push(join(runtime, 'reasonix-host'));
  const state =
    process.platform === 'darwin'
      ? join(home, 'Library', 'Caches')
      : env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME)
        ? env.XDG_STATE_HOME
        : join(home, '.local', 'state');
  out.push(join(state, 'reasonix-host', 'hooks'));
  return out;
}

/** The first of hooksDirs(): where a window opens its endpoint when it can. */
export function hooksDir(env: NodeJS.ProcessEnv = process.env): string {
  return hooksDirs(env)[0];
}

/** Why `dir` is not private to this user, or undefined when it is (0700-style, ours, not a link). */
export function privacyProblem(dir: string): string | undefined {
  let st;
  try {
    st = lstatSync(dir);
  } catch (err) {
    return `${dir} is missing (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`;
  }
  if (st.isSymbolicLink() || !st.isDirectory()) return `${dir} is not a directory`;
  if (process.platform === 'win32') return undefined; // %LOCALAPPDATA% is already per-user (ACLs)
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) return `${dir} belongs to another user (uid ${st.uid})`;
  if ((st.mode & 0o077) !== 0) return `${dir} is open to other users (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/**
 * Creates the directory 0700 if needed (its missing parents too) and refuses one that another
 * user could enter or own, or whose parent another user could write to (they could swap it).
 */
export function ensurePrivateDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    // Another window made it first; it is checked like any existing one below.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const problem = privacyProblem(dir) ?? parentProblem(dir);
  if (problem) throw new Error(`agent hooks endpoint refused: ${problem}; remove it or set REASONIX_HOOKS_DIR`);
}

/** A parent others may write to is only safe with the sticky bit (they cannot rename our entry). */
function parentProblem(dir: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  const parent = dirname(dir);
  let st;
  try {
    st = lstatSync(parent);
  } catch {
    return undefined;
  }
  const uid = process.getuid?.();
  const foreign = uid !== undefined && st.uid !== uid && st.uid !== 0;
  const othersWrite = (st.mode & 0o022) !== 0 && (st.mode & 0o1000) === 0;
  if (foreign || othersWrite) return `its parent ${parent} can be changed by another user`;
  return undefined;
}

/**
 * Why the file at `path` must not be trusted, or undefined: it must be ours, not a link, and (for
 * a socket) a socket. The bridge checks a record and its socket before sending anything.
 */
export function fileProblem(path: string, kind: 'file' | 'socket'): string | undefined {
  if (process.platform === 'win32') return undefined; // named pipes and %LOCALAPPDATA% are per user
  let st;
  try {
    st = lstatSync(path);
  } catch (err) {
    return `${path} is missing (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`;
  }
  if (st.isSymbolicLink()) return `${path} is a symbolic link`;
  if (kind === 'socket' ? !st.isSocket() : !st.isFile()) return `${path} is not a ${kind}`;
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) return `${path} belongs to another user (uid ${st.uid})`;
  if ((st.mode & 0o077) !== 0) return `${path} is open to other users (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/** A socket path short enough for sun_path (104 bytes on macOS), or a per-user pipe name. */
export function endpointPath(dir: string, id: string): string {
  if (process.platform !== 'win32') return join(dir, `${id}.sock`);
  const user = createHash('sha256').update(`${userInfo().username}\u0000${dir}`).digest('hex').slice(0, 16);
  return `\\\\.\\pipe\\reasonix-host-${user}-${id}`;
}

export function newId(): string {
  return randomBytes(6).toString('hex');
}

export function newToken(): string {
  return randomBytes(32).toString('hex');
}
