// The floor spoken over the host's own child, so the floor and the host drive the same process
// (docs/bench.md, "Issue 27"): on this VM which vCPU a process is woken on, and whether a parent
// and its child stay stacked on one, belongs to the process and lasts, so two sets of children
// compare their luck as well as the work. The host side is the whole Sidecar as the engine uses
// it; the floor writes its own frames into the same stdin and reads the same stdout. Both readers
// see every answer and skip the other side's (a floor answer costs the connection a parse and an
// id lookup, a host answer costs the raw peer a parse).
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Sidecar } from '../../src/host/sidecar';
import { RawPeer } from './raw';

/** The floor's ids start here, far from the connection's (1, 2, …). */
const FLOOR_IDS = 1_000_000;

/** A raw peer over `sidecar`'s running process. */
export function floorOver(sidecar: Sidecar): RawPeer {
  // The process is the Sidecar's own (private by design: nothing in the product writes around
  // its connection); only this bench reaches it.
  const child = (sidecar as unknown as { proc?: { child?: ChildProcessWithoutNullStreams } }).proc?.child;
  if (!child) throw new Error(`bench: ${sidecar.pluginId} has no process to share (not running, or Sidecar changed)`);
  return new RawPeer(child, {}, FLOOR_IDS);
}
