// An MCP server over a session's extension tools (issue 24), built on the maintained MCP SDK: every
// tool a running v2 extension serves, under its model-facing name (ext__<plugin>__<tool>), with the
// manifest's description and input schema and the read-only hint; a call goes through the engine
// (the folder's tool.before / permission.decision / tool.after chain, the 5-minute budget, the
// 8-in-flight bound). How a call ended maps onto MCP as clients expect:
//   result            → content [text], isError as the tool said (its own failure is a tool error);
//                       the content is the tool's answer for the model, passed as it is
//   refused           → a tool error whose text is the interceptor's reason (the model reads it)
//   failed            → an MCP error naming the extension and the reason (the call could not run)
// The tool list follows the source: a start, stop, crash or reload sends tools/list_changed.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Disposable } from '../emitter';
import { visibleLine, visibleLines, visibleSchema } from './visible';
import { MCP_SERVER_NAME, type ToolCallOptions, type ToolCallOutcome, type ToolInfo } from '../tools';

/**
 * What the server serves: one folder's tools. A headless session engine is one as it is; a VS Code
 * window gives a view over whichever session serves the folder now (windowKind.ts).
 */
export interface ToolSource {
  tools(): ToolInfo[];
  callTool(name: string, args: unknown, opts: ToolCallOptions): Promise<ToolCallOutcome>;
  onDidChangeTools(listener: () => void): Disposable;
}

/** The MCP error code for a call that could not run, by the engine's failure reason. */
function errorCode(reason: string): number {
  return reason === 'not_offered' || reason === 'invalid_params' ? ErrorCode.InvalidParams : ErrorCode.InternalError;
}

/** One tool as MCP lists it; its description and titles made visible (visible.ts), its name already safe. */
export function mcpTool(t: ToolInfo): Tool {
  return {
    name: t.modelName,
    description: visibleLines(t.description),
    inputSchema: visibleSchema(t.inputSchema) as Tool['inputSchema'],
    annotations: { readOnlyHint: t.readOnly, title: visibleLine(`${t.name} (Reasonix extension ${t.pluginId})`) },
  };
}

/** What MCP answers for one outcome; throws McpError for a call that could not run. */
export function mcpResult(o: ToolCallOutcome): CallToolResult {
  switch (o.kind) {
    case 'result':
      return { content: [{ type: 'text', text: o.content }], isError: o.isError };
    case 'refused':
      // Our text around an interceptor's reason: shown visibly, like every text we author.
      return { content: [{ type: 'text', text: visibleLine(o.message) }], isError: true };
    case 'failed':
      throw new McpError(errorCode(o.reason), visibleLine(`${o.message} [${o.reason}]`), {
        reason: o.reason,
        ...(o.pluginId ? { extension: o.pluginId } : {}),
      });
  }
}

export interface McpServerHandle {
  server: Server;
  dispose(): void;
}

/** The server for one folder's tools; connect it to a transport. */
export function createToolServer(source: ToolSource, version: string): McpServerHandle {
  const server = new Server(
    { name: MCP_SERVER_NAME, title: 'Reasonix extension tools', version },
    {
      capabilities: { tools: { listChanged: true } },
      instructions:
        'Tools served by Reasonix extensions (protocol v2 sidecars). Each call passes the folder’s Reasonix interceptors first; a refusal names the extension and its reason.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: source.tools().map(mcpTool) }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const outcome = await source.callTool(req.params.name, req.params.arguments ?? {}, { signal: extra.signal });
    return mcpResult(outcome);
  });
  const sub = source.onDidChangeTools(() => {
    void server.sendToolListChanged().catch(() => undefined); // not connected yet, or the client left
  });
  return { server, dispose: () => sub.dispose() };
}
