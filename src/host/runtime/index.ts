// Runtime generations and per-session runtime management.
export { RuntimeGeneration, startGeneration, DEFAULT_MAX_CONCURRENT, DEFAULT_STARTUP_BUDGET_MS, type GenerationOptions, type GenerationChange } from './generation';
export { SessionRuntime, type SessionRuntimeOptions, type SessionChange, type SessionRuntimePhase, type ReloadResult } from './session';
export { GenerationError, type GenerationErrorKind } from './errors';
export { launchAll, STOPPED_BEFORE_LAUNCH } from './launch';
export { realSidecarFactory, type FailureInfo, type SessionContext, type SidecarFactory, type SidecarHandle, type SidecarState } from './port';
