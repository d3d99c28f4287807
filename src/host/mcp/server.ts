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
// Views on a tool's card (issue 41, MCP Apps): only for a client that advertised the
// `io.modelcontextprotocol/ui` extension, and only for tools whose extension declares the `ui`
// capability (mayAnchorView), a listed tool carries `_meta.ui.resourceUri`; its call gets a minted
// Reasonix call id (handed to the sidecar, returned in the result's `_meta`), and two app-only tools
// serve the page (appViews.ts). Any other client, or tool, is served exactly as before.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { randomUUID } from 'node:crypto';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Disposable } from '../emitter';
import { visibleLine, visibleLines, visibleSchema } from './visible';
import {
  CALL_ID_META_KEY,
  canonicalJson,
  MCP_SERVER_NAME,
  MCP_TOOL_TITLE,
  type ToolCallOptions,
  type ToolCallOutcome,
  type ToolInfo,
} from '../tools';
import { appPageHtml, appResourceUri, drawsApps, MCP_APP_MIME, parseAppResourceUri } from './appPage';
import { readCardViews, runCardAction, VIEW_ACTION_TOOL, VIEW_READ_TOOL, type AnchoredViews } from './appViews';

/**
 * What the server serves: one folder's tools. A headless session engine is one as it is; a VS Code
 * window gives a view over whichever session serves the folder now (windowKind.ts).
 */
