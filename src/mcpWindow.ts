// The MCP server a window's endpoint speaks to relayed clients, as its own bundle
// (dist/mcp-window.js): the MCP SDK is loaded on the first MCP connection, never at activation
// (src/vscode/mcp/provider.ts).
export { serveToolsOnSocket } from './host/mcp';
