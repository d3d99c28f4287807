// Agent hook event → Reasonix hook point(s) → the hook's JSON answer (README "Agent hooks").
// Shared by the window endpoint (VS Code) and `reasonix-host hook --headless`. Agent hooks
// cannot rewrite a prompt or a tool result, so replacements there travel as additionalContext.
import { inert } from '../inert';
import { redact } from '../redact';
import type { DispatchCallOptions, HookMember, HookOutcome } from '../session';
import {
  budgetFor,
  type HookInput,
  type PostToolUseInput,
  type PreToolUseInput,
  type UserPromptSubmitInput,
  pointsOf,
  refusalAnswer,
  unheardAnswer,
  unheardText,
} from './events';
import {
  DeadlineAsker,
  depthPast,
  refusalOf,
  ruleAfter,
  ruleBefore,
  type PointRuling,
  type Refusal,
  type Unheard,
} from '../tools';

/** The extension tool an agent's tool name stands for (`mcp_reasonix_ext__p__t`), as its window resolved it. */
export interface HookTool {
  modelName: string;
  readOnly: boolean;
}

/** What the mapping needs from one folder's session: the dispatcher's walk and its member list. */
export interface HookSessionPort {
  dispatch(point: string, payload: unknown, opts?: DispatchCallOptions): Promise<HookOutcome>;
  interceptorsAt(point: string): HookMember[];
}

/** The JSON object printed on the hook's stdout; undefined = no decision (print nothing). */
export type HookAnswer = Record<string, unknown> | undefined;

export type AgentDecision = 'deny' | 'allow' | 'ask' | 'block' | 'context' | 'input' | 'stop' | 'none';

/** One line of the Output channel: what was decided, by whom and why (reason redacted). */
export interface DecisionRecord {
  event: string;
  tool?: string;
  decision: AgentDecision;
  /** The deciding extension (absent when nobody decided). */
  extension?: string;
  reason?: string;
  /** Why nothing was decided, or what went wrong, for the log. */
  note?: string;
  /**
   * Extensions that would have been asked but could not be (not running, too large, timed out):
   * never silent, the face logs it as a warning (issue 28 item 4).
   */
  unheard?: string;
  /** The agent's id of the tool call (PreToolUse `tool_use_id`), for the log: it names the call. */
  toolUseId?: string;
}

export interface HookResult {
  answer: HookAnswer;
  record: DecisionRecord;
  /**
   * PreToolUse of an extension tool (`tool`) that tool.before and permission.decision let through:
   * the arguments the agent's MCP call will carry, for the window's call ledger (tools/callLedger.ts).
   */
  ruled?: { modelName: string; args: unknown };
}

/**
 * A VS Code window's knowledge of the extension tools its MCP server serves for the folder (issue
 * 24): an agent's call of one reaches us twice, as hooks and as the MCP call; the window's ledger
 * makes every interceptor see it once. The window resolves the tool and reads its ledger before it
 * asks, and notes `ruled` after, so the mapping calls nothing back.
 */
export interface AnswerOptions {
  /** Epoch ms by which the answer must exist (the bridge's budget, minus its margin). */
  deadlineAt?: number;
  /** The extension tool the event is about (absent: the tool is foreign, or no MCP server serves it). */
  tool?: HookTool;
  /** PostToolUse: the MCP path settled this call, tool.after included (the ledger's entry was taken). */
  afterRan?: boolean;
}

/**
 * An optional extension that would have been asked but could not be (not running, too large to
 * send, timed out) never lets a call through in silence (issue 28 item 4): before a tool runs the
 * user is asked to confirm (`permissionDecision: "ask"`, unless something denied it); elsewhere the
 * agent shows a system message, and the record carries it so the log warns.
 */
function unheardRule(event: string, r: HookResult, unheard: string[]): HookResult {
  if (unheard.length === 0) return r;
  const who = unheard.join(', ');
  const text = unheardText(who);
  const record: DecisionRecord = { ...r.record, unheard: who };
  if (event === 'PreToolUse') {
    if (r.record.decision === 'deny') return { answer: r.answer, record };
    const prior = (r.answer?.hookSpecificOutput ?? {}) as Record<string, unknown>;
    const ask = unheardAnswer(event, text).hookSpecificOutput as Record<string, unknown>;
    return {
      answer: { hookSpecificOutput: { ...prior, ...ask } },
      record: { ...record, decision: 'ask', reason: text },
    };
  }
  return { answer: { ...(r.answer ?? {}), ...unheardAnswer(event, text) }, record };
}

