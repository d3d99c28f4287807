// One window's side of the agent-hooks bridge: the private endpoint, the window's record in the
// registry, and the handlers that find the folder's session and answer: an agent hook for the
// event's `cwd`, or an MCP client relayed by `reasonix-host mcp` for its folder (issue 24). The
// VS Code face supplies the sessions and logs the decisions; nothing here imports vscode.
import { rmSync } from 'node:fs';
import type { Server, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Disposable } from '../emitter';
import type { Logger } from '../log';
import type { ToolSource } from '../mcp';
import { isAgentNameFor, toolListKey, type ToolCallOptions, type ToolCallOutcome, type ToolInfo } from '../tools';
import { ToolCallLedger } from './callLedger';
import { isAgentHookEvent } from './events';
import {
  endpointPath,
  ensurePrivateDir,
  listenEndpoint,
  newId,
  newToken,
  PROTOCOL_VERSION,
  hookRequestProblem,
  type EndpointKinds,
  type EndpointRequest,
  type HookReply,
  type HookRequest,
} from './endpoint';
import { pointsOf, EVENT_POINTS } from './events';
import { answerHookEvent, type DecisionRecord, type HookSessionPort, type HookToolCalls } from './mapping';
import {
  innermost,
  recordRuntime,
  removeStaleWindows,
  removeWindowRecord,
  writeWindowRecord,
  type WindowRecord,
} from './registry';

/** A folder session as the window needs it: hook dispatch and its extension tools. */
export interface WindowSessionPort extends HookSessionPort {
  tools(): ToolInfo[];
  callTool(name: string, args: unknown, opts: ToolCallOptions): Promise<ToolCallOutcome>;
}

export interface HookSessionEntry {
  /** Absolute folder path of the session. */
  folder: string;
  session: WindowSessionPort;
  /**
   * The label of the folder's MCP server definition, from which VS Code names its tools (the
   * hook path recognises the folder's own tools by it); default: the single-folder label.
   */
  mcpLabel?: string;
  /**
   * Starts the folder's extensions when they are not running yet (folders started on first use):
   * awaited before the session is asked, within the hook's budget.
   */
  ready?(): Promise<void>;
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
}

export interface HookWindowOptions {
  /** Where the endpoint may live, best first (hooksDirs()): the first usable one is taken. */
  dirs: readonly string[];
  /** The program the launchers run the bridge with (the extension host's process.execPath). */
  runtime: string;
  /** Every workspace folder of the window (what the record advertises). */
  folders(): string[];
  /** The running sessions (a folder without one answers "no decision"). */
  sessions(): HookSessionEntry[];
  /** Every answered event, with the time the window spent on it. */
  onDecision?(record: DecisionRecord, folder: string | undefined, elapsedMs: number): void;
  /** Whether agent hooks are answered (the user's setting); false: every hook gets no decision. */
  hooksEnabled?(): boolean;
  /** Serve the folders' extension tools to MCP clients (absent: `mcp` requests are refused). */
  mcp?: WindowMcpOptions;
  logger: Logger;
}

/**
 * Waits for a folder's extensions to start, at most until `deadlineAt`: a folder that is not up by
 * then is asked as it is (its optional extensions give no ruling this once, as a slow one would).
 */
async function untilReady(entry: HookSessionEntry, deadlineAt: number): Promise<void> {
  const ready = entry.ready?.();
  if (!ready) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((r) => (timer = setTimeout(r, Math.max(0, deadlineAt - Date.now()))));
  await Promise.race([ready.catch(() => undefined), late]);
  clearTimeout(timer);
}

/** Time kept back so the answer reaches the bridge before its own deadline, even on a busy machine. */
const ANSWER_MARGIN_MS = 500;

/** The points whose members the bridge answers for when this window cannot be asked. */
const GUARDED_POINTS = [...new Set(Object.keys(EVENT_POINTS).flatMap((e) => pointsOf(e)))];

/** An MCP client relayed by `reasonix-host mcp` (kind "mcp"): the folder whose tools it wants. */
export interface McpRequest extends EndpointRequest {
  kind: 'mcp';
  folder: string;
}

function mcpRequestProblem(req: EndpointRequest): string | undefined {
  return typeof req.folder === 'string' && req.folder !== '' ? undefined : 'an mcp request names no folder';
}

/** The kinds of request a window's endpoint serves, one entry each (endpoint.ts RequestKind). */
function requestKinds(holder: { win?: HookWindow }): EndpointKinds {
  return {
    hook: { check: hookRequestProblem, handle: (req) => holder.win!.handle(req as HookRequest) },
    mcp: { check: mcpRequestProblem, open: (req) => holder.win!.openMcp(req as McpRequest) },
  };
}

