// The local endpoint a window serves on: a Unix socket inside a 0700 directory the user owns (a
// per-user named pipe on Windows), plus a random token in the window's record. Never a TCP port.
// A connection carries one request line, then either one answer line (kind `hook`) or, once an
// `open` kind takes it, that kind's own traffic (kind `mcp`: a relayed MCP client).
// No engine imports: the bundled bridge loads this file on every hook run.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { homedir, userInfo } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import type { HookInput } from './events';

/** Large enough for a 1 MiB tool_input escaped twice over, far below the engine's limits. */
export const MAX_REQUEST_BYTES = 32 * 1024 * 1024;
export const PROTOCOL_VERSION = 1;

/** Every request line: the token first, then which kind of request it is (see EndpointKinds). */
export interface EndpointRequest {
  v: number;
  token: string;
  kind: string;
  [field: string]: unknown;
}

/** An agent hook to answer (kind "hook"). */
export interface HookRequest extends EndpointRequest {
  kind: 'hook';
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
  /**
   * The window did not get to ask its extensions (the request was refused, or the window failed):
   * the bridge then fails closed for the required ones it recorded.
   */
  unasked?: true;
}

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

/**
 * One kind of request the endpoint serves: how its own fields are checked (before anything is
 * handled) and who answers. The endpoint reads the line, checks the token and finds the kind; the
 * rest is the kind's. A kind either answers one line (`handle`: agent hooks), or keeps the
 * connection (`open`: the MCP server a relaying `reasonix-host mcp` speaks to, issue 24).
 */
export interface RequestKind {
  /** Why the request is unusable, or undefined. */
  check(req: EndpointRequest): string | undefined;
  handle?(req: EndpointRequest): Promise<HookReply>;
  /**
   * Takes the connection, or refuses it with a note. When taken, the endpoint answers the ready
   * line and then calls `start`: every later byte is the kind's (lines still bounded, see guardLines).
   */
  open?(req: EndpointRequest): Promise<{ note: string } | { start(socket: Socket): void }>;
}

/** The line that tells a client its connection was taken by an `open` kind. */
export const READY_LINE = `{"v":${PROTOCOL_VERSION},"ready":true}\n`;

export type EndpointKinds = Readonly<Record<string, RequestKind>>;

/**
 * Connections whose request line is not complete yet, at most this many: one more drops the
 * oldest of them. A real client writes its whole line at once, so it is never the oldest for long,
 * and nothing that merely holds a connection open can keep a hook out (issue 38 item 5).
 */
export const MAX_PENDING = 32;
/** Kept connections (MCP relays) at once; one more is refused. They never count against hooks. */
export const MAX_KEPT = 32;
/** Every connection at once (a file-descriptor ceiling): pending, kept, and hooks being answered. */
export const MAX_CONNECTIONS = 256;
/** Request bytes held across every connection at once: a flood cannot grow the window's memory. */
export const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
/** The most a request may say it waits (the slow family's budget with room to spare). */
export const MAX_BUDGET_MS = 60_000;
/** A connection that has not proved its token within this long is dropped (slow clients). */
export const TOKEN_WAIT_MS = 2_000;
/** The whole request line must be in within this long of connecting (a 32 MiB line takes well under 1 s). */
export const LINE_WAIT_MS = 10_000;

/**
 * The first bytes of every request: the bridge serialises `{v, token, …}` in that order, so the
 * token is checked as soon as these bytes are in, before anything else is buffered or parsed.
 */
function requestPrefix(token: string): Buffer {
  return Buffer.from(`{"v":${PROTOCOL_VERSION},"token":${JSON.stringify(token)},`);
}

/** Why `budgetMs` is not a usable wait, or undefined. */
export function budgetProblem(budgetMs: unknown): string | undefined {
  return typeof budgetMs === 'number' && Number.isFinite(budgetMs) && budgetMs > 0 && budgetMs <= MAX_BUDGET_MS
    ? undefined
    : `invalid budgetMs ${JSON.stringify(budgetMs) ?? String(budgetMs)}: must be a number of milliseconds in 1..${MAX_BUDGET_MS}`;
}

/** What every connection of one endpoint shares: the bytes held, the pending and kept connections. */
interface Shared {
  buffered: number;
  /** Connections without a complete request line, oldest first (a Set keeps insertion order). */
  pending: Set<Socket>;
  kept: Set<Socket>;
}

/** Listens on `path`; every connection: read one line, check the token, answer one line, close. */
export async function listenEndpoint(
  path: string,
  token: string,
  kinds: EndpointKinds,
  onError: (message: string) => void,
): Promise<Server> {
  const prefix = requestPrefix(token);
  const shared: Shared = { buffered: 0, pending: new Set(), kept: new Set() };
  const server = createServer((socket) => serveOne(socket, prefix, shared, kinds, onError));
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  try {
    if (process.platform !== 'win32') chmodSync(path, 0o600);
  } catch (err) {
    // Listening may succeed on a path the file system cannot name back (longer than sun_path):
    // a server we cannot make private is closed, never left listening.
    server.close();
    throw err;
  }
  server.on('error', (err) => onError(`agent hooks endpoint: ${err.message}`));
  return server;
}