/** Dispatches one event; never throws (a broken input or session answers nothing, with a note). */
export async function answerHookEvent(
  event: string,
  input: HookInput,
  session: HookSessionPort,
  opts: AnswerOptions = {},
): Promise<HookResult> {
  const deadlineAt = opts.deadlineAt ?? Date.now() + budgetFor(event);
  const ask = new DeadlineAsker(session, deadlineAt);
  const unheard = () => ask.unheard.map(unheardOf);
  try {
    switch (event) {
      case 'UserPromptSubmit':
        return unheardRule(event, await userPromptSubmit(input as UserPromptSubmitInput, ask), unheard());
      case 'PreToolUse': {
        const pre = input as PreToolUseInput;
        const ruled = unheardRule(event, await rulePreToolUse(pre, ask, opts.tool), unheard());
        // The agent's id of the call, in the log line: it names the call (a chat card's toolCallId is the same id).
        const r: HookResult =
          typeof pre.tool_use_id === 'string' && pre.tool_use_id !== ''
            ? { ...ruled, record: { ...ruled.record, toolUseId: redact(pre.tool_use_id).slice(0, 200) } }
            : ruled;
        // Let through (not denied): the MCP call that follows runs only tool.after.
        if (!opts.tool || r.record.decision === 'deny') return r;
        const updated = (r.answer?.hookSpecificOutput as { updatedInput?: unknown } | undefined)?.updatedInput;
        return {
          ...r,
          ruled: { modelName: opts.tool.modelName, args: updated ?? pre.tool_input ?? {} },
        };
      }
      case 'PostToolUse':
        return unheardRule(event, await postToolUse(input as PostToolUseInput, ask, opts), unheard());
      case 'SessionStart':
        return unheardRule(event, await sessionStart(input, ask), unheard());
      default:
        // Stop, PreCompact, SubagentStart/Stop, SessionEnd, ErrorOccurred: no Reasonix point
        // means the same thing (compaction.prepare carries messages the hook does not have).
        return none(event, undefined, `no Reasonix hook point matches ${event}`);
    }
  } catch (err) {
    if (err instanceof TooDeep) return cannotSend(event, session, err.message);
    return none(event, undefined, `not dispatched: ${redact((err as Error).message)}`);
  }
}

/**
 * An input that cannot be handed to the interceptors: those of the event's points cannot be asked.
 * A required one refuses, optional ones are unheard (ask before a tool), as when they are down.
 */
function cannotSend(event: string, session: HookSessionPort, why: string): HookResult {
  const members = pointsOf(event).flatMap((p) => session.interceptorsAt(p));
  const required = members.find((m) => m.required);
  if (required)
    return refused(event, undefined, {
      point: pointsOf(event)[0],
      by: required.pluginId,
      kind: 'unreachable',
      reason: why,
    });
  const unheard = [...new Set(members.map((m) => `${m.pluginId} (${why})`))];
  return unheardRule(event, none(event, undefined, why), unheard);
}

function none(event: string, tool: string | undefined, note?: string): HookResult {
  return { answer: undefined, record: { event, tool, decision: 'none', note } };
}

/** "guard (intercept_timeout: …)": one optional member not heard, its words made safe to show. */
function unheardOf(u: Unheard): string {
  return `${u.pluginId} (${u.reason}: ${u.ours ? u.message : shown(u.message)})`;
}

/**
 * Extension text in a hook's answer: redacted, and inert, since VS Code shows a hook's reason in the
 * chat, which may render it (never as a link, issue 38).
 */
function shown(text: string): string {
  return inert(redact(text));
}

/** "Reasonix extension "guard" blocked this: <reason>" — the text the agent and the user see. */
function because(pluginId: string, verb: string, reason: string | undefined): string {
  const r = reason ? shown(reason) : undefined;
  return `Reasonix extension "${pluginId}" ${verb}${r ? `: ${r}` : ''}`;
}

