// What travels on the window endpoint, for its server and its clients alike: the request line
// (token first), the one refusal reply, the ready line of a kept connection, and how line lengths
// are measured across chunks.

export const PROTOCOL_VERSION = 1;

/** Every request line: the token first, then which kind of request it is (see EndpointKinds). */
export interface EndpointRequest {
  v: number;
  token: string;
  kind: string;
  [field: string]: unknown;
}

/** The one line a kind that answers writes back (kind `hook`: the hook's answer). */
export interface EndpointReply {
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

/** The one refusal: the request was not served, and `note` says why. */
export function refusal(note: string): EndpointReply {
  return { v: PROTOCOL_VERSION, note, unasked: true };
}

/** The line that tells a client its connection was taken by an `open` kind. */
export const READY_LINE = `{"v":${PROTOCOL_VERSION},"ready":true}\n`;

/**
 * The first bytes of every request: `{v, token, …}` in that order, so the server checks the token
 * as soon as these bytes are in, before anything else is buffered or parsed.
 */
export function requestHead(token: string): string {
  return `{"v":${PROTOCOL_VERSION},"token":${JSON.stringify(token)},`;
}

/**
 * A request line: the head, then `body`, the rest of the JSON object (its members after the token
 * and the closing brace), spliced as text so a client can pass input in the text it arrived in.
 */
export function requestLineOf(token: string, body: string): string {
  return `${requestHead(token)}${body}\n`;
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
