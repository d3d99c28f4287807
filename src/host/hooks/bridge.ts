// The bridge an agent hook runs: hook input on stdin → the window whose folder holds `cwd` →
// one request on its endpoint → the answer on stdout. Every failure (bad input, no window, the
// endpoint gone, too slow) answers nothing and says why on stderr; the exit status is always 0,
// because a hook's exit status 2 would block the agent. Shared by dist/hook.js and the CLI.
import { budgetFor, eventOf, isAgentHookEvent, type HookInput } from './events';
import { askEndpoint, privacyProblem, PROTOCOL_VERSION } from './endpoint';
import { listWindows, pickWindow } from './registry';

export interface BridgeOptions {
  /** The per-user hooks directory (hooksDir()). */
  dir: string;
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

export async function runBridge(
  argEvent: string | undefined,
  stdinText: string,
  opts: BridgeOptions,
): Promise<BridgeResult> {
  const notes: string[] = [];
  const nothing = (note: string): BridgeResult => ({ stdout: '', notes: [...notes, note] });
  const parsed = parseHookInput(stdinText);
  if (!parsed.ok) return nothing(`${parsed.message}; no decision`);
  const event = resolveEvent(argEvent, parsed.input);
  if (!event) return nothing(`unknown hook event "${argEvent ?? eventOf(parsed.input) ?? ''}"; no decision`);
  const cwd = typeof parsed.input.cwd === 'string' && parsed.input.cwd ? parsed.input.cwd : opts.fallbackCwd;
  const problem = privacyProblem(opts.dir);
  if (problem) return nothing(`no VS Code window with Reasonix is reachable (${problem}); no decision`);
  const window = pickWindow(listWindows(opts.dir), cwd);
  if (!window) return nothing(`no VS Code window with Reasonix serves ${cwd}; no decision`);
  const budgetMs = opts.startedAt + budgetFor(event) - EXIT_MARGIN_MS - Date.now();
  try {
    const reply = await askEndpoint(
      window.endpoint,
      { v: PROTOCOL_VERSION, token: window.token, event, input: parsed.input, budgetMs },
      budgetMs,
    );
    if (reply.note) notes.push(`${reply.note}; no decision`);
    if (!reply.answer) return { stdout: '', notes };
    return { stdout: JSON.stringify(reply.answer) + '\n', notes };
  } catch (err) {
    return nothing(`the Reasonix window (pid ${window.pid}) did not answer: ${(err as Error).message}; no decision`);
  }
}
