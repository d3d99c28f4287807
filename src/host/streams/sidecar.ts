// Wiring to the real Sidecar: its `HostHandlers` must exist at construction, before the hub that
// needs the sidecar as its client, so the handlers resolve the hub lazily.
import type { StreamChunkParams, StreamEndParams } from '../../protocol';
import type { StreamHub } from './hub';

export interface StreamHandlers {
  streamChunk(params: StreamChunkParams): void;
  streamEnd(params: StreamEndParams): void;
}

/** Handlers for `Sidecar` options; notifications arriving before the hub exists are dropped (no stream can be open yet). */
export function streamHandlers(hub: () => StreamHub | undefined): StreamHandlers {
  return {
    streamChunk: (params) => hub()?.handleChunk(params),
    streamEnd: (params) => hub()?.handleEnd(params),
  };
}
