// Tool arguments against the tool's input schema (issue 45 item 7), with ajv's compiler. Its own
// room so that nothing reaches ajv by accident: the tools room imports only the types, and each face
// hands the checker in (the CLI bundles it, the extension requires dist/tool-arguments.js on the first
// tool call).
export {
  describeArgumentError,
  MAX_ARGUMENT_PROBLEMS,
  toolArgumentChecker,
  type ArgumentCheck,
  type CheckedTool,
  type ToolArgumentChecker,
} from './checker';
