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
    request: (method, params, opts) => sidecar.request(method, params, opts),
    onStateChange: (listener) => sidecar.onStateChange(listener),
  };
}
