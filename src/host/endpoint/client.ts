// The window endpoint's one client: connect, send a line, read a line. The hook bridge asks with it
// (kind `hook`: one answer, then the connection is done) and the MCP relay opens with it (kind
// `mcp`: the ready line, then the connection is the relay's). Callers check the endpoint first
// (registry.ts locateWindow's `unreachable`): the token goes only to a socket this user owns.
import { createConnection, type Socket } from 'node:net';
import { requestLineOf, type EndpointReply } from './lines';

/**
 * Connects to `path`, sends `line`, and resolves with the first line the window writes back
 * (without its newline) and the socket, paused, with any bytes past that line put back. Rejects
 * when no whole line comes within `timeoutMs`, when the window closes the connection first, and on
 * any connection error; the socket is destroyed then.
 */
export function exchangeLine(path: string, line: string, timeoutMs: number): Promise<{ line: string; socket: Socket }> {
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
      const nl = d.indexOf(0x0a);
      if (nl < 0) return void chunks.push(d);
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.pause();
      chunks.push(d.subarray(0, nl));
      if (nl + 1 < d.length) socket.unshift(d.subarray(nl + 1));
      resolve({ line: Buffer.concat(chunks).toString('utf8'), socket });
    };
    const onEnd = () => fail(new Error('the window closed the connection without an answer'));
    socket.on('connect', () => socket.write(line));
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('error', fail);
  });
}

/** One request of a kind that answers one line (`hook`): its reply, the connection closed. */
export async function askEndpoint(path: string, line: string, timeoutMs: number): Promise<EndpointReply> {
  const { line: answer, socket } = await exchangeLine(path, line, timeoutMs);
  socket.destroy();
  try {
    return JSON.parse(answer) as EndpointReply;
  } catch {
    throw new Error('the window answered something that is not JSON');
  }
}

/**
 * Opens a kept connection of kind `kind` (e.g. `mcp`): the request line, then the window's ready
 * line within `timeoutMs`. Resolves with the socket (paused), whose later bytes are the kind's;
 * rejects with the window's note when it refuses, or on any failure.
 */
export async function openChannel(
  path: string,
  token: string,
  kind: string,
  fields: Record<string, unknown>,
  timeoutMs: number,
): Promise<Socket> {
  const line = requestLineOf(token, JSON.stringify({ kind, ...fields }).slice(1));
  const { line: answer, socket } = await exchangeLine(path, line, timeoutMs);
  let ready: { ready?: boolean; note?: string };
  try {
    ready = JSON.parse(answer) as typeof ready;
  } catch {
    socket.destroy();
    throw new Error('the window answered something that is not JSON');
  }
  if (ready.ready === true) return socket;
  socket.destroy();
  throw new Error(ready.note ?? 'the window refused the connection');
}
