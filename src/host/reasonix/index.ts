// The user's Reasonix as a command-line peer: finding it, running it with a budget, and its
// plugin verbs (plan, install, enable, disable, remove, show, doctor, migrate). Plain Node.
export { ReasonixError, type ReasonixFailureKind, type ReasonixStep } from './errors';
export { locateReasonix, parseVersion, reasonixVersion, type LocateOptions, type ReasonixBinary } from './locate';
export { DEFAULT_TIMEOUT_MS, MAX_OUTPUT_BYTES, runReasonix, type RunOptions, type RunResult } from './run';
export {
  parsePlan,
  planFailure,
  planNames,
  type InstallFlags,
  type InstallPlan,
  type PlanAction,
  type PlanRuntime,
} from './plan';
export { parseList, ReasonixCli, type ListedPackage, type ReasonixCliOptions } from './cli';
