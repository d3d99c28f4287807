// Runtime generations: the sidecars of one session started together, reloaded fail-atomically, restarted under a bound.
export {
  RuntimeGeneration,
  startGeneration,
  DEFAULT_MAX_CONCURRENT,
  DEFAULT_STARTUP_BUDGET_MS,
  type GenerationOptions,
  type GenerationChange,
} from './generation';
export {
  SessionRuntime,
  type SessionRuntimeOptions,
  type SessionChange,
  type SessionRuntimePhase,
  type ReloadResult,
  type ReconcileResult,
} from './sessionRuntime';
export { GenerationError, type GenerationErrorKind } from './errors';
export { StartQueue, type StartSlots } from './startQueue';
export { launchAll, STOPPED_BEFORE_LAUNCH, type LaunchDependency } from './launch';
export {
  realSidecarFactory,
  type FailureInfo,
  type SessionContext,
  type SidecarFactory,
  type SidecarHandle,
  type SidecarState,
} from './ports';
export { RestartPolicy, type RestartPolicyOptions, type RestartDecision } from './restartPolicy';
export {
  planDependencies,
  inactiveText,
  unmetText,
  DEPENDENCY_OUTCOMES,
  HOST_CAPABILITIES,
  type DependencyEdge,
  type DependencyPlan,
  type GraphFailure,
  type InactiveReason,
  type PlanOutcome,
  type Unmet,
} from './dependencies';
