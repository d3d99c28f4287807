// `reasonix-host tools` and `reasonix-host tool`: the tools protocol v2 extensions serve
// (HOST_SPEC_V2 §12), listed and called through the same session engine the VS Code extension uses.
import type { ToolCallOutcome, ToolInfo } from '../host/session';
import { jsonOption, makeOut, optionLines, parseOrHelp, UsageError, type Out, type Values } from './args';
import type { HeadlessSession } from './headless';
import {
  openSession,
  PLUGINS_OPTION,
  PLUGINS_OR_HOME_HELP,
  pluginsOf,
  SESSION_OPTIONS,
  VERBOSE_HELP,
  WORKSPACE_HELP,
} from './sessionOptions';
import { jsonLine, term, termKeepLines } from './terminal';

/** The options of the commands over a folder's tools (tools, tool, mcp): without --plugin, the installed plugins. */
export const TOOL_SESSION_OPTIONS = { ...PLUGINS_OPTION, ...SESSION_OPTIONS } as const;

export const TOOLS_HELP = `Usage: reasonix-host tools [--plugin DIR]... [--workspace DIR] [--json] [--verbose]

Starts the plugins, lists the tools their running sidecars serve (declared in runtime.tools and
named at the handshake) and stops them: the model-facing name ext__<plugin>__<tool>, whether it
only reads, its description and input schema.

${optionLines([PLUGINS_OR_HOME_HELP, WORKSPACE_HELP, ['--json', 'print {"tools": [...]} instead of text'], VERBOSE_HELP])}

Exit status: 0 listed (also when there are none), 1 the plugins could not start, 2 usage error.`;

export const TOOL_HELP = `Usage: reasonix-host tool <plugin> <name> [--args JSON] [--plugin DIR]... [--workspace DIR] [--json] [--verbose]

Starts the plugins, calls one tool exactly as the host does for a model and stops them: the
folder's tool.before and permission.decision interceptors first (with the name ext__<plugin>__<name>;
a block or deny refuses the call, a replacement changes the arguments), then extension/tool/call
with a 5-minute budget, then tool.after over the result. Prints the result text (cut at 100,000
characters with a note), or why the call was refused or failed. Ctrl+C cancels the call.

${optionLines([
  ['<plugin> <name>', "the plugin id and the tool's own name (as `reasonix-host tools` lists them)"],
  ['--args JSON', "the tool's arguments, a JSON object (default {})"],
  PLUGINS_OR_HOME_HELP,
  WORKSPACE_HELP,
  ['--json', 'print the outcome as one JSON object ({"kind": "result" | "refused" | "failed", ...})'],
  VERBOSE_HELP,
])}

Exit status: 0 the tool answered, 1 it answered with isError, was refused or failed, 2 usage error.`;

/** The headless session over the named folders, or over the installed plugins when none is named. */
export function openToolSession(values: Values): Promise<HeadlessSession> {
  return openSession(values, pluginsOf(values), { orHome: true });
}

export const TOOL_OPTIONS = { ...TOOL_SESSION_OPTIONS, args: { type: 'string' } } as const;

export async function toolsCommand(argv: string[]): Promise<number> {
  const parsed = parseOrHelp(argv, TOOL_SESSION_OPTIONS, TOOLS_HELP);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  if (positionals.length) throw new UsageError('tools takes no positional arguments (use --plugin DIR)');
  const s = await openToolSession(values);
  try {
    await s.engine.start();
    const tools = s.engine.tools();
    const out = makeOut(values.json === true);
    if (out.json) out.object({ tools });
    else printTools(out, tools, s.engine.plugins().length);
    return 0;
  } finally {
    await s.dispose();
  }
}

function printTools(out: Out, tools: ToolInfo[], plugins: number): void {
  if (!tools.length) {
    out.line(`no extension tools (${plugins} plugin${plugins === 1 ? '' : 's'} found)`);
    return;
  }
  for (const t of tools) {
    out.line(`${term(t.modelName)}${t.readOnly ? '  (read-only)' : ''}`);
    out.line(`  ${term(t.description)}`);
    out.line(`  input: ${jsonLine(t.inputSchema)}`);
  }
}

export async function toolCommand(argv: string[]): Promise<number> {
  const parsed = parseOrHelp(argv, TOOL_OPTIONS, TOOL_HELP);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  if (positionals.length !== 2) throw new UsageError('tool takes a plugin id and a tool name (see --help)');
  const args = jsonOption<unknown>(values.args ?? '{}', 'args');
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw new UsageError('--args must be a JSON object, e.g. \'{"text":"a b"}\'');
  const [pluginId, name] = positionals;
  const s = await openToolSession(values);
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once('SIGINT', onSigint);
  try {
    await s.engine.start();
    const outcome = await s.engine.callTool({ pluginId, name }, args, { signal: abort.signal });
    printOutcome(makeOut(values.json === true), outcome);
    return outcome.kind === 'result' && !outcome.isError ? 0 : 1;
  } finally {
    process.off('SIGINT', onSigint);
    await s.dispose();
  }
}

/** What begins every line of a tool's result in text mode (issue 45 item 4). */
const RESULT_INDENT = '  ';

function printOutcome(out: Out, o: ToolCallOutcome): void {
  if (out.json) return out.object(o);
  switch (o.kind) {
    case 'result':
      // The result text is the content itself: its newlines stay, anything else that could drive
      // the terminal is shown visibly. Every line of it is indented by two spaces, so no result
      // can print a line the CLI writes itself (those begin at the margin with `[`).
      out.line(RESULT_INDENT + termKeepLines(o.content).replace(/\n/g, `\n${RESULT_INDENT}`));
      if (o.isError) out.line(`[error result: ${term(o.modelName)} reported a failure of its own]`);
      return;
    case 'refused':
      return out.line(`[refused at ${o.point}: ${term(o.message)}]`);
    case 'failed':
      return out.line(`[failed (${o.reason}${o.code === undefined ? '' : ` ${o.code}`}): ${term(o.message)}]`);
  }
}
