// The agent-hook events the bridge knows (VS Code's "Hooks reference", the Claude Code format:
// snake_case input fields on stdin, one JSON answer on stdout) and how long each may take.
// Kept free of engine imports: the bundled bridge program loads this file on every hook run.

/** Events whose answer comes from the fast hook-point family (5 s budget). */
export const FAST_EVENTS = ['UserPromptSubmit', 'PreToolUse', 'PostToolUse'] as const;
/** Events VS Code 1.139 fires (its hook type table); only the first four reach Reasonix. */
export const AGENT_HOOK_EVENTS = [
  ...FAST_EVENTS,
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'ErrorOccurred',
] as const;
export type AgentHookEvent = (typeof AGENT_HOOK_EVENTS)[number];

/** The fast family's budget, as for `input.receive`/`tool.*`/`permission.decision`. */
export const FAST_BUDGET_MS = 5_000;
/** Every other family (`agent.before_start`). */
export const SLOW_BUDGET_MS = 30_000;

export function isAgentHookEvent(value: unknown): value is AgentHookEvent {
  return typeof value === 'string' && (AGENT_HOOK_EVENTS as readonly string[]).includes(value);
}

/** The whole budget of one hook run (spawn → answer), never exceeded by the bridge. */
export function budgetFor(event: string): number {
  return (FAST_EVENTS as readonly string[]).includes(event) ? FAST_BUDGET_MS : SLOW_BUDGET_MS;
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