/** What a refusal at each point did, in the agent's words (a hook speaks of "this"). */
const REFUSED_VERB: Readonly<Record<string, string>> = {
  'permission.decision': 'denied this tool',
  'agent.before_start': 'stopped this agent session',
};

/** A refusal (tools/chain.ts, the one shape) as the agent and its user read it. */
function refusalText(r: Refusal): string {
  switch (r.kind) {
    case 'unreachable':
      return `Reasonix extension "${r.by}" is required but could not be asked (${shown(r.reason ?? 'failed')}); refused until it runs again`;
    case 'renamed':
      return `Reasonix extension "${r.by}" renamed the tool to "${shown(String(r.renamedTo))}", which an agent hook cannot do; refused`;
    case 'not-object':
      return `Reasonix extension "${r.by}" replaced the arguments with text that is not a JSON object; refused`;
    default:
      return because(r.by, REFUSED_VERB[r.point] ?? 'blocked this', r.reason);
  }
}

/** The decision each event's refusal is (events.ts refusalAnswer words the answer). */
const REFUSED_DECISION: Readonly<Record<string, AgentDecision>> = { PreToolUse: 'deny', SessionStart: 'stop' };

/** The answer and the log record of a refused event. */
function refused(event: string, tool: string | undefined, r: Refusal): HookResult {
  const text = refusalText(r);
  return {
    answer: refusalAnswer(event, text),
    record: {
      event,
      ...(tool === undefined ? {} : { tool }),
      decision: REFUSED_DECISION[event] ?? 'block',
      extension: r.by,
      reason: text,
    },
  };
}

function replacedBy(r: PointRuling): string | undefined {
  return r.kind === 'outcome' && r.outcome.decision === 'continue' && r.outcome.changedBy.length
    ? r.outcome.changedBy.join(', ')
    : undefined;
}

async function userPromptSubmit(input: UserPromptSubmitInput, ask: DeadlineAsker): Promise<HookResult> {
  const event = 'UserPromptSubmit';
  if (typeof input.prompt !== 'string' || input.prompt === '') return none(event, undefined, 'no prompt text');
  const r = await ask.point('input.receive', { text: input.prompt });
  const refusal = refusalOf('input.receive', r);
  if (refusal) return refused(event, undefined, refusal);
  const by = replacedBy(r);
  if (by && r.kind === 'outcome') {
    const text = (r.outcome.payload as { text?: string }).text ?? '';
    const context = `Reasonix extension "${by}" rewrote this prompt. Agent hooks cannot replace a prompt, so the rewritten text follows; treat it as the user's request:\n${text}`;
    return {
      answer: { hookSpecificOutput: { hookEventName: event, additionalContext: context } },
      record: { event, decision: 'context', extension: by, reason: 'prompt rewritten (sent as additionalContext)' },
    };
  }
  return none(event, undefined, r.kind === 'skipped' ? 'no interceptor at input.receive' : undefined);
}

function toolName(input: PreToolUseInput): string {
  if (typeof input.tool_name !== 'string' || input.tool_name === '') throw new Error('the hook input has no tool_name');
  return input.tool_name;
}

/**
 * How deep a hook's tool_input or tool_response may nest before it cannot be handed to the
 * interceptors: JSON.stringify recurses, and past about 4,500 levels it throws (issue 45 item 7).
 */
export const MAX_HOOK_VALUE_DEPTH = 1000;

/** A value nested too deeply to be sent: its extensions cannot be asked about it. */
class TooDeep extends Error {}

/** JSON text of a hook value, or TooDeep when it nests past MAX_HOOK_VALUE_DEPTH. */
function jsonOf(value: unknown, what: string): string {
  if (depthPast(value, MAX_HOOK_VALUE_DEPTH) !== undefined)
    throw new TooDeep(`its ${what} nests deeper than ${MAX_HOOK_VALUE_DEPTH} levels`);
  return JSON.stringify(value);
}

