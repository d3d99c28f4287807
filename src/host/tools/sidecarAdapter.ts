// Adapts the real Sidecar to the tool room's port. Getters, not snapshots: a restarted sidecar
// serves the tools of its new handshake under the same object.
import type { Sidecar } from '../sidecar';
import type { ToolClient } from './ports';

export function toolClientFor(sidecar: Sidecar): ToolClient {
  return {
    pluginId: sidecar.pluginId,
    get state() {
      return sidecar.state;
    },
    get tools() {
      return sidecar.tools;
    },
    ui: sidecar.plugin.runtime.capabilities.includes('ui'),
    // The sidecar's own method, bound: a call goes from the room straight to the sidecar (no frame here).
    request: sidecar.request.bind(sidecar),
    onStateChange: (listener) => sidecar.onStateChange(listener),
  };
}
