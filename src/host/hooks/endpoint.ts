// The local endpoint a window's sessions answer agent hooks on: a Unix socket inside a 0700
// directory the user owns (a per-user named pipe on Windows), plus a random token in the window's
// record. Never a TCP port. One connection carries one request line and one answer line.
// No engine imports: the bundled bridge loads this file on every hook run.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { HookInput } from './events';

/** Large enough for a 1 MiB tool_input escaped twice over, far below the engine's limits. */
export const MAX_REQUEST_BYTES = 32 * 1024 * 1024;
export const PROTOCOL_VERSION = 1;

export interface HookRequest {
  v: number;
  token: string;
  event: string;
  input: HookInput;
  /** Milliseconds the bridge still waits; the window answers before then. */
  budgetMs: number;
}

export interface HookReply {
  v: number;
  /** The hook's stdout object; absent = no decision. */
  answer?: Record<string, unknown>;
  /** Why there is no decision (for the bridge's stderr). */
  note?: string;
}

/**
 * The per-user directory of window records and sockets. `REASONIX_HOOKS_DIR` overrides it (tests,
 * and users whose /tmp is unusual); the bridge and the shell launcher compute the same default.
 */
export function hooksDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.REASONIX_HOOKS_DIR) return env.REASONIX_HOOKS_DIR;
  if (process.platform === 'win32')
    return join(env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local'), 'reasonix-host', 'hooks');
  // Not os.tmpdir(): TMPDIR differs between a GUI app and a terminal, and both must agree.
  return `/tmp/reasonix-host-${process.getuid?.() ?? 0}`;
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

/** Creates the directory 0700 if needed; refuses one that another user could enter or own. */
export function ensurePrivateDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: process.platform === 'win32', mode: 0o700 });
  } catch (err) {
    // Another window made it first; it is checked like any existing one below.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const problem = privacyProblem(dir);
  if (problem) throw new Error(`agent hooks endpoint refused: ${problem}; remove it or set REASONIX_HOOKS_DIR`);
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

export function tokensEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export type HookHandler = (req: HookRequest) => Promise<HookReply>;

/** Listens on `path`; every connection: read one line, check the token, answer one line, close. */
export async function listenEndpoint(
  path: string,
  token: string,
  handle: HookHandler,
  onError: (message: string) => void,
): Promise<Server> {
  const server = createServer((socket) => serveOne(socket, token, handle, onError));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  if (process.platform !== 'win32') chmodSync(path, 0o600);
  server.on('error', (err) => onError(`agent hooks endpoint: ${err.message}`));
  return server;
}

function serveOne(socket: Socket, token: string, handle: HookHandler, onError: (message: string) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  const reply = (r: HookReply) => {
    if (socket.destroyed) return;
    socket.end(JSON.stringify(r) + '\n');
  };
  socket.setTimeout(60_000, () => socket.destroy());
  socket.on('error', () => {});
  socket.on('data', (data: Buffer) => {
    if (done) return;
    const nl = data.indexOf(0x0a);
    chunks.push(nl >= 0 ? data.subarray(0, nl) : data);
    size += nl >= 0 ? nl : data.length;
    if (size > MAX_REQUEST_BYTES) {
      done = true;
      reply({ v: PROTOCOL_VERSION, note: `request larger than ${MAX_REQUEST_BYTES} bytes` });
      return;
    }
    if (nl < 0) return;
    done = true;
    let req: HookRequest;
    try {
      req = JSON.parse(Buffer.concat(chunks).toString('utf8')) as HookRequest;
    } catch {
      reply({ v: PROTOCOL_VERSION, note: 'request is not JSON' });
      return;
    }
    if (typeof req?.token !== 'string' || !tokensEqual(req.token, token)) {
      reply({ v: PROTOCOL_VERSION, note: 'wrong token' });
      return;
    }
    handle(req).then(reply, (err: Error) => {
      onError(`agent hook ${String(req.event)} failed: ${err.message}`);
      reply({ v: PROTOCOL_VERSION, note: `the window failed: ${err.message}` });
    });
  });
}

/** One request, one answer, bounded by `timeoutMs`; rejects on any failure. */
export function askEndpoint(path: string, req: HookRequest, timeoutMs: number): Promise<HookReply> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    const chunks: Buffer[] = [];
    const timer = setTimeout(
      () => {
        socket.destroy();
        reject(new Error(`no answer within ${timeoutMs} ms`));
      },
      Math.max(0, timeoutMs),
    );
    socket.on('connect', () => socket.write(JSON.stringify(req) + '\n'));
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.on('end', () => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as HookReply);
      } catch {
        reject(new Error('the window closed the connection without an answer'));
      }
    });
  });
}
