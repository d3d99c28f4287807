// The window endpoint's server: a Unix socket inside the private directory (a per-user named pipe
// on Windows), never a TCP port. Every connection proves the window's token in its first bytes and
// carries one request line; the kind the line names (registered by its room: `hook` by hooks/,
// `mcp` by mcp/) then either answers one line, or takes the connection for its own traffic. Every
// bound on what a client can make the window hold is here.
import { timingSafeEqual } from 'node:crypto';
import { chmodSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { measureLines, READY_LINE, refusal, requestHead, type EndpointReply, type EndpointRequest } from './lines';

/** Large enough for a 1 MiB tool_input escaped twice over, far below the engine's limits. */
export const MAX_REQUEST_BYTES = 32 * 1024 * 1024;
/**
 * One kind of request the endpoint serves: how its own fields are checked (before anything is
 * handled) and who answers. The endpoint reads the line, checks the token and finds the kind; the
 * rest is the kind's. A kind either answers one line (`handle`: agent hooks), or keeps the
 * connection (`open`: the MCP server a relaying `reasonix-host mcp` speaks to, issue 24).
 */
export interface RequestKind {
  /** Why the request is unusable, or undefined. */
  check(req: EndpointRequest): string | undefined;
  handle?(req: EndpointRequest): Promise<EndpointReply>;
  /**
   * Takes the connection, or refuses it with a note. When taken, the endpoint answers the ready
   * line and then calls `start`: every later byte is the kind's (lines still bounded, see guardLines).
   */
  open?(req: EndpointRequest): Promise<{ note: string } | { start(socket: Socket): void }>;
}

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
/** The most a request may say it waits (the slow family's budget with room to spare; hooks/request.ts checks it). */
export const MAX_BUDGET_MS = 60_000;
/** A connection that has not proved its token within this long is dropped (slow clients). */
export const TOKEN_WAIT_MS = 2_000;
/** The whole request line must be in within this long of connecting (a 32 MiB line takes well under 1 s). */
export const LINE_WAIT_MS = 10_000;

/** What every connection of one endpoint shares: the bytes held, the pending and kept connections. */
interface Shared {
  buffered: number;
  /** Connections without a complete request line, oldest first (a Set keeps insertion order). */
  pending: Set<Socket>;
  kept: Set<Socket>;
}

/**
 * Listens on `path`; every connection: the token checked from its first bytes, one request line
 * read, then its kind either answers one line and the connection closes, or takes the connection.
 */
export async function listenEndpoint(
  path: string,
  token: string,
  kinds: EndpointKinds,
  onError: (message: string) => void,
): Promise<Server> {
  const prefix = Buffer.from(requestHead(token));
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
  const reply = (r: EndpointReply) => {
    done = true;
    release();
    if (socket.destroyed) return;
    socket.end(JSON.stringify(r) + '\n');
  };
  const refuse = (note: string) => {
    done = true;
    release();
    if (!socket.destroyed) socket.end(JSON.stringify(refusal(note)) + '\n');
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
      return reply(refusal('request is not JSON'));
    }
    release();
    const kind = typeof req.kind === 'string' && Object.hasOwn(kinds, req.kind) ? kinds[req.kind] : undefined;
    if (!kind) return reply(refusal(`unknown request kind ${JSON.stringify(req.kind)}`));
    const problem = kind.check(req);
    if (problem) return reply(refusal(problem));
    done = true;
    if (kind.open) {
      if (shared.kept.size >= MAX_KEPT)
        return reply(
          refusal(
            `this window already keeps ${MAX_KEPT} ${String(req.kind)} connections open; close one (e.g. an idle MCP client) and try again`,
          ),
        );
      // Counted from now, so connections opening at the same time cannot pass the cap together.
      shared.kept.add(socket);
      socket.once('close', () => shared.kept.delete(socket));
      return handOver(socket, kind.open(req), data.subarray(nl + 1), shared, reply, onError);
    }
    if (!kind.handle) return reply(refusal(`${req.kind} requests are not answered here`));
    kind.handle(req).then(reply, (err: Error) => {
      onError(`endpoint ${req.kind} request failed: ${err.message}`);
      reply(refusal(`the window failed: ${err.message}`));
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
  reply: (r: EndpointReply) => void,
  onError: (message: string) => void,
): void {
  socket.removeAllListeners('data');
  socket.pause();
  socket.setTimeout(0);
  if (rest.length) socket.unshift(rest);
  opening.then(
    (taken) => {
      if ('note' in taken) {
        reply(refusal(taken.note));
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
      reply(refusal(`the window failed: ${err.message}`));
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
