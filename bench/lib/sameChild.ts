// The host's connection and dispatcher spoken over a raw peer's own child, so the floor and the
// host drive the same process (docs/bench.md, "Issue 27"): on this VM which vCPU a process is
// woken on, and whether a parent and its child stay stacked on one, belongs to the process and
// lasts, so two sets of children compare their luck as well as the work. Both readers see every
// answer and skip the other side's (a floor answer costs the connection a parse and an id lookup,
// a host answer costs the raw peer a parse). What the Sidecar class adds to this path is a state
// check; spawn rules and the handshake are not part of a round trip.
import { ContentStore } from '../../src/host/content';
import { createDispatcher, type InterceptDispatcher } from '../../src/host/intercepts';
import { ValidatedConnection } from '../../src/host/wire';
import { RawPeer } from './raw';

/** The floor's ids start here, far from the connection's (1, 2, …). */
const FLOOR_IDS = 1_000_000;

export interface SharedChild {
  raw: RawPeer;
  host: InterceptDispatcher;
  close(): Promise<void>;
}

export function sharedChild(script: string): SharedChild {
  const raw = new RawPeer(script, {}, FLOOR_IDS);
  const conn = new ValidatedConnection({
    input: raw.child.stdout,
    output: raw.child.stdin,
    handlers: { handler: () => undefined },
  });
  conn.markReady(); // the bench sidecar enforces no handshake
  let seq = 0;
  const host = createDispatcher([
    {
      pluginId: 'bench-shared',
      registration: 0,
      runtime: { intercepts: ['input.receive'], replaces: [], priority: 0, required: false, timeoutMillis: 0 },
      content: new ContentStore(),
      isLive: () => conn.ended === undefined,
      state: 'running',
      nextInterceptSeq: () => ++seq,
      request: (method, params, opts) => conn.request(method, params, opts),
      sendEvent: (params) => conn.sendEvent(params),
    },
  ]);
  return {
    raw,
    host,
    close: () => {
      conn.dispose();
      return raw.close();
    },
  };
}
