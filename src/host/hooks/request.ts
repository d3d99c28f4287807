// The `hook` kind of request on the window endpoint: what the bridge sends (the hook input spliced
// in as the text it arrived in) and what the window checks before it answers.
import { MAX_BUDGET_MS, requestLineOf, type EndpointReply, type EndpointRequest } from '../endpoint';
import type { HookInput } from './events';

/** An agent hook to answer (kind "hook"). */
export interface HookRequest extends EndpointRequest {
  kind: 'hook';
  event: string;
  input: HookInput;
  /** Milliseconds the bridge still waits; the window answers before then. */
  budgetMs: number;
}

/** The window's answer to a hook request. */
export type HookReply = EndpointReply;

/** Why `budgetMs` is not a usable wait, or undefined. */
export function budgetProblem(budgetMs: unknown): string | undefined {
  return typeof budgetMs === 'number' && Number.isFinite(budgetMs) && budgetMs > 0 && budgetMs <= MAX_BUDGET_MS
    ? undefined
    : `invalid budgetMs ${JSON.stringify(budgetMs) ?? String(budgetMs)}: must be a number of milliseconds in 1..${MAX_BUDGET_MS}`;
}

/** The hook kind's own check: a usable budget. */
export function hookRequestProblem(req: EndpointRequest): string | undefined {
  return typeof req.event === 'string' ? budgetProblem(req.budgetMs) : 'a hook request names no event';
}

/** What the bridge asks a window: the hook input travels as the text it arrived in. */
export interface BridgeRequest {
  token: string;
  event: string;
  /** The hook input as JSON text (read once from stdin, never re-serialised). */
  inputText: string;
  budgetMs: number;
}

/**
 * The request line, token first (the window checks it from the first bytes, before it buffers
 * or parses the rest); the input is spliced in as the text it arrived in.
 */
export function requestLine(req: BridgeRequest): string {
  return requestLineOf(
    req.token,
    `"kind":"hook","event":${JSON.stringify(req.event)},"budgetMs":${req.budgetMs},"input":${req.inputText}}`,
  );
}