export class HookWindow {
  /** How the hook path and the MCP path recognise one tool call (exactly once, issue 24). */
  private readonly ledger = new ToolCallLedger();
  /** Kept MCP connections: closed with the window. */
  private readonly channels = new Set<Socket>();

  private constructor(
    private readonly opts: HookWindowOptions,
    readonly dir: string,
    readonly id: string,
    readonly endpoint: string,
    private readonly token: string,
    private readonly server: Server | undefined,
    private readonly startedAt: number,
    /** Why the window has no endpoint (then hooks are answered by the bridge alone: see open()). */
    readonly problem?: string,
  ) {}

  /**
   * Creates the private directory, listens, records the runtime and this window, in the first of
   * `dirs` where that works. When listening works nowhere, the window is still recorded, without
   * an endpoint and with `problem` set, where a directory could be made: the bridge then refuses
   * what its required extensions would have ruled on instead of letting everything through. Throws
   * only when no directory is usable at all.
   */
  static async open(opts: HookWindowOptions): Promise<HookWindow> {
    const problems: string[] = [];
    let recordDir: string | undefined;
    for (const dir of opts.dirs) {
      try {
        ensurePrivateDir(dir);
      } catch (err) {
        problems.push((err as Error).message);
        continue;
      }
      recordDir ??= dir;
      removeStaleWindows(dir);
      const id = newId();
      const token = newToken();
      const endpoint = endpointPath(dir, id);
      // The server exists before the window object that handles its requests.
      const holder: { win?: HookWindow } = {};
      let server: Server;
      try {
        server = await listenEndpoint(endpoint, token, requestKinds(holder), (m) => opts.logger.warn(m));
      } catch (err) {
        problems.push(`could not listen on ${endpoint}: ${(err as Error).message}`);
        continue;
      }
      const win = (holder.win = new HookWindow(opts, dir, id, endpoint, token, server, Date.now()));
      recordRuntime(dir, opts.runtime);
      win.updateFolders();
      return win;
    }
    const why = problems.join('; ') || 'no directory to open it in';
    if (!recordDir) throw new Error(why);
    const win = new HookWindow(opts, recordDir, newId(), '', newToken(), undefined, Date.now(), why);
    recordRuntime(recordDir, opts.runtime);
    win.updateFolders();
    return win;
  }

  /** Re-writes the record (call when workspace folders, or the extensions running in them, change). */
  updateFolders(): void {
    const record: WindowRecord = {
      v: PROTOCOL_VERSION,
      id: this.id,
      pid: process.pid,
      endpoint: this.endpoint,
      token: this.token,
      folders: this.opts.folders(),
      startedAt: this.startedAt,
      ...this.membersByFolder(),
    };
    if (this.problem) record.problem = this.problem;
    writeWindowRecord(this.dir, record);
  }

  /**
   * Per folder, the guarded points where a required (and an optional) extension takes part: the
   * dispatcher's answer, recorded so the bridge knows whom a window it cannot ask would have asked.
   */
  private membersByFolder(): Pick<WindowRecord, 'required' | 'optional'> {
    const required: Record<string, Record<string, string[]>> = {};
    const optional: Record<string, Record<string, string[]>> = {};
    for (const { folder, session } of this.opts.sessions()) {
      for (const point of GUARDED_POINTS) {
        for (const m of session.interceptorsAt(point)) {
          const into = m.required ? required : optional;
          ((into[folder] ??= {})[point] ??= []).push(m.pluginId);
        }
      }
    }
    return { required, optional };
  }

  async handle(req: HookRequest): Promise<HookReply> {
    const t0 = performance.now();
    if (!isAgentHookEvent(req.event)) return { v: PROTOCOL_VERSION, note: `unknown hook event "${String(req.event)}"` };
    if (this.opts.hooksEnabled && !this.opts.hooksEnabled())
      return { v: PROTOCOL_VERSION, note: 'agent hooks are turned off in this window (reasonix.agentHooks.enabled)' };
    const input = req.input && typeof req.input === 'object' ? req.input : {};
    const cwd = typeof input.cwd === 'string' ? input.cwd : '';
    const hit = cwd ? innermost(this.opts.sessions(), (s) => [s.folder], cwd) : undefined;
    if (!hit) {
      this.opts.onDecision?.(
        {
          event: req.event,
          decision: 'none',
          note: `no running Reasonix session for ${cwd || 'an event without cwd'}`,
        },
        undefined,
        performance.now() - t0,
      );
      return {
        v: PROTOCOL_VERSION,
        note: `no running Reasonix session in this window serves ${cwd || 'an event without cwd'}`,
      };
    }
    // budgetMs was checked where the request was read (endpoint.ts budgetProblem).
    const deadlineAt = Date.now() + req.budgetMs - ANSWER_MARGIN_MS;
    await untilReady(hit.item, deadlineAt);
    const r = await answerHookEvent(req.event, input, hit.item.session, {
      deadlineAt,
      toolCalls: this.opts.mcp ? this.toolCalls(hit.folder, hit.item) : undefined,
    });
    this.opts.onDecision?.(r.record, hit.folder, performance.now() - t0);
    return r.answer ? { v: PROTOCOL_VERSION, answer: r.answer } : { v: PROTOCOL_VERSION, note: r.record.note };
  }

