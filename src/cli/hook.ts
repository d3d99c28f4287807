// `reasonix-host hook <Event>`: the agent-hooks bridge for agents outside VS Code that read
// Claude-Code-style hooks. Without --headless it asks the VS Code window serving `cwd` exactly as
// the contributed agent plugin does; with --headless it starts the plugins for this one event.
import { resolve } from 'node:path';
import { hooksDirs, MAX_REQUEST_BYTES } from '../host/endpoint';
import { AGENT_HOOK_EVENTS, answerHookEvent, budgetFor, parseHookInput, resolveEvent, runBridge } from '../host/hooks';
import { optionLines, parseOrHelp, type Parsed } from './args';
import { openHeadlessSession, stderrLogger } from './headless';
import { homeUnless, NO_FRONT_END, PLUGINS_OPTION, pluginsOf, SESSION_OPTIONS, VERBOSE_HELP } from './sessionOptions';

export const HOOK_OPTIONS = {
  ...PLUGINS_OPTION,
  headless: { type: 'boolean' },
  verbose: SESSION_OPTIONS.verbose,
} as const;

export const HOOK_HELP = `Usage: reasonix-host hook <Event> [--headless [--plugin DIR]...] [--verbose]

The agent-hooks bridge: reads one hook input (JSON) on stdin, prints the answer (JSON) on stdout.
Use it as the command of a Claude-Code-style hook, e.g. in .claude/settings.json:
  {"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"reasonix-host hook PreToolUse"}]}]}}

${optionLines([
  [
    '<Event>',
    `${AGENT_HOOK_EVENTS.join(', ')}\n(UserPromptSubmit, PreToolUse, PostToolUse and SessionStart reach Reasonix)`,
  ],
  [
    '--headless',
    'do not ask a VS Code window: start the installed plugins (the Reasonix home)\nor the --plugin folders, answer this one event, stop them (costs a start-up)',
  ],
  ['--plugin DIR', 'a plugin folder for --headless (repeatable)'],
  VERBOSE_HELP,
])}

Without --headless the window whose workspace folder holds the input's cwd answers; no window,
no session or no interceptor prints nothing (no decision). Only the answer goes to stdout.
Exit status: always 0 (a hook's exit status 2 would block the agent), 1 for usage errors.`;

function readStdin(): Promise<string> {
  return new Promise((resolveText, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    process.stdin.on('data', (d: Buffer) => {
      size += d.length;
      if (size > MAX_REQUEST_BYTES) reject(new Error(`stdin is larger than ${MAX_REQUEST_BYTES} bytes`));
      else chunks.push(d);
    });
    process.stdin.on('end', () => resolveText(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', reject);
  });
}

function note(text: string): void {
  process.stderr.write(`reasonix-host hook: ${text}\n`);
}

export async function hookCommand(argv: string[]): Promise<number> {
  // The agent's clock started at spawn: the runtime's own start-up counts against the budget.
  const startedAt = Date.now() - Math.round(process.uptime() * 1000);
  let line: Parsed | undefined;
  try {
    line = parseOrHelp(argv, HOOK_OPTIONS, HOOK_HELP);
  } catch (err) {
    note(`${(err as Error).message} (see --help)`);
    return 1;
  }
  if (!line) return 0;
  const { values, positionals } = line;
  const plugins = pluginsOf(values);
  if (positionals.length > 1) {
    note('hook takes one event name (see --help)');
    return 1;
  }
  if (plugins.length && !values.headless) {
    note('--plugin needs --headless (without it the VS Code window answers with its own plugins)');
    return 1;
  }
  let text: string | { problem: string };
  try {
    text = await readStdin();
  } catch (err) {
    text = { problem: (err as Error).message };
  }
  if (!values.headless) {
    const r = await runBridge(positionals[0], text, { dirs: hooksDirs(), startedAt, fallbackCwd: process.cwd() });
    r.notes.forEach(note);
    if (r.stdout) process.stdout.write(r.stdout);
    return 0;
  }
  // Headless has no window to have recorded who takes part: an unreadable input answers nothing.
  const parsed = typeof text === 'string' ? parseHookInput(text) : { ok: false as const, message: text.problem };
  if (!parsed.ok) {
    note(`${parsed.message}; no decision`);
    return 0;
  }
  const event = resolveEvent(positionals[0], parsed.input);
  if (!event) {
    note(`unknown hook event "${positionals[0] ?? ''}"; no decision`);
    return 0;
  }
  const cwd = resolve(typeof parsed.input.cwd === 'string' && parsed.input.cwd ? parsed.input.cwd : process.cwd());
  return headless(event, parsed.input, cwd, plugins, startedAt, values.verbose === true);
}

/** Time kept back, of the event's budget, for stopping the plugins and writing the answer. */
const STOP_MARGIN_MS = 1_000;

/**
 * Starts the plugins for this one event, answers it and stops them, all within the event's
 * budget (start-up included): what did not start in time counts as not running (a required one
 * refuses, an optional one is reported). A signal stops the plugins before exiting, and the
 * process watchdog kills them should this process be killed outright (issue 28 item 5).
 */
async function headless(
  event: string,
  input: Record<string, unknown>,
  cwd: string,
  plugins: string[],
  startedAt: number,
  verbose: boolean,
): Promise<number> {
  const deadlineAt = startedAt + budgetFor(event) - STOP_MARGIN_MS;
  const session = openHeadlessSession({
    pluginDirs: plugins,
    workspace: cwd,
    home: homeUnless(plugins),
    logger: stderrLogger(verbose),
    verbose,
    frontEnd: NO_FRONT_END,
    startupBudgetMs: Math.max(1, deadlineAt - Date.now()),
  });
  const onSignal = (signal: NodeJS.Signals) => {
    note(`${signal}: stopping the plugins; no decision`);
    void session.dispose().finally(() => process.exit(0));
  };
  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];
  for (const s of signals) process.once(s, onSignal);
  try {
    // A required plugin that fails to start fails the start; the mapping then refuses for it.
    const started = session.engine.start().then(
      () => true,
      (err: Error) => {
        note(`plugins did not all start: ${err.message}`);
        return true;
      },
    );
    const inTime = await Promise.race([started, sleep(Math.max(0, deadlineAt - Date.now())).then(() => false)]);
    if (!inTime) note(`the plugins did not start within the ${budgetFor(event)} ms budget of ${event}`);
    const r = await answerHookEvent(event, input, session.engine, { deadlineAt });
    if (r.record.note) note(`${r.record.note}; no decision`);
    if (r.answer) process.stdout.write(JSON.stringify(r.answer) + '\n');
    return 0;
  } finally {
    for (const s of signals) process.off(s, onSignal);
    await session.dispose();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}
