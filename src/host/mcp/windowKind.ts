// The `mcp` kind of request on a window's endpoint (issue 24): an MCP client relayed by
// `reasonix-host mcp` for a folder. The window takes the connection and serves the folder's tools
// over it with the SDK (loaded on the first connection only); a folder waiting for its first use
// lists its tools from its manifests and starts on the first call (docs/scale.md). A call the
// agent's PreToolUse hook has ruled on runs only tool.after here; any other runs the whole chain;
// either way PostToolUse then leaves tool.after alone (tools/callLedger.ts).
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Disposable } from '../emitter';
import type { EndpointRequest, RequestKind } from '../endpoint';
import { innermost } from '../folderMatch';
import type { Logger } from '../log';
import { declaredTools, toolListKey, type DeclaredPlugin, type ToolCallLedger, type ToolCallOutcome } from '../tools';
import type { SurfaceFeed } from '../ui';
import { anchoredViews, type ViewSession } from './appViews';
import type { ToolSource } from './server';

/** An MCP client relayed by `reasonix-host mcp` (kind "mcp"): the folder whose tools it wants. */
export interface McpRequest extends EndpointRequest {
  kind: 'mcp';
  folder: string;
}

function mcpRequestProblem(req: EndpointRequest): string | undefined {
  return typeof req.folder === 'string' && req.folder !== '' ? undefined : 'an mcp request names no folder';
}

/** One MCP tool call the window served, for the face's log. */
export interface McpCallRecord {
  folder: string;
  tool: string;
  outcome: ToolCallOutcome;
  /** Whether the agent's PreToolUse hook had already run tool.before and permission.decision. */
  ruledByHook: boolean;
  elapsedMs: number;
}

/** How the window serves MCP clients (the SDK is loaded on the first connection only). */
export interface WindowMcpOptions {
  load(): {
    serveToolsOnSocket(
      socket: Socket,
      source: ToolSource,
      version: string,
      note?: (text: string) => void,
    ): Promise<void>;
  };
  /** The version the server reports (the extension's). */
  version: string;
  /** Fires whenever a session starts, stops or changes (the tool list is compared on each). */
  onDidChangeSessions(listener: () => void): Disposable;
  onCall?(record: McpCallRecord): void;
  /** The window's surfaces: with it, views anchored to a call show on its card in MCP Apps clients (issue 41). */
  surfaces?: SurfaceFeed;
  /** The title the folder's server gives itself (VS Code names its tools after it); absent, `Reasonix`. */
  title?(folder: string): string | undefined;
}

/** A folder's running session, as far as its tools go. */
export interface McpFolderSession {
  folder: string;
  session: Pick<ToolSource, 'tools' | 'callTool'> & Partial<Pick<ViewSession, 'invokeAction'>>;
  /** The key the session's surfaces are stored under (views on cards need it). */
  sessionKey?: string;
  /** Starts the folder's extensions when they wait for a first use (docs/scale.md); awaited before a call. */
  ready?(reason?: 'hook' | 'mcp'): Promise<void>;
  /**
   * While the folder's extensions wait for a first use (not started yet, or stopped after an idle
   * time): the extensions they would run, from their manifests. Their tools are listed without
   * starting anything; the first `tools/call` starts the folder. Undefined once the folder runs.
   */
  waiting?(): readonly DeclaredPlugin[] | undefined;
}

export interface McpKindDeps {
  /** The window's running sessions, now (sessions come and go; an MCP connection outlives them). */
  sessions(): readonly McpFolderSession[];
  /** Shared with the window's hook kind: how the two paths recognise one tool call. */
  ledger: ToolCallLedger;
  /** Absent: every `mcp` request is refused (this window does not serve tools over MCP). */
  mcp?: WindowMcpOptions;
  logger: Logger;
}

/** How long an MCP connection waits for the folder's session when the window has none yet. */
export const SESSION_WAIT_MS = 15_000;

/** `find()` now, else when the sessions next change so that it finds one, else undefined after SESSION_WAIT_MS. */
function sessionSoon<T>(find: () => T | undefined, mcp: WindowMcpOptions): Promise<T | undefined> {
  const now = find();
  if (now !== undefined) return Promise.resolve(now);
  return new Promise((resolve) => {
    const done = (v: T | undefined) => {
      clearTimeout(timer);
      sub.dispose();
      resolve(v);
    };
    const sub = mcp.onDidChangeSessions(() => {
      const v = find();
      if (v !== undefined) done(v);
    });
    const timer = setTimeout(() => done(undefined), SESSION_WAIT_MS);
    timer.unref?.();
  });
}

