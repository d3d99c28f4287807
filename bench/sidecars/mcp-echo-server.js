'use strict';
// The MCP floor for bench/mcp.ts: an MCP server on stdio built on the same SDK, whose one tool
// answers at once with a fixed text — what the SDK and a stdio hop cost with no engine behind them.
const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { CallToolRequestSchema, ListToolsRequestSchema } = require('@modelcontextprotocol/sdk/types.js');

const server = new Server({ name: 'echo', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [{ name: 'count_words', description: 'Count words', inputSchema: { type: 'object' } }],
}));
server.setRequestHandler(CallToolRequestSchema, (req) => ({
  content: [
    {
      type: 'text',
      text: String(
        String(req.params.arguments?.text ?? '')
          .split(/\s+/)
          .filter(Boolean).length,
      ),
    },
  ],
  isError: false,
}));
server.connect(new StdioServerTransport());