function serveOne(
  socket: Socket,
  prefix: Buffer,
  shared: Shared,
  kinds: EndpointKinds,
  onError: (message: string) => void,
): void {
  // Room for this one: the oldest connection still without its line goes.
  if (shared.pending.size >= MAX_PENDING) {
    const oldest = shared.pending.values().next().value as Socket;
    shared.pending.delete(oldest);
    oldest.destroy();
  }
  shared.pending.add(socket);
  const chunks: Buffer[] = [];
  let size = 0;
  let held = 0;
  let proven = false;
  let done = false;
  const release = () => {
    shared.buffered -= held;
    held = 0;
    chunks.length = 0;
    shared.pending.delete(socket);
    clearTimeout(tokenTimer);
    clearTimeout(lineTimer);
  };
  const reply = (r: HookReply) => {
    done = true;
    release();
    if (socket.destroyed) return;
    socket.end(JSON.stringify(r) + '\n');
  };
  const refuse = (note: string) => {
    done = true;
    release();
    if (!socket.destroyed) socket.end(JSON.stringify({ v: PROTOCOL_VERSION, note, unasked: true }) + '\n');
    socket.destroySoon();
  };
  const tokenTimer = setTimeout(() => refuse('no token in time'), TOKEN_WAIT_MS);
  const lineTimer = setTimeout(() => refuse(`no whole request within ${LINE_WAIT_MS} ms`), LINE_WAIT_MS);
  tokenTimer.unref();
  lineTimer.unref();
  socket.setTimeout(MAX_BUDGET_MS + 5_000, () => socket.destroy());
  socket.on('error', () => {});
  socket.on('close', release);
  socket.on('data', (data: Buffer) => {
    if (done) return;
    const nl = data.indexOf(0x0a);
    const part = nl >= 0 ? data.subarray(0, nl) : data;
    size += part.length;
    if (size > MAX_REQUEST_BYTES) return refuse(`request larger than ${MAX_REQUEST_BYTES} bytes`);
    if (shared.buffered + part.length > MAX_BUFFERED_BYTES) return refuse('the window is busy; try again');
    chunks.push(part);
    held += part.length;
    shared.buffered += part.length;
    if (!proven) {
      if (size < prefix.length && nl < 0) return;
      const head = Buffer.concat(chunks).subarray(0, prefix.length);
      if (head.length !== prefix.length || !timingSafeEqual(head, prefix)) return refuse('wrong token');
      proven = true;
      clearTimeout(tokenTimer);
    }
    if (nl < 0) return;
    let req: EndpointRequest;
    try {
      req = JSON.parse(Buffer.concat(chunks).toString('utf8')) as EndpointRequest;
    } catch {
      return reply({ v: PROTOCOL_VERSION, note: 'request is not JSON', unasked: true });
    }
    release();
    const kind = typeof req.kind === 'string' && Object.hasOwn(kinds, req.kind) ? kinds[req.kind] : undefined;
    if (!kind)
      return reply({ v: PROTOCOL_VERSION, note: `unknown request kind ${JSON.stringify(req.kind)}`, unasked: true });
    const problem = kind.check(req);
    if (problem) return reply({ v: PROTOCOL_VERSION, note: problem, unasked: true });
    done = true;
    if (kind.open) {
      if (shared.kept.size >= MAX_KEPT)
        return reply({
          v: PROTOCOL_VERSION,
          note: `this window already keeps ${MAX_KEPT} ${String(req.kind)} connections open; close one (e.g. an idle MCP client) and try again`,
          unasked: true,
        });
      // Counted from now, so connections opening at the same time cannot pass the cap together.
      shared.kept.add(socket);
      socket.once('close', () => shared.kept.delete(socket));
      return handOver(socket, kind.open(req), data.subarray(nl + 1), shared, reply, onError);
    }
    if (!kind.handle)
      return reply({ v: PROTOCOL_VERSION, note: `${req.kind} requests are not answered here`, unasked: true });
    kind.handle(req).then(reply, (err: Error) => {
      onError(`endpoint ${req.kind} request failed: ${err.message}`);
      reply({ v: PROTOCOL_VERSION, note: `the window failed: ${err.message}`, unasked: true });
    });
  });
}

/**
 * Gives the connection to an `open` kind: our reading stops (bytes already past the request line
 * are put back), the idle timeout goes (a relay may sit idle for hours), and once the kind takes it
 * the ready line goes out before the kind reads or writes anything.
 */
