// `reasonix-host fire <event>`: dispatch one hook point exactly as the host would.
import { INTERCEPT_EVENTS } from '../protocol';
import { jsonOption, makeOut, optionLines, parseOrHelp, UsageError } from './args';
import {
  openSession,
  PLUGINS_HELP,
  PLUGINS_OPTION,
  pluginsOf,
  SESSION_OPTIONS,
  VERBOSE_HELP,
  WORKSPACE_HELP,
} from './sessionOptions';
import { jsonLine, term } from './terminal';

export const FIRE_OPTIONS = {
  payload: { type: 'string' },
  ...PLUGINS_OPTION,
  'known-tool': { type: 'string', multiple: true },
  ...SESSION_OPTIONS,
} as const;

export const FIRE_HELP = `Usage: reasonix-host fire <event> --payload JSON --plugin DIR [--plugin DIR...] [--workspace DIR] [--json]

Starts the plugins, dispatches one hook point exactly as the host would (the interceptor
chain, the slot owner, observation events), prints the outcome, and stops the plugins.

${optionLines([
  ['<event>', `one of: ${INTERCEPT_EVENTS.join(', ')}`],
  ['--payload JSON', `the hook payload, e.g. '{"name":"echo","arguments":"{}"}' for tool.before`],
  PLUGINS_HELP,
  [
    '--known-tool NAME',
    'a tool the agent knows (repeatable); with any given, a tool.before\nreplacement naming another tool fails the call (contract violation)',
  ],
  WORKSPACE_HELP,
  ['--json', 'print the outcome object as JSON'],
  VERBOSE_HELP,
])}

Exit status: 0 dispatched (whatever the decision), 1 the operation failed, 2 usage error.`;

export async function fireCommand(argv: string[]): Promise<number> {
  const args = parseOrHelp(argv, FIRE_OPTIONS, FIRE_HELP);
  if (!args) return 0;
  const { values, positionals } = args;
  const [event] = positionals;
  if (positionals.length !== 1 || !(INTERCEPT_EVENTS as readonly string[]).includes(event)) {
    throw new UsageError(`fire takes one hook point: ${INTERCEPT_EVENTS.join(', ')}`);
  }
  const plugins = pluginsOf(values);
  if (!plugins.length) throw new UsageError('fire needs at least one --plugin DIR');
  if (values.payload === undefined) throw new UsageError('fire needs --payload JSON');
  const payload = jsonOption<unknown>(values.payload, 'payload');
  const session = await openSession(values, plugins);
  const out = makeOut(values.json === true);
  try {
    await session.engine.start();
    const knownTools = values['known-tool'] as string[] | undefined;
    const outcome = await session.engine.dispatch(event, payload, knownTools ? { knownTools } : {});
    if (out.json) out.object(outcome);
    else {
      out.line(`${event}: ${outcome.decision}${outcome.reason ? ` — ${term(outcome.reason)}` : ''}`);
      if (outcome.changedBy.length) out.line(`  changed by: ${outcome.changedBy.map(term).join(', ')}`);
      out.line(`  payload: ${jsonLine(outcome.payload)}`);
      for (const w of outcome.warnings) out.line(`  warning: ${term(w)}`);
    }
    return outcome.decision === 'failed' ? 1 : 0;
  } finally {
    await session.dispose();
  }
}
