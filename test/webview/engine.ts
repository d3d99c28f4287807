// The extension's side of a view, in process: the Surfaces hub (the code the VS Code face runs)
// fed by an engine SurfaceStore, with nothing behind its buttons. The browser tests and the
// surfaces bench drive a page through it, so what the page gets is what the engine decided.
import type { SurfaceStore } from '../../src/host/ui';
import { SurfacesHub } from '../../src/vscode/surfaces/hub';

const noop = () => undefined;

export function surfacesHubOver(store: SurfaceStore): SurfacesHub {
  return new SurfacesHub({
    source: {
      snapshot: () => store.snapshot(),
      byKey: (key) => store.byKey(key),
      onDidChange: (l) => store.onDidChange(l),
      emptyState: () => null,
      onDidChangeEmptyState: () => ({ dispose: noop }),
    },
    sink: { runAction: async () => ({ accepted: false }), submitForm: async () => ({ accepted: false }) },
    log: { debug: noop, info: noop, warn: noop },
    openExternal: async () => undefined,
    manageTrust: noop,
  });
}
