// One session of the engine (one workspace folder) behind a narrow port, shared by the VS Code
// face and the CLI: discovery → runtime generations, UI hub, stream hubs, intercept dispatch.
export * from './types';
export { createSessionEngine, type CompositionDeps, type HostSidecar } from './composition';
export type { SidecarFactory } from '../generations';
export { inactiveText, unmetText, type Unmet } from '../generations';
