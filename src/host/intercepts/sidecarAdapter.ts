// Adapts the real Sidecar to the dispatcher's port. Getters, not snapshots: a restarted sidecar
// gets a new connection and content store under the same object.
import type { Sidecar } from '../sidecar';
import type { InterceptClient } from './ports';

export function interceptClientFor(sidecar: Sidecar, registration: number): InterceptClient {
  return {
    pluginId: sidecar.pluginId,
    registration,
    get runtime() {
      return sidecar.plugin.runtime;
    },
    get content() {
      return sidecar.content;
    },
    isLive: () => sidecar.state === 'running',
    get state() {
      return sidecar.state;
    },
    nextInterceptSeq: () => sidecar.nextInterceptSeq(),
    // The sidecar's own method, bound: a call goes from the room straight to the sidecar (no frame here).
    request: sidecar.request.bind(sidecar),
    sendEvent: (params) => sidecar.sendEvent(params),
  };
}
