// The engine as its own bundle (dist/engine.js): discovery, the wire, sidecars, generations, the
// UI hub, intercepts and streams. The extension requires it when the first folder starts (after
// start-up has finished), so activation parses none of it (src/vscode/context.ts).
export { createSessionEngine } from './host/session';
export { Sidecar } from './host/sidecar';
export { discoverPlugins } from './host/plugins';
