// One window's agent-hooks side: the window endpoint (src/host/endpoint) opened with the two kinds
// a window serves, `hook` (answered here: the event's `cwd` picks the folder's session, the mapping
// answers) and `mcp` (src/host/mcp: an MCP client relayed by `reasonix-host mcp` for its folder,
// issue 24), sharing one ledger so an agent's tool call meets every interceptor once. The window's
// record says, per folder, who takes part at the guarded points. The VS Code face supplies the
// sessions and logs the decisions; nothing here imports vscode.
import { performance } from 'node:perf_hooks';
import { WindowEndpoint, PROTOCOL_VERSION, type WindowRecord } from '../endpoint';
import { innermost } from '../folderMatch';
import type { Logger } from '../log';
import { mcpWindowKind, type McpFolderSession, type WindowMcpOptions } from '../mcp';
import { isAgentNameFor, ToolCallLedger, type ToolCallOptions, type ToolCallOutcome, type ToolInfo } from '../tools';
import { EVENT_POINTS, isAgentHookEvent, pointsOf, type PreToolUseInput } from './events';
import { answerHookEvent, type AnswerOptions, type DecisionRecord, type HookSessionPort } from './mapping';
import { hookRequestProblem, type HookReply, type HookRequest } from './request';

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
  ready?(reason?: 'hook' | 'mcp'): Promise<void>;
  /** While the folder waits for a first use, what its manifests declare (MCP lists their tools; docs/scale.md). */
  waiting?: McpFolderSession['waiting'];
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

/**
 * Per folder, the guarded points where a required (and an optional) extension takes part: the
 * dispatcher's answer, recorded so the bridge knows whom a window it cannot ask would have asked.
 */
function membersByFolder(sessions: readonly HookSessionEntry[]): Pick<WindowRecord, 'required' | 'optional'> {
  const required: Record<string, Record<string, string[]>> = {};
  const optional: Record<string, Record<string, string[]>> = {};
  for (const { folder, session } of sessions) {
    for (const point of GUARDED_POINTS) {
      for (const m of session.interceptorsAt(point)) {
        const into = m.required ? required : optional;
        ((into[folder] ??= {})[point] ??= []).push(m.pluginId);
      }
    }
  }
  return { required, optional };
}

export class HookWindow {
  private constructor(
    private readonly opts: HookWindowOptions,
    private readonly window: WindowEndpoint,
    /** How the hook path and the MCP path recognise one tool call (exactly once, issue 24). */
    private readonly ledger: ToolCallLedger,
    private readonly closeMcp: () => void,
  ) {}

  get dir(): string {
    return this.window.dir;
  }
  get id(): string {
    return this.window.id;
  }
  get endpoint(): string {
    return this.window.endpoint;
  }
  /** Why the window has no endpoint (then hooks are answered by the bridge alone). */
  get problem(): string | undefined {
    return this.window.problem;
  }

  /**
   * Opens the window endpoint (endpoint/window.ts: the first usable directory; recorded without an
   * endpoint when none can listen, so the bridge fails closed for required extensions) with the
   * `hook` and `mcp` kinds.
   */
  static async open(opts: HookWindowOptions): Promise<HookWindow> {
    const ledger = new ToolCallLedger();
    const mcp = mcpWindowKind({ sessions: opts.sessions, ledger, mcp: opts.mcp, logger: opts.logger });
    // The server exists before the window object that answers its hooks.
    const holder: { win?: HookWindow } = {};
    const window = await WindowEndpoint.open({
      dirs: opts.dirs,
      runtime: opts.runtime,
      folders: opts.folders,
      kinds: {
        hook: { check: hookRequestProblem, handle: (req) => holder.win!.handle(req as HookRequest) },
        mcp: mcp.kind,
      },
      record: () => membersByFolder(opts.sessions()),
      logger: opts.logger,
    });
    return (holder.win = new HookWindow(opts, window, ledger, mcp.close));
  }

  /** Re-writes the record (call when workspace folders, or the extensions running in them, change). */
  updateFolders(): void {
    this.window.updateRecord();
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
    // budgetMs was checked where the request was read (request.ts budgetProblem, the kind's check).
    const deadlineAt = Date.now() + req.budgetMs - ANSWER_MARGIN_MS;
    await untilReady(hit.item, deadlineAt);
    const r = await answerHookEvent(req.event, input, hit.item.session, {
      deadlineAt,
      ...(this.opts.mcp ? this.toolOptions(req.event, input, hit.folder, hit.item) : {}),
    });
    if (r.ruled) this.ledger.note('ruled', hit.folder, r.ruled.modelName, r.ruled.args);
    this.opts.onDecision?.(r.record, hit.folder, performance.now() - t0);
    return r.answer ? { v: PROTOCOL_VERSION, answer: r.answer } : { v: PROTOCOL_VERSION, note: r.record.note };
  }

  /**
   * For a tool event, the extension tool this window's MCP server serves for `folder` that the
   * agent's tool name stands for, and (PostToolUse) whether the MCP path settled the call: read here,
   * before the mapping asks, so the mapping never calls back into the window.
   */
  private toolOptions(
    event: string,
    input: PreToolUseInput,
    folder: string,
    { session, mcpLabel }: HookSessionEntry,
  ): Pick<AnswerOptions, 'tool' | 'afterRan'> {
    if ((event !== 'PreToolUse' && event !== 'PostToolUse') || typeof input.tool_name !== 'string') return {};
    const labels = mcpLabel ? [mcpLabel] : undefined;
    const agentName = input.tool_name;
    // VS Code cuts `mcp_<label>_<name>` at 64 characters, so two long names may read alike to it:
    // then the hook cannot tell which tool the agent means and rules on neither; the MCP call,
    // which carries the exact name, runs the whole chain instead (issue 45 item 1).
    const hits = session.tools().filter((tool) => isAgentNameFor(agentName, tool.modelName, labels));
    const t = hits.length === 1 ? hits[0] : undefined;
    if (!t) return {};
    const tool = { modelName: t.modelName, readOnly: t.readOnly };
    if (event === 'PreToolUse') return { tool };
    return { tool, afterRan: this.ledger.take('afterRan', folder, t.modelName, input.tool_input ?? {}) };
  }

  async close(): Promise<void> {
    this.closeMcp();
    await this.window.close();
  }
}
