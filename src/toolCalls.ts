// A tool call's own path as its own bundle (dist/tool-calls.js): the chain around
// `extension/tool/call` (tools/call.ts) and the check of the arguments against the tool's input
// schema (ajv's compiler). The extension requires it on the first tool call, so activation carries
// neither (src/vscode/context.ts); the CLI bundles it (src/cli/headless.ts).
export { callTool } from './host/tools';
export { toolArgumentChecker } from './host/arguments';
