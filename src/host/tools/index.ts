// Extension tools (HOST_SPEC_V2 §12): the folder's catalog, `extension/tool/call` with its budget,
// concurrency bound and failure kinds, and the interceptor chain every call passes.
export { callTool, type ToolCallDeps } from './call';
export {
  ToolCaller,
  TOOL_CALL_BUDGET_MS,
  MAX_CONCURRENT_TOOL_CALLS,
  type ToolCallerOptions,
  type ToolRun,
} from './caller';
export {
  declaredTools,
  isAgentNameFor,
  labelKey,
  VSCODE_LABEL_KEY_LENGTH,
  listTools,
  MCP_DEFINITION_LABEL,
  MCP_TOOL_TITLE,
  MCP_SERVER_NAME,
  MODEL_FACING_NAME,
  modelFacingName,
  resolveTool,
  toolListKey,
  withheldTools,
  type CatalogClient,
  type DeclaredPlugin,
  type ResolvedTool,
  type WithheldTool,
} from './catalog';
export { depthPast, MAX_TOOL_ARGUMENT_DEPTH } from './depth';
export { contentForModel, MAX_TOOL_CONTENT_CHARS, truncationNote, type ModelContent } from './content';
export type {
  ToolChainDispatch,
  ToolChainDispatcher,
  ToolClient,
  ToolClientState,
  ToolFailureReason,
  ToolPoint,
} from './ports';
export { toolClientFor } from './sidecarAdapter';
export { CALL_ID_META_KEY, type ToolCallOptions, type ToolCallOutcome, type ToolInfo, type ToolRef } from './types';
export {
  DeadlineAsker,
  dispatchAsker,
  refusalOf,
  ruleAfter,
  ruleBefore,
  type AskPoint,
  type ChainCall,
  type ChainOutcome,
  type LetThrough,
  type PointRuling,
  type Refusal,
  type RenamePolicy,
  type RulingSession,
  type Unheard,
} from './chain';
export { canonicalJson, LEDGER_MAX_ENTRIES, LEDGER_TTL_MS, ToolCallLedger, type LedgerStage } from './callLedger';