export interface ToolSource {
  tools(): ToolInfo[];
  callTool(name: string, args: unknown, opts: ToolCallOptions): Promise<ToolCallOutcome>;
  onDidChangeTools(listener: () => void): Disposable;
  /** The folder's views anchored to tool calls; absent, no tool gets a card view (issue 41). */
  views?: AnchoredViews;
  /**
   * The server's title (serverInfo.title; default `Reasonix`): VS Code names the tools after it
   * (`mcp_<title>_<tool>`), so a window gives each folder's server its own (src/vscode/mcp/labels.ts).
   */
  title?: string;
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

/** The app-only tools the page on a card calls (never listed for the model: visibility "app"). */
const APP_TOOLS: Tool[] = [
  {
    name: VIEW_READ_TOOL,
    description:
      'The Reasonix views anchored to one tool call: at once when they differ from the state `after` names, else when they next change (at most 20 s).',
    inputSchema: {
      type: 'object',
      properties: {
        callId: { type: 'string', description: 'The Reasonix call id from the tool result’s _meta.' },
        arguments: { type: 'object', description: 'Without callId: the arguments of the latest call to read.' },
        after: { type: 'string', description: 'The token of the state the page shows.' },
      },
    },
    annotations: { readOnlyHint: true, title: 'Read a Reasonix tool call’s views' },
    _meta: { ui: { visibility: ['app'] } },
  },
  {
    name: VIEW_ACTION_TOOL,
    description:
      'Runs the action of a button a Reasonix view anchored to the call shows, as the Reasonix sidebar does (declared actions only).',
    inputSchema: {
      type: 'object',
      properties: { callId: { type: 'string' }, key: { type: 'string' }, actionId: { type: 'string' } },
      required: ['callId', 'key', 'actionId'],
    },
    annotations: { title: 'Press a button of a Reasonix view' },
    _meta: { ui: { visibility: ['app'] } },
  },
];

/** Calls the page may look up by tool and arguments before their result (and so their call id) arrives. */
const RECENT_CALLS = 64;
/** Call ids a server remembers as its own (a UUID each: about 40 bytes). */
const MINTED_CALLS = 4096;

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** The server for one folder's tools; connect it to a transport. */
export function createToolServer(source: ToolSource, version: string): McpServerHandle {
  const server = new Server(
    { name: MCP_SERVER_NAME, title: source.title ?? MCP_TOOL_TITLE, version },
    {
      capabilities: { tools: { listChanged: true }, ...(source.views ? { resources: {} } : {}) },
      instructions:
        'Tools served by Reasonix extensions (protocol v2 sidecars). Each call passes the folder’s Reasonix interceptors first; a refusal names the extension and its reason.',
    },
  );
  /** Views on cards only for a client that draws MCP Apps, and a source that has views. */
  const views = (): AnchoredViews | undefined =>
    source.views && drawsApps(server.getClientCapabilities()) ? source.views : undefined;
  /**
   * The canonical arguments of recent anchorable calls → the id of the latest such call (bounded):
   * the page knows its call's arguments (tool-input) before its result brings the id, but not our
   * name for the tool (VS Code gives its own), so two tools called with the same arguments at once
   * may show each other's views until the result arrives.
   */
  const recent = new Map<string, string>();
  /**
   * The call ids this server minted (bounded): a card asking about another id is one of an older
   * transcript (a window reload restarts the server and the sidecars, whose views are gone), so the
   * page says its view is no longer live instead of waiting for one.
   */
  const minted = new Set<string>();
  const remember = (args: unknown, callId: string) => {
    const key = canonicalJson(args);
    recent.delete(key);
    recent.set(key, callId);
    if (recent.size > RECENT_CALLS) recent.delete(recent.keys().next().value as string);
    minted.add(callId);
    if (minted.size > MINTED_CALLS) minted.delete(minted.values().next().value as string);
  };

  server.setRequestHandler(ListToolsRequestSchema, () => {
    const tools = source.tools();
    if (!views()) return { tools: tools.map(mcpTool) };
    return {
      tools: [
        ...tools.map((t) =>
          t.mayAnchorView
            ? { ...mcpTool(t), _meta: { ui: { resourceUri: appResourceUri(t.pluginId, t.name) } } }
            : mcpTool(t),
        ),
        ...APP_TOOLS,
      ],
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const v = views();
    const args = req.params.arguments ?? {};
    if (v && req.params.name === VIEW_READ_TOOL) {
      const callId = str(args.callId) ?? recent.get(canonicalJson(args.arguments ?? {}));
      if (!callId)
        return {
          content: [{ type: 'text', text: 'no call of that tool with those arguments is known yet' }],
          isError: true,
        };
      const state = await readCardViews(v, callId, str(args.after), extra.signal);
      // live: the call is one of this server's, or its views are still shown (then they can change).
      const live = state.views.length > 0 || minted.has(callId);
      return {
        content: [{ type: 'text', text: `${state.views.length} view(s)${live ? '' : '; the call is not live'}` }],
        structuredContent: { ...state, live },
      };
    }
    if (v && req.params.name === VIEW_ACTION_TOOL) {
      const r = await runCardAction(v, String(args.callId ?? ''), String(args.key ?? ''), String(args.actionId ?? ''));
      return {
        content: [{ type: 'text', text: r.message ?? (r.accepted ? 'done' : 'not accepted') }],
        structuredContent: { ...r },
        isError: !r.accepted,
      };
    }
    const tool = v && source.tools().find((t) => t.modelName === req.params.name);
    if (!tool?.mayAnchorView) {
      const outcome = await source.callTool(req.params.name, args, { signal: extra.signal });
      return mcpResult(outcome);
    }
    // A call whose extension may anchor a view: our call id, for the sidecar and for the page.
    const callId = randomUUID();
    remember(args, callId);
    const outcome = await source.callTool(req.params.name, args, { signal: extra.signal, callId });
    return { ...mcpResult(outcome), _meta: { [CALL_ID_META_KEY]: callId } };
  });
  // The SDK accepts resource handlers only when the capability is declared (a source with views).
  if (source.views) {
    server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: views()
        ? source
            .tools()
            .filter((t) => t.mayAnchorView)
            .map((t) => ({
              uri: appResourceUri(t.pluginId, t.name),
              name: `${t.modelName} view`,
              mimeType: MCP_APP_MIME,
            }))
        : [],
    }));
    server.setRequestHandler(ReadResourceRequestSchema, (req) => {
      const ref = parseAppResourceUri(req.params.uri);
      const known =
        ref && source.tools().some((t) => t.mayAnchorView && t.pluginId === ref.pluginId && t.name === ref.name);
      if (!known || !views())
        throw new McpError(ErrorCode.InvalidParams, `no Reasonix view resource ${visibleLine(req.params.uri)}`);
      return { contents: [{ uri: req.params.uri, mimeType: MCP_APP_MIME, text: appPageHtml() }] };
    });
  }
  const sub = source.onDidChangeTools(() => {
    void server.sendToolListChanged().catch(() => undefined); // not connected yet, or the client left
  });
  return { server, dispose: () => sub.dispose() };
}
