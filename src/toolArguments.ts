// The check of tool arguments against their input schema (ajv's compiler) as its own bundle
// (dist/tool-arguments.js): the extension requires it on the first tool call, so activation does
// not carry ajv (src/vscode/context.ts).
export { toolArgumentChecker } from './host/arguments';