/** The `mcp` kind, and `close` for the connections it keeps (closed with the window). */
export function mcpWindowKind(deps: McpKindDeps): { kind: RequestKind; close(): void } {
  const channels = new Set<Socket>();
  const folderSession = (folder: string) => deps.sessions().find((s) => s.folder === folder);
  const sessionFor = (folder: string) => folderSession(folder)?.session;
  const viewSession = (folder: string): ViewSession | undefined => {
    const f = folderSession(folder);
    const invoke = f?.session.invokeAction?.bind(f.session);
    return f?.sessionKey !== undefined && invoke ? { sessionKey: f.sessionKey, invokeAction: invoke } : undefined;
  };

  const toolSource = (folder: string, mcp: WindowMcpOptions): ToolSource => {
    const tools = () => {
      const f = folderSession(folder);
      const waiting = f?.waiting?.();
      return waiting ? declaredTools(waiting) : (f?.session.tools() ?? []);
    };
    return {
      tools,
      ...(mcp.surfaces ? { views: anchoredViews(mcp.surfaces, () => viewSession(folder)) } : {}),
      ...(mcp.title?.(folder) ? { title: mcp.title(folder) } : {}),
      callTool: async (name, args, opts) => {
        const t0 = performance.now();
        // A folder stopped after an idle time (or not started yet) starts before its tool runs.
        await folderSession(folder)?.ready?.('mcp');
        const session = sessionFor(folder);
        if (!session)
          return {
            kind: 'failed',
            modelName: name,
            reason: 'not_offered',
            message: `no Reasonix session serves ${folder} in this window any more; reopen the folder or run Reasonix: Reload Runtime`,
          };
        const ruledByHook = deps.ledger.take('ruled', folder, name, args ?? {});
        const outcome = await session.callTool(name, args, { ...opts, interceptors: ruledByHook ? 'after' : 'engine' });
        // A failed call never reaches VS Code's PostToolUse (the MCP error is thrown there).
        if (outcome.kind !== 'failed') deps.ledger.note('afterRan', folder, name, args ?? {});
        mcp.onCall?.({ folder, tool: name, outcome, ruledByHook, elapsedMs: performance.now() - t0 });
        return outcome;
      },
      onDidChangeTools: (listener) => {
        let key = toolListKey(tools());
        return mcp.onDidChangeSessions(() => {
          const next = toolListKey(tools());
          if (next === key) return;
          key = next;
          listener();
        });
      },
    };
  };

  /** Takes an MCP connection for the folder that holds the request's `folder`. */
  const open = async (req: McpRequest): Promise<{ note: string } | { start(socket: Socket): void }> => {
    const mcp = deps.mcp;
    if (!mcp) return { note: 'this window does not serve extension tools over MCP' };
    // Right after a window (re)loads, VS Code may start the server (for a restored chat's cards)
    // before the folder's session exists: wait for it a little before refusing (issue 41).
    const hit = await sessionSoon(() => innermost(deps.sessions(), (s) => [s.folder], req.folder), mcp);
    if (!hit) return { note: `no running Reasonix session in this window serves ${req.folder}` };
    const serve = mcp.load().serveToolsOnSocket;
    return {
      start: (socket) => {
        channels.add(socket);
        socket.once('close', () => channels.delete(socket));
        const note = (text: string) => deps.logger.warn(`MCP connection for ${hit.folder}: ${text}`);
        // An MCP client names the folder. A folder waiting for its first use lists its tools from the
        // manifests and starts on the first tools/call (VS Code starts every MCP server it knows); one that
        // is starting is waited for, so the first listing is complete.
        Promise.resolve(hit.item.waiting?.() ? undefined : hit.item.ready?.('mcp'))
          .then(() => serve(socket, toolSource(hit.folder, mcp), mcp.version, note))
          .catch((err: Error) => {
            deps.logger.warn(`MCP connection for ${hit.folder} failed: ${err.message}`);
            socket.destroy();
          });
      },
    };
  };

  return {
    kind: { check: mcpRequestProblem, open: (req) => open(req as McpRequest) },
    close: () => {
      for (const socket of channels) socket.destroy();
    },
  };
}
