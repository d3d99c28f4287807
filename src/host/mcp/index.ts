// Extension tools over the Model Context Protocol (issue 24): one server, built on the MCP SDK,
// for `reasonix-host mcp` on stdio and for a VS Code window's endpoint.
export { createToolServer, mcpResult, mcpTool, type McpServerHandle, type ToolSource } from './server';
export { serveToolsOnSocket } from './socket';
export { MAX_MCP_LINE_BYTES, McpStdioTransport, type McpStdioOptions } from './stdioTransport';
export {
  mcpWindowKind,
  type McpCallRecord,
  type McpFolderSession,
  type McpKindDeps,
  type McpRequest,
  type WindowMcpOptions,
} from './windowKind';
export {
  anchoredViews,
  readCardViews,
  runCardAction,
  VIEW_ACTION_TOOL,
  VIEW_READ_TOOL,
  type AnchoredViews,
  type CardViews,
  type ViewSession,
} from './appViews';
export { appPageHtml, appResourceUri, drawsApps, MCP_APP_MIME, MCP_APPS_EXTENSION } from './appPage';
