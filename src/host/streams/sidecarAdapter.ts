// Wiring to the real Sidecar: its `HostHandlers` must exist at construction, before the hub that
// needs the sidecar as its client, so the handlers resolve the hub lazily.
import type { HostHandlers } from '../sidecar';
import type { StreamHub } from './hub';

/** The stream notifications: this subsystem's part of the sidecar's handler map. */
export type StreamHandlers = Required<
  Pick<HostHandlers, 'extension/provider/stream/chunk' | 'extension/provider/stream/end'>
>;

/** Notifications arriving before the hub exists are dropped (no stream can be open yet). */
export function streamHandlers(hub: () => StreamHub | undefined): StreamHandlers {
  return {
    'extension/provider/stream/chunk': (params) => hub()?.handleChunk(params),
    'extension/provider/stream/end': (params) => hub()?.handleEnd(params),
  };
}
