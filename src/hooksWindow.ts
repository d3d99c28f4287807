// The window side of the agent-hooks bridge as its own bundle (dist/hooks-window.js): the
// extension loads it only when the endpoint opens, after activation, so activation's bundle does
// not carry it (src/vscode/agentHooks.ts).
export { HookWindow } from './host/hooks';
export { hooksDirs } from './host/endpoint';
export type { DecisionRecord } from './host/hooks';
export type { McpCallRecord, WindowMcpOptions } from './host/mcp';
