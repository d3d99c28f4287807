// One plugin process and its connection (HOST_SPEC §2).
export { Sidecar, DEFAULT_TIMEOUTS, type SidecarState, type SidecarTimeouts, type SidecarOptions } from './sidecar';
export { SidecarFailure, failureOf, failureLogLine, type FailureStage, type FailureInfo } from './failures';
export {
  inboundHandlers,
  type HostHandlers,
  type HostServedMethod,
  type HostRequestMethod,
  type HostNotificationMethod,
} from './handlers';
export {
  type UiHost,
  type SessionContextInput,
  initializeParams,
  checkInitializeResult,
  acceptedUiActions,
} from './handshake';
export { resolveCommand, childEnv, launch, killTree, type DebugLaunch } from './spawn';
export { installReaper, type ProcessGuard } from './reaper';
export { StderrRing, STDERR_TAIL_BYTES } from './stderr';
