// The two lifecycles of a ValidatedConnection, each a union and one table (src/host/states.ts):
// where the connection stands (barrier, shutdown, end) and where its reading stands (frames of a
// read waiting to be judged, the reader paused, an end waiting behind them). They were six fields
// that could be combined in ways nothing meant (paused while idle, an end waiting with no frames).
import { transition, type TransitionTable } from '../states';
import type { ConnectionEnd } from './connection';

/**
 * handshake: the traffic barrier is closed (HOST_SPEC §2.4); open: it is open; closing: the host
 * is shutting the connection down, so sidecar→host requests are refused; ended: for good.
 */
export type ConnectionState =
  | { readonly kind: 'handshake' }
  | { readonly kind: 'open' }
  | { readonly kind: 'closing' }
  | { readonly kind: 'ended'; readonly end: ConnectionEnd };
export type ConnectionEvent = 'ready' | 'shutdown' | 'end';

// The handshake opens the barrier twice (at the result's place in the wire, then before
// `initialized`); a stop begins shutdown on a connection that may have ended already; whatever
// arrives after the end leaves it ended.
export const CONNECTION_TABLE: TransitionTable<ConnectionState['kind'], ConnectionEvent> = {
  handshake: { ready: 'open', end: 'ended' },
  open: { ready: 'open', shutdown: 'closing', end: 'ended' },
  closing: { shutdown: 'closing', end: 'ended' },
  ended: { ready: 'ended', shutdown: 'ended', end: 'ended' },
};

export const HANDSHAKE: ConnectionState = { kind: 'handshake' };
const OPEN: ConnectionState = { kind: 'open' };
const CLOSING: ConnectionState = { kind: 'closing' };

/** The next state; `end` is what an `end` event records (the first end wins). */
export function nextConnectionState(
  from: ConnectionState,
  event: ConnectionEvent,
  end?: ConnectionEnd,
): ConnectionState {
  const kind = transition('connection', CONNECTION_TABLE, from.kind, event);
  if (kind === from.kind && kind !== 'handshake') return from;
  if (kind === 'ended') return { kind, end: end as ConnectionEnd };
  return kind === 'open' ? OPEN : kind === 'closing' ? CLOSING : HANDSHAKE;
}

/**
 * idle: no frame waits, the next one is judged on arrival; draining: frames of a read wait their
 * turn; paused: so many wait that the reader is paused (back-pressure). While frames wait, the
 * transport's close or read error waits behind them (`endAfter`) and ends the connection once
 * they are judged.
 */
export type ReadingState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'draining'; readonly endAfter?: ConnectionEnd }
  | { readonly kind: 'paused'; readonly endAfter?: ConnectionEnd };
export type ReadingEvent = 'drain' | 'pause' | 'endPending' | 'drained';

export const READING_TABLE: TransitionTable<ReadingState['kind'], ReadingEvent> = {
  idle: { drain: 'draining' },
  draining: { pause: 'paused', endPending: 'draining', drained: 'idle' },
  paused: { endPending: 'paused', drained: 'idle' },
};

export const IDLE: ReadingState = { kind: 'idle' };
const DRAINING: ReadingState = { kind: 'draining' };
const PAUSED: ReadingState = { kind: 'paused' };

/** The next state; an `endPending` keeps the first end that waits. */
export function nextReadingState(from: ReadingState, event: ReadingEvent, end?: ConnectionEnd): ReadingState {
  const kind = transition('connection reading', READING_TABLE, from.kind, event);
  if (kind === 'idle') return IDLE;
  const endAfter = from.kind === 'idle' ? undefined : (from.endAfter ?? (event === 'endPending' ? end : undefined));
  return endAfter ? { kind, endAfter } : kind === 'draining' ? DRAINING : PAUSED;
}