/** `arguments` is the JSON text of tool_input (absent input → "{}"). */
function argumentsOf(input: PreToolUseInput): string {
  return jsonOf(input.tool_input === undefined ? {} : input.tool_input, 'tool_input');
}

/**
 * The tool chain (tools/chain.ts) with the `refuse` rename policy: the agent calls the tool it
 * chose, and a hook's answer can replace its arguments (updatedInput) but cannot name another tool.
 */
async function rulePreToolUse(input: PreToolUseInput, ask: DeadlineAsker, ours?: HookTool): Promise<HookResult> {
  const event = 'PreToolUse';
  const tool = toolName(input);
  // Interceptors see an extension tool by the name Reasonix gives it, not the agent's MCP name.
  const ruling = await ruleBefore(
    ask.ask,
    { name: ours?.modelName ?? tool, argsText: argumentsOf(input), ...(ours ? { readOnly: ours.readOnly } : {}) },
    'refuse',
  );
  if (ruling.kind === 'refused') return refused(event, tool, ruling.refusal);
  const out: Record<string, unknown> = { hookEventName: event };
  let record: DecisionRecord = { event, tool, decision: 'none' };
  if (ruling.replaced) {
    out.updatedInput = ruling.replaced.args;
    const by = ruling.replaced.by.join(', ');
    record = { event, tool, decision: 'input', extension: by, reason: 'arguments replaced' };
  }
  if (ruling.allowed) {
    const { by, reason } = ruling.allowed;
    out.permissionDecision = 'allow';
    out.permissionDecisionReason = because(by, 'allowed this tool', reason);
    record = { event, tool, decision: 'allow', extension: by, reason: out.permissionDecisionReason as string };
  }
  if (Object.keys(out).length === 1)
    return none(event, tool, ruling.asked ? undefined : 'no interceptor at tool.before or permission.decision');
  return { answer: { hookSpecificOutput: out }, record };
}

/** tool_response as text: strings as they are, anything else as JSON. */
function resultText(response: unknown): string {
  if (typeof response === 'string') return response;
  return response === undefined ? '' : jsonOf(response, 'tool_response');
}

/** Claude Code marks failures in the response object; VS Code passes the text only. */
function isErrorResponse(response: unknown): boolean {
  if (!response || typeof response !== 'object') return false;
  const r = response as Record<string, unknown>;
  return r.is_error === true || r.isError === true || r.success === false;
}

async function postToolUse(input: PostToolUseInput, ask: DeadlineAsker, opts: AnswerOptions): Promise<HookResult> {
  const event = 'PostToolUse';
  const tool = toolName(input);
  const ours = opts.tool;
  if (ours && opts.afterRan) return none(event, tool, 'tool.after ran with the call, in the Reasonix MCP server');
  const ruling = await ruleAfter(ask.ask, {
    name: ours?.modelName ?? tool,
    arguments: argumentsOf(input),
    result: resultText(input.tool_response),
    isError: isErrorResponse(input.tool_response),
  });
  if (ruling.kind === 'refused') return refused(event, tool, ruling.refusal);
  if (ruling.replaced) {
    const by = ruling.replaced.by.join(', ');
    const context = `Reasonix extension "${by}" replaced the result of ${tool}. Agent hooks cannot change a tool result, so use this result instead:\n${ruling.replaced.result}`;
    return {
      answer: { hookSpecificOutput: { hookEventName: event, additionalContext: context } },
      record: {
        event,
        tool,
        decision: 'context',
        extension: by,
        reason: 'result replaced (sent as additionalContext)',
      },
    };
  }
  return none(event, tool, ruling.asked ? undefined : 'no interceptor at tool.after');
}

async function sessionStart(input: HookInput, ask: DeadlineAsker): Promise<HookResult> {
  const event = 'SessionStart';
  const id = input.session_id ?? input.sessionId;
  const sessionId = typeof id === 'string' && id ? id : 'agent-session';
  const r = await ask.point('agent.before_start', { sessionId });
  const refusal = refusalOf('agent.before_start', r);
  if (refusal) return refused(event, undefined, refusal);
  return none(event, undefined, r.kind === 'skipped' ? 'no interceptor at agent.before_start' : undefined);
}
