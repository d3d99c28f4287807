// `reasonix-host fire <event>`: dispatch one hook point exactly as the host would.
import { resolve } from 'node:path';
import { INTERCEPT_EVENTS } from '../protocol';
import { jsonOption, makeOut, parse, UsageError } from './args';
import { openHeadlessSession, stderrLogger } from './headless';
import { loadPlugins } from './loadPlugin';
import { jsonLine, term } from './terminal';

export const FIRE_HELP = `Usage: reasonix-host fire <event> --payload JSON --plugin DIR [--plugin DIR...] [--workspace DIR] [--json]

Starts the plugins, dispatches one hook point exactly as the host would (the interceptor
chain, the slot owner, observation events), prints the outcome, and stops the plugins.

  <event>           one of: ${INTERCEPT_EVENTS.join(', ')}
  --payload JSON    the hook payload, e.g. '{"name":"echo","arguments":"{}"}' for tool.before
  --plugin DIR      a plugin folder (repeatable)
  --known-tool NAME a tool the agent knows (repeatable); with any given, a tool.before
                    replacement naming another tool fails the call (contract violation)
  --json            print the outcome object as JSON

Exit status: 0 dispatched (whatever the decision), 1 the operation failed, 2 usage error.`;

export async function fireCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    payload: { type: 'string' },
    plugin: { type: 'string', multiple: true },
    'known-tool': { type: 'string', multiple: true },
    workspace: { type: 'string' },
    json: { type: 'boolean' },
    verbose: { type: 'boolean' },
  });
  if (values.help) {
    console.log(FIRE_HELP);
    return 0;
  }
  const [event] = positionals;
  if (positionals.length !== 1 || !(INTERCEPT_EVENTS as readonly string[]).includes(event)) {
    throw new UsageError(`fire takes one hook point: ${INTERCEPT_EVENTS.join(', ')}`);
  }
  const plugins = (values.plugin as string[] | undefined) ?? [];
  if (!plugins.length) throw new UsageError('fire needs at least one --plugin DIR');
  if (values.payload === undefined) throw new UsageError('fire needs --payload JSON');
  const payload = jsonOption<unknown>(values.payload, 'payload');
  await loadPlugins(plugins);
  const out = makeOut(values.json === true);
  const session = openHeadlessSession({
    pluginDirs: plugins,
    workspace: resolve(String(values.workspace ?? process.cwd())),
    logger: stderrLogger(values.verbose === true),
    frontEnd: { notify: () => {}, prompt: async () => ({ cancelled: true }) },
  });
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
