// `reasonix-host models` and `reasonix-host stream`: the extension-hosted models.
import { makeOut, optionLines, parseOrHelp, UsageError } from './args';
import { UnknownModelError } from '../host/streams';
import {
  openSession,
  PLUGINS_HELP,
  PLUGINS_OPTION,
  pluginsOf,
  SESSION_OPTIONS,
  VERBOSE_HELP,
  WORKSPACE_HELP,
} from './sessionOptions';
import { term, termKeepLines } from './terminal';

export const MODELS_OPTIONS = { ...PLUGINS_OPTION, ...SESSION_OPTIONS } as const;

export const MODELS_HELP = `Usage: reasonix-host models --plugin DIR [--plugin DIR...] [--json]

Starts the plugins, asks each for its provider catalog, prints the models (refs of the form
plugin/<plugin>/<provider>/<model>), and stops them.

${optionLines([PLUGINS_HELP, WORKSPACE_HELP, ['--json', 'print {"models": [...]} instead of text'], VERBOSE_HELP])}`;

export const STREAM_OPTIONS = {
  plugin: { type: 'string' },
  model: { type: 'string' },
  prompt: { type: 'string' },
  ...SESSION_OPTIONS,
} as const;

export const STREAM_HELP = `Usage: reasonix-host stream --plugin DIR --model REF --prompt TEXT [--json]

Opens a provider stream on an extension-hosted model and prints its chunks in order, then
the terminal outcome. REF must be one a plugin declared at handshake (or its provider prefix);
any other ref ends failed with "unknown model" before anything is sent to a plugin. Ctrl+C cancels the stream (the sidecar gets stream/cancel).

${optionLines([
  ['--plugin DIR', 'the plugin folder'],
  ['--model REF', 'the model ref, as `reasonix-host models` lists it'],
  ['--prompt TEXT', 'the user message the request carries'],
  WORKSPACE_HELP,
  ['--json', 'print one JSON object per chunk, then one for the end'],
  VERBOSE_HELP,
])}

Exit status: 0 completed, 1 failed or interrupted, 2 usage error.`;

export async function modelsCommand(argv: string[]): Promise<number> {
  const parsed = parseOrHelp(argv, MODELS_OPTIONS, MODELS_HELP);
  if (!parsed) return 0;
  const { values } = parsed;
  const plugins = pluginsOf(values);
  if (!plugins.length) throw new UsageError('models needs at least one --plugin DIR');
  const s = await openSession(values, plugins);
  try {
    await s.engine.start();
    const models = await s.engine.models();
    const out = makeOut(values.json === true);
    if (out.json) out.object({ models });
    else if (!models.length) out.line('no extension-hosted models');
    else for (const m of models) out.line(`${term(m.ref)}${m.label ? `  ${term(m.label)}` : ''}`);
    return 0;
  } finally {
    await s.dispose();
  }
}

export async function streamCommand(argv: string[]): Promise<number> {
  const parsed = parseOrHelp(argv, STREAM_OPTIONS, STREAM_HELP);
  if (!parsed) return 0;
  const { values } = parsed;
  if (!values.plugin || !values.model || values.prompt === undefined)
    throw new UsageError('stream needs --plugin DIR, --model REF and --prompt TEXT');
  const s = await openSession(values, [String(values.plugin)]);
  const out = makeOut(values.json === true);
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once('SIGINT', onSigint);
  try {
    await s.engine.start();
    let stream;
    try {
      stream = await s.engine.openStream(
        String(values.model),
        { messages: [{ role: 'user', content: String(values.prompt) }], tools: [], maxTokens: 1024 },
        { signal: abort.signal },
      );
    } catch (err) {
      // A ref no plugin declared is refused before anything is sent: the same end shape, failed.
      if (!(err instanceof UnknownModelError)) throw err;
      if (out.json) out.object({ type: 'end', kind: 'failed', reason: err.reason, message: err.message });
      else out.line(`[failed: ${err.message}]`);
      return 1;
    }
    for await (const chunk of stream) {
      if (out.json) out.object({ type: 'chunk', chunk });
      else {
        const c = chunk as { type: string; text?: string };
        if (c.type === 'text' && c.text !== undefined) process.stdout.write(termKeepLines(c.text));
      }
    }
    const outcome = await stream.outcome;
    if (out.json) out.object({ type: 'end', ...outcome });
    else out.line(`\n[${outcome.kind}${outcome.message ? `: ${term(outcome.message)}` : ''}]`);
    return outcome.kind === 'completed' ? 0 : 1;
  } finally {
    process.off('SIGINT', onSigint);
    await s.dispose();
  }
}
