// The UI hub: strict decoding, staleness gate, surface store, prompts, actions (HOST_SPEC §7).
export { ACTION_ID, actionName, declareActions, parseActionName, type ActionSet, type DeclaredAction } from './actions';
export { decodePublishPayload, decodeRequestPayload } from './decode';
export { UiHub, type BindOptions, type UiHubOptions } from './hub';
export type { ActionEntry, ActionResult, SurfaceFeed, UiClient, UiFrontEnd, UiRequestOptions } from './ports';
export { attachSidecar, uiHandlers, type UiHandlers, type UiSidecar } from './sidecarAdapter';
export { SurfaceStore, type NotificationSurface, type SurfaceStoreOptions } from './store';
