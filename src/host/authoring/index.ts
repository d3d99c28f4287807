// Writing a Reasonix extension: what the editor shows an author about their manifest.
export {
  checkFindings,
  manifestFindings,
  type CheckOutcome,
  type FindingFix,
  type ManifestFinding,
  type TextEdit,
} from './findings';
export { nodeAt, parsePath, parseTree, type JsonNode, type JsonPath } from './jsonTree';
export { DEV_WATCH_EXCLUDED_DIRS, devChangeOf, RestartThrottle, type DevChange } from './devWatch';
export { formSteps, readAnswer, type FormStep } from './toolForm';
export {
  debugPlan,
  findOnPath,
  freePort,
  waitForListener,
  DEBUG_HOST,
  INSTALL_DEBUGPY,
  INSTALL_DLV,
  type DebugAttach,
  type DebugPlan,
  type DebugRuntime,
} from './debugPlan';
export {
  writeScaffold,
  scaffoldNameFor,
  scaffoldNameProblem,
  scaffoldTargetProblem,
  ScaffoldError,
  SCAFFOLD_LANGUAGES,
  type ScaffoldLanguage,
  type ScaffoldOptions,
} from './scaffold';
export { previewView, type ViewFinding, type ViewPreview } from './viewPreview';