  /** The hook path's view of the tools this window's MCP server serves for `folder`. */
  private toolCalls(folder: string, { session, mcpLabel }: HookSessionEntry): HookToolCalls {
    const labels = mcpLabel ? [mcpLabel] : undefined;
    return {
      resolve: (agentName) => {
        // VS Code cuts `mcp_<label>_<name>` at 64 characters, so two long names may read alike to it:
        // then the hook cannot tell which tool the agent means and rules on neither; the MCP call,
        // which carries the exact name, runs the whole chain instead (issue 45 item 1).
        const hits = session.tools().filter((tool) => isAgentNameFor(agentName, tool.modelName, labels));
        const t = hits.length === 1 ? hits[0] : undefined;
        return t && { modelName: t.modelName, readOnly: t.readOnly };
      },
      ruled: (modelName, args) => this.ledger.note('ruled', folder, modelName, args),
      afterRan: (modelName, args) => this.ledger.take('afterRan', folder, modelName, args),
    };
  }

  /** The session serving `folder` now (sessions come and go; an MCP connection outlives them). */
  private sessionFor(folder: string): WindowSessionPort | undefined {
    return this.opts.sessions().find((s) => s.folder === folder)?.session;
  }

  /** Takes an MCP connection for the folder that holds the request's `folder`. */
  async openMcp(req: McpRequest): Promise<{ note: string } | { start(socket: Socket): void }> {
    const mcp = this.opts.mcp;
    if (!mcp) return { note: 'this window does not serve extension tools over MCP' };
    const hit = innermost(this.opts.sessions(), (s) => [s.folder], req.folder);
    if (!hit) return { note: `no running Reasonix session in this window serves ${req.folder}` };
    const serve = mcp.load().serveToolsOnSocket;
    return {
      start: (socket) => {
        this.channels.add(socket);
        socket.once('close', () => this.channels.delete(socket));
        const note = (text: string) => this.opts.logger.warn(`MCP connection for ${hit.folder}: ${text}`);
        // An MCP client names the folder: its extensions start (if they wait for a first use) before tools are listed.
        Promise.resolve(hit.item.ready?.())
          .then(() => serve(socket, this.toolSource(hit.folder, mcp), mcp.version, note))
          .catch((err: Error) => {
            this.opts.logger.warn(`MCP connection for ${hit.folder} failed: ${err.message}`);
            socket.destroy();
          });
      },
    };
  }

  /**
   * The folder's tools as an MCP server sees them. A call the agent's PreToolUse hook has ruled on
   * runs only tool.after here; any other runs the whole chain; either way PostToolUse then leaves
   * tool.after alone (callLedger.ts).
   */
  private toolSource(folder: string, mcp: WindowMcpOptions): ToolSource {
    const tools = () => this.sessionFor(folder)?.tools() ?? [];
    return {
      tools,
      callTool: async (name, args, opts) => {
        const t0 = performance.now();
        await this.opts
          .sessions()
          .find((s) => s.folder === folder)
          ?.ready?.(); // started again after an idle stop
        const session = this.sessionFor(folder);
        if (!session)
          return {
            kind: 'failed',
            modelName: name,
            reason: 'not_offered',
            message: `no Reasonix session serves ${folder} in this window any more; reopen the folder or run Reasonix: Reload Runtime`,
          };
        const ruledByHook = this.ledger.take('ruled', folder, name, args ?? {});
        const outcome = await session.callTool(name, args, { ...opts, interceptors: ruledByHook ? 'after' : 'engine' });
        // A failed call never reaches VS Code's PostToolUse (the MCP error is thrown there).
        if (outcome.kind !== 'failed') this.ledger.note('afterRan', folder, name, args ?? {});
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
  }

  async close(): Promise<void> {
    for (const socket of this.channels) socket.destroy();
    removeWindowRecord(this.dir, this.id);
    const server = this.server;
    if (!server) return;
    await new Promise<void>((r) => server.close(() => r()));
    if (process.platform !== 'win32') rmSync(this.endpoint, { force: true });
  }
}
