// The bridge an agent hook runs: hook input on stdin → the window whose folder holds `cwd` →
// one request on its endpoint → the answer on stdout. Every failure (bad input, no window, the
// endpoint gone, too slow, an input it cannot read) answers nothing and says why on stderr —
// unless the window recorded an extension for what the event is about: then the bridge refuses it
// for a required one (fails closed) and asks the user for an optional one. The
// exit status is always 0, because a hook's exit status 2 would block the agent. Shared by
// dist/hook.js and the CLI.
import {
  budgetFor,
  eventOf,
  isAgentHookEvent,
  pointsOf,
  refusalAnswer,
  unheardAnswer,
  unheardText,
  type HookInput,
} from './events';
import { askEndpoint, locateWindow, type WindowRecord } from '../endpoint';
import { requestLine } from './request';

export interface BridgeOptions {
  /** The per-user hooks directories to look in (hooksDirs()). */
  dirs: readonly string[];
  /** When the hook process started (epoch ms): the budget counts from there. */
  startedAt: number;
  /** The working directory to use when the input has no `cwd`. */
  fallbackCwd: string;
}

export interface BridgeResult {
  /** Exactly what goes to stdout: one JSON object and a newline, or nothing. */
  stdout: string;
  /** Lines for stderr. */
  notes: string[];
}

/** Time kept back for writing the answer and exiting. */
const EXIT_MARGIN_MS = 150;

export function parseHookInput(text: string): { ok: true; input: HookInput } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `stdin is not JSON (${(err as Error).message})` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, message: 'stdin is not a JSON object' };
  return { ok: true, input: value as HookInput };
}

/** Resolves the event name: the command line's, else the input's own `hook_event_name`. */
export function resolveEvent(argEvent: string | undefined, input: HookInput): string | undefined {
  const name = argEvent || eventOf(input);
  return isAgentHookEvent(name) ? name : undefined;
}

/** Stdin as the bridge read it: its text, or why it could not be read whole (too large, never closed). */
export type BridgeStdin = string | { problem: string };

/**
 * The request line carries the input as the text it arrived in, on one line: in JSON text a raw CR
 * or LF can only be whitespace between tokens (inside a string they must be escaped), so each
 * becomes a space and the input means the same (pretty-printed JSON, CRLF, `echo '{…}' |`).
 */
export function oneLine(jsonText: string): string {
  return jsonText.includes('\n') || jsonText.includes('\r') ? jsonText.replace(/[\r\n]/g, ' ') : jsonText;
}

export async function runBridge(
  argEvent: string | undefined,
  stdin: BridgeStdin,
  opts: BridgeOptions,
): Promise<BridgeResult> {
  const notes: string[] = [];
  const nothing = (note: string): BridgeResult => ({ stdout: '', notes: [...notes, note] });
  const parsed = typeof stdin === 'string' ? parseHookInput(stdin) : { ok: false as const, message: stdin.problem };
  const input = parsed.ok ? parsed.input : undefined;
  const event = resolveEvent(argEvent, input ?? {});
  if (!event) {
    if (!parsed.ok) return nothing(`${parsed.message}; no decision`);
    return nothing(`unknown hook event "${argEvent ?? eventOf(parsed.input) ?? ''}"; no decision`);
  }
  // An input that cannot be read is still asked about where the agent runs (its working directory).
  const cwd = typeof input?.cwd === 'string' && input.cwd ? input.cwd : opts.fallbackCwd;
  const hit = locateWindow(opts.dirs, cwd, notes);
  if (!hit)
    return nothing(
      `${parsed.ok ? '' : `${parsed.message}; `}no VS Code window with Reasonix serves ${cwd}; no decision`,
    );
  const { record: window, folder, unreachable } = hit;
  // A window that cannot be asked answers for the extensions it recorded: the required ones refuse,
  // the optional ones are unheard (ask before a tool, else a system message); nobody: no decision.
  const cannotAsk = (why: string): BridgeResult => {
    const members = (of: WindowRecord['required']) => [
      ...new Set(pointsOf(event).flatMap((p) => of?.[folder]?.[p] ?? [])),
    ];
    const required = members(window.required);
    const optional = members(window.optional);
    const ids = (list: string[]) => list.map((id) => `"${id}"`).join(', ');
    if (required.length) {
      const text = `Reasonix extension ${ids(required)} is required but the VS Code window could not be asked (${why}); refused until it can`;
      const answer = refusalAnswer(event, text);
      return { stdout: answer ? JSON.stringify(answer) + '\n' : '', notes: [...notes, text] };
    }
    if (optional.length) {
      const text = unheardText(`${ids(optional)} (the VS Code window could not be asked: ${why})`);
      return { stdout: JSON.stringify(unheardAnswer(event, text)) + '\n', notes: [...notes, text] };
    }
    return nothing(`the Reasonix window (pid ${window.pid}) ${why}; no decision`);
  };
  if (!parsed.ok) return cannotAsk(`its hook input could not be read: ${parsed.message}`);
  if (unreachable) return cannotAsk(`cannot be reached: ${unreachable}`);
  const budgetMs = opts.startedAt + budgetFor(event) - EXIT_MARGIN_MS - Date.now();
  if (budgetMs <= 0) return cannotAsk('was not asked: the hook budget ran out before the request');
  try {
    const reply = await askEndpoint(
      window.endpoint,
      requestLine({ token: window.token, event, inputText: oneLine(stdin as string), budgetMs }),
      budgetMs,
    );
    if (reply.answer) return { stdout: JSON.stringify(reply.answer) + '\n', notes };
    if (reply.unasked) return cannotAsk(`refused the request: ${reply.note ?? 'no reason given'}`);
    if (reply.note) notes.push(`${reply.note}; no decision`);
    return { stdout: '', notes };
  } catch (err) {
    return cannotAsk(`did not answer: ${(err as Error).message}`);
  }
}
