// One plugin process and its connection (HOST_SPEC §2).
export {
  Sidecar,
  StartError,
  DEFAULT_TIMEOUTS,
  type SidecarState,
  type SidecarTimeouts,
  type HostHandlers,
  type SidecarOptions,
  type FailureStage,
  type FailureInfo,
} from './sidecar';
export { type UiHost, type SessionContextInput, initializeParams, checkInitializeResult, acceptedUiActions } from './handshake';
export { resolveCommand, childEnv } from './spawn';
export { StderrRing, STDERR_TAIL_BYTES } from './stderr';
