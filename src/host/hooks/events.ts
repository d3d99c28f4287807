// The agent-hook events the bridge knows (VS Code's "Hooks reference", the Claude Code format:
// snake_case input fields on stdin, one JSON answer on stdout), how long each may take, the points
// each asks, and the answers that refuse or ask in each event's own words: the window's mapping and
// the bridge's fail-closed answers both write them from here. The bundled bridge program loads
// this file on every hook run; of the engine it imports only the hook-point table (package.json
// `sideEffects` lets the bundler drop the rest).
import { interceptBudget, type HookPoint } from '../intercepts';

/** Events VS Code 1.139 fires (its hook type table); only those in EVENT_POINTS reach Reasonix. */
export const AGENT_HOOK_EVENTS = [
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'ErrorOccurred',
] as const;
export type AgentHookEvent = (typeof AGENT_HOOK_EVENTS)[number];

/** The Reasonix hook point each event reaches first; its budget is that point's (README "Agent hooks"). */
export const EVENT_POINTS: Readonly<Partial<Record<AgentHookEvent, HookPoint>>> = {
  UserPromptSubmit: 'input.receive',
  PreToolUse: 'tool.before',
  PostToolUse: 'tool.after',
  SessionStart: 'agent.before_start',
};

export function isAgentHookEvent(value: unknown): value is AgentHookEvent {
  return typeof value === 'string' && (AGENT_HOOK_EVENTS as readonly string[]).includes(value);
}

/**
 * The whole budget of one hook run (spawn → answer), never exceeded by the bridge: the family
 * budget of the event's first point (src/host/intercepts/points.ts, the one table: 5 s for the
 * fast points, 30 s otherwise); an event that reaches no point gets the slow family's.
 */
export function budgetFor(event: string): number {
  const point = isAgentHookEvent(event) ? EVENT_POINTS[event] : undefined;
  return interceptBudget(point ?? 'agent.before_start', 0);
}

/** Fields every event carries; VS Code writes camelCase ids, Claude Code snake_case. */
export interface CommonHookInput {
  cwd?: string;
  session_id?: string;
  sessionId?: string;
  hook_event_name?: string;
  hookEventName?: string;
  transcript_path?: string;
  timestamp?: string | number;
}

export interface UserPromptSubmitInput extends CommonHookInput {
  prompt?: string;
}

export interface PreToolUseInput extends CommonHookInput {
  tool_name?: string;
  tool_input?: unknown;
  tool_use_id?: string;
}

export interface PostToolUseInput extends PreToolUseInput {
  tool_response?: unknown;
}

export type HookInput = CommonHookInput & Record<string, unknown>;

/** The event named by the input itself (when the command line did not name one). */
export function eventOf(input: HookInput): string | undefined {
  const name = input.hook_event_name ?? input.hookEventName;
  return typeof name === 'string' ? name : undefined;
}

/**
 * The answer that refuses what the event was about, in each event's own words: a tool call is
 * denied, a prompt or a tool result blocked, an agent session stopped. `text` is shown to the user
 * and the agent. The window's refusals and the bridge's fail-closed answers use it alike.
 */
export function refusalAnswer(event: string, text: string): Record<string, unknown> | undefined {
  switch (event) {
    case 'PreToolUse':
      return {
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: text },
      };
    case 'UserPromptSubmit':
    case 'PostToolUse':
      return { decision: 'block', reason: text };
    case 'SessionStart':
      return { continue: false, stopReason: text };
    default:
      return undefined;
  }
}

/**
 * The answer when an optional extension could not rule (not running, too large to send, timed
 * out, or the window itself could not be asked): never an allow by silence (issue 28 item 4). Before
 * a tool runs the user is asked (`permissionDecision: "ask"`); elsewhere the agent shows a system
 * message. The window's mapping and the bridge's fail-safe answers use it alike.
 */
export function unheardAnswer(event: string, text: string): Record<string, unknown> {
  if (event === 'PreToolUse')
    return {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: text },
    };
  return { systemMessage: text };
}

/** "Reasonix could not ask <who> about this; confirm it yourself": the one wording of an unheard ruling. */
export function unheardText(who: string): string {
  return `Reasonix could not ask ${who} about this; confirm it yourself`;
}

/** The points an event asks, in order (PreToolUse also asks permission.decision). */
export function pointsOf(event: string): HookPoint[] {
  const first = isAgentHookEvent(event) ? EVENT_POINTS[event] : undefined;
  if (!first) return [];
  return event === 'PreToolUse' ? [first, 'permission.decision'] : [first];
}