function handOver(
  socket: Socket,
  opening: ReturnType<NonNullable<RequestKind['open']>>,
  rest: Buffer,
  shared: Shared,
  reply: (r: HookReply) => void,
  onError: (message: string) => void,
): void {
  socket.removeAllListeners('data');
  socket.pause();
  socket.setTimeout(0);
  if (rest.length) socket.unshift(rest);
  opening.then(
    (taken) => {
      if ('note' in taken) {
        reply({ v: PROTOCOL_VERSION, note: taken.note, unasked: true });
        // Our reading is paused: never wait for the client's end to free its place.
        socket.destroySoon();
        return;
      }
      if (socket.destroyed) return;
      socket.write(READY_LINE);
      guardLines(socket, shared);
      taken.start(socket);
      socket.resume();
    },
    (err: Error) => {
      onError(`endpoint connection could not be taken: ${err.message}`);
      reply({ v: PROTOCOL_VERSION, note: `the window failed: ${err.message}`, unasked: true });
      socket.destroySoon();
    },
  );
}

/**
 * A kept connection is still bounded like a request: a line longer than MAX_REQUEST_BYTES, or
 * partial lines past MAX_BUFFERED_BYTES across all connections, closes it (the kind's reader
 * would otherwise hold an endless line).
 */
function guardLines(socket: Socket, shared: Shared): void {
  let pending = 0;
  socket.on('data', (d: Buffer) => {
    const m = measureLines(pending, d);
    shared.buffered += m.pending - pending;
    pending = m.pending;
    if (m.longest > MAX_REQUEST_BYTES || shared.buffered > MAX_BUFFERED_BYTES) socket.destroy();
  });
  socket.once('close', () => {
    shared.buffered -= pending;
    pending = 0;
  });
}

/**
 * Line lengths across a stream read in chunks: `pending` bytes of an unfinished line came before
 * `chunk`. Returns the bytes of the line that goes on past the chunk, and the longest line the chunk
 * ends or carries on (the first line it ends counts what came before it). Shared by the endpoint's
 * guard and the relay's (`reasonix-host mcp`), so both bound a line the same way.
 */
export function measureLines(pending: number, chunk: Buffer): { pending: number; longest: number } {
  const first = chunk.indexOf(0x0a);
  if (first < 0) return { pending: pending + chunk.length, longest: pending + chunk.length };
  const next = chunk.length - chunk.lastIndexOf(0x0a) - 1;
  return { pending: next, longest: Math.max(pending + first, next) };
}

/** The hook kind's own check: a usable budget. */
export function hookRequestProblem(req: EndpointRequest): string | undefined {
  return typeof req.event === 'string' ? budgetProblem(req.budgetMs) : 'a hook request names no event';
}

/** What the bridge asks a window: the hook input travels as the text it arrived in. */
export interface BridgeRequest {
  token: string;
  event: string;
  /** The hook input as JSON text (read once from stdin, never re-serialised). */
  inputText: string;
  budgetMs: number;
}

/**
 * The request line, token first (the window checks it from the first bytes, before it buffers
 * or parses the rest); the input is spliced in as the text it arrived in.
 */
export function requestLine(req: BridgeRequest): string {
  return `${requestPrefix(req.token).toString()}"kind":"hook","event":${JSON.stringify(req.event)},"budgetMs":${req.budgetMs},"input":${req.inputText}}\n`;
}

/** One request, one answer, bounded by `timeoutMs`; rejects on any failure. */
export function askEndpoint(path: string, req: BridgeRequest, timeoutMs: number): Promise<HookReply> {
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
    socket.on('connect', () => socket.write(requestLine(req)));
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

/**
 * Opens a kept connection of kind `kind` (e.g. `mcp`): the request line, then the window's ready
 * line within `timeoutMs`. Resolves with the socket, whose later bytes are the kind's; rejects with
 * the window's note when it refuses, or on any failure.
 */
export function openChannel(
  path: string,
  token: string,
  kind: string,
  fields: Record<string, unknown>,
  timeoutMs: number,
): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    const chunks: Buffer[] = [];
    const fail = (err: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    };
    const timer = setTimeout(() => fail(new Error(`no answer within ${timeoutMs} ms`)), Math.max(0, timeoutMs));
    const onData = (d: Buffer) => {
      chunks.push(d);
      const all = Buffer.concat(chunks);
      const nl = all.indexOf(0x0a);
      if (nl < 0) return;
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('end', onEnd);
      let answer: { ready?: boolean; note?: string };
      try {
        answer = JSON.parse(all.subarray(0, nl).toString('utf8')) as typeof answer;
      } catch {
        return fail(new Error('the window answered something that is not JSON'));
      }
      if (answer.ready !== true) return fail(new Error(answer.note ?? 'the window refused the connection'));
      socket.pause();
      if (nl + 1 < all.length) socket.unshift(all.subarray(nl + 1));
      resolve(socket);
    };
    const onEnd = () => fail(new Error('the window closed the connection without an answer'));
    socket.on('connect', () => {
      const head = requestPrefix(token).toString();
      socket.write(`${head}${JSON.stringify({ kind, ...fields }).slice(1)}\n`);
    });
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('error', fail);
  });
}
