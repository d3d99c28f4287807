// `reasonix-host run <pluginDir>…`: a headless host that keeps plugins running, prints what they
// publish, answers prompts from --answers, forwards file changes, and stops cleanly.
import { watch } from 'node:fs';
import { resolve } from 'node:path';
import { GenerationError } from '../host/generations';
import { ChangeBatcher } from '../host/resources';
import type { SessionEngine, UiFrontEnd } from '../host/session';
import type { SurfaceStore } from '../host/ui';
import { viewText, type PromptAnswer, type PromptRequest, type Surface } from '../protocol';
import { intOption, jsonOption, makeOut, optionLines, parseOrHelp, UsageError, type Parsed, type Values } from './args';
import type { HeadlessSession } from './headless';
import { RunOutput, RunStop } from './runStop';
import { openSession, SESSION_OPTIONS, VERBOSE_HELP, WORKSPACE_HELP } from './sessionOptions';
import { term, termBlock } from './terminal';

export const RUN_OPTIONS = {
  ...SESSION_OPTIONS,
  for: { type: 'string' },
  answers: { type: 'string' },
  action: { type: 'string' },
  args: { type: 'string' },
} as const;

export const RUN_HELP = `Usage: reasonix-host run <pluginDir>... [--workspace DIR] [--json] [--for SECONDS]
                         [--answers JSON] [--action /<plugin>:<action> [--args JSON]] [--verbose]

Keeps the plugins running as the VS Code extension would (one session, uiHost "desktop"),
prints every published surface and notification, forwards file changes under the workspace
as extension/resources/changed, and stops cleanly on Ctrl+C, SIGTERM, SIGHUP or after --for.
A second Ctrl+C (or SIGTERM/SIGHUP) while stopping kills every extension's process group at once.

${optionLines(
  [
    WORKSPACE_HELP,
    ['--json', 'print one JSON object per line for every event'],
    ['--for SECONDS', 'stop after this many seconds'],
    [
      '--answers JSON',
      `answers to host/ui/request prompts, by field key, e.g. '{"value":"dark"}';\nwithout it every prompt is printed and answered cancelled`,
    ],
    ['--action NAME', 'invoke /<plugin>:<action> once the plugins are ready'],
    ['--args JSON', `string arguments for --action, e.g. '{"mode":"fast"}'`],
    VERBOSE_HELP,
  ],
  22,
)}

Exit status: 0 stopped cleanly (a plugin that is only Inactive, for want of a capability it
requires, is no failure); 1 a plugin failed to start, crashed while running, or the action
failed; 128+N when a second signal N forced the stop; 2 usage error.`;

function describe(surface: Surface): string {
  // Every sidecar string goes through term(): one span, never a control sequence or a new line.
  const where = `/${term(surface.pluginId)} ${surface.kind} ${term(surface.surfaceId)}`;
  switch (surface.kind) {
    case 'status':
      return `${where}: ${term(surface.payload.label)}${surface.payload.detail ? ` — ${term(surface.payload.detail)}` : ''}${surface.payload.progress !== undefined ? ` (${Math.round(surface.payload.progress * 100)}%)` : ''}`;
    case 'card':
      return `${where}: ${term(surface.payload.title ?? '')}${surface.payload.text ? ` — ${term(surface.payload.text)}` : ''}${surface.payload.markdown ? `\n${termBlock(surface.payload.markdown, '    ')}` : ''}${(surface.payload.fields ?? []).map((f) => `\n    ${term(f.key)}: ${term(typeof f.value === 'string' ? f.value : JSON.stringify(f.value))}`).join('')}`;
    case 'form':
      return `${where}: ${term(surface.payload.title ?? '')} [${surface.payload.fields.map((f) => `${term(f.key)}:${f.kind}`).join(', ')}]`;
    case 'notification':
      return `${where}: ${term(surface.payload.title)}${surface.payload.body ? ` — ${term(surface.payload.body)}` : ''}`;
    case 'panel': {
      const p = surface.payload;
      const progress = p.progress !== undefined ? ` (${Math.round(p.progress * 100)}%)` : '';
      const fields = (p.fields ?? []).map((f) => `\n    ${term(f.key)}: ${term(f.value ?? '')}`).join('');
      const actions = (p.actions ?? []).map((a) => `[${term(a.label)}]`).join(' ');
      return `${where}: ${term(p.title ?? '')}${p.text ? ` — ${term(p.text)}` : ''}${progress}${fields}${actions ? `\n    ${actions}` : ''}`;
    }
    case 'view': {
      const place = surface.payload.slot
        ? ` slot ${term(surface.payload.slot)}`
        : surface.payload.anchor
          ? ` ${term(surface.payload.anchor)}`
          : '';
      return `${where}${place}:${viewText(surface.payload.body)
        .map((l) => `\n    ${term(l)}`)
        .join('')}`;
    }
  }
}

/**
 * Answers a prompt from --answers by field key. A prompt without fields is keyed `value`; a
 * prompt with exactly one field also takes `value`, so '{"value":…}' answers any simple prompt.
 */
export function answerFrom(answers: Record<string, unknown> | undefined, req: PromptRequest): PromptAnswer {
  if (!answers) return { cancelled: true };
  const fields = req.payload.fields ?? [];
  const keys = fields.length ? fields.map((f) => f.key) : ['value'];
  const values: Record<string, boolean | string | string[]> = {};
  for (const key of keys) {
    const v = key in answers || keys.length !== 1 ? answers[key] : answers.value;
    if (typeof v === 'boolean' || typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string')))
      values[key] = v as boolean | string | string[];
  }
  return Object.keys(values).length ? { cancelled: false, values } : { cancelled: true };
}

/** A checked --action: `/<plugin>:<action>`, with its --args. */
interface RunAction {
  name: string;
  pluginId: string;
  actionId: string;
  args: Record<string, string> | undefined;
}

/** What the command line asks of `run` besides the session, checked before anything starts. */
function runSettings({ values, positionals }: Parsed) {
  if (!positionals.length) throw new UsageError('run takes at least one plugin folder');
  const seconds = intOption(values.for, 'for', 0);
  const answers = jsonOption<Record<string, unknown>>(values.answers, 'answers');
  const actionArgs = jsonOption<Record<string, string>>(values.args, 'args');
  return { seconds, answers, action: actionOf(values.action, actionArgs) };
}

function actionOf(name: Values[string], args: Record<string, string> | undefined): RunAction | undefined {
  if (name === undefined) return undefined;
  const match = /^\/([^:]+):([a-z0-9-]+)$/.exec(String(name));
  if (!match) throw new UsageError('--action must look like /<plugin>:<action>');
  return { name: String(name), pluginId: match[1], actionId: match[2], args };
}

/** Notifications and prompts, printed as they come; prompts answered from --answers. */
function printingFrontEnd(output: RunOutput, answers: Record<string, unknown> | undefined): UiFrontEnd {
  return {
    notify: (n) =>
      output.say(
        { type: 'notification', pluginId: n.pluginId, surfaceId: n.surfaceId, payload: n.payload },
        `notification ${describe(n)}`,
      ),
    prompt: async (req) => {
      const answer = answerFrom(answers, req);
      output.say(
        {
          type: 'prompt',
          pluginId: req.pluginId,
          surfaceId: req.surfaceId,
          kind: req.kind,
          payload: req.payload,
          answer,
        },
        `prompt /${term(req.pluginId)} ${req.kind} ${term(req.payload.message ?? req.payload.title ?? '')} → ${JSON.stringify(answer)}`,
      );
      return answer;
    },
  };
}

/** Every surface published or changed, but notifications (the front end prints those). */
function printSurfaces(store: SurfaceStore, output: RunOutput): void {
  store.onDidChange((change) => {
    if (change.type === 'upsert' && change.surface.kind !== 'notification') {
      output.say(
        {
          type: 'surface',
          pluginId: change.surface.pluginId,
          surfaceId: change.surface.surfaceId,
          kind: change.surface.kind,
          payload: change.surface.payload,
          stale: change.surface.stale,
        },
        `surface ${describe(change.surface)}`,
      );
    }
  });
}

/** File changes under the workspace, batched and sent to the sidecars as extension/resources/changed. */
function forwardFileChanges(session: HeadlessSession, output: RunOutput): { close(): void } {
  const workspace = session.workspace;
  const batcher = new ChangeBatcher({
    root: workspace,
    send: (paths) => {
      const n = session.engine.notifyResourcesChanged(paths);
      output.say(
        { type: 'resources', paths: paths.length, sidecars: n },
        `forwarded ${paths.length} changed path(s) to ${n} sidecar(s)`,
      );
    },
  });
  let watcher: ReturnType<typeof watch> | undefined;
  try {
    watcher = watch(workspace, { recursive: true }, (_e, file) => {
      if (file) batcher.add(resolve(workspace, file.toString()));
    });
  } catch (err) {
    process.stderr.write(`reasonix-host: file changes are not forwarded: ${(err as Error).message}\n`);
  }
  return {
    close: () => {
      watcher?.close();
      batcher.dispose();
    },
  };
}

/** The `--json` line for a session that could not start: what failed, why, and each plugin's failure. */
function startFailure(err: Error): Record<string, unknown> {
  const g = err instanceof GenerationError ? err : undefined;
  return {
    type: 'start-failed',
    message: err.message,
    kind: g?.kind ?? null,
    reason: g?.reason ?? null,
    pluginId: g?.pluginId ?? null,
    failures: g?.failures ?? [],
  };
}

/** Each plugin once the session has started: its state, its pid, and why it failed or is inactive. */
function printPlugins(engine: SessionEngine, output: RunOutput): void {
  for (const p of engine.plugins()) {
    output.say(
      {
        type: 'plugin',
        pluginId: p.pluginId,
        state: p.state,
        pid: p.pid ?? null,
        actions: p.actions.map((a) => a.actionId),
        failure: p.lastFailure ?? null,
        ...(p.inactive ? { inactive: p.inactive } : {}),
      },
      `plugin ${term(p.pluginId)}: ${p.state}${p.pid ? ` (pid ${p.pid})` : ''}${p.lastFailure ? ` — ${term(p.lastFailure.message)}` : p.inactive && p.detail ? ` — ${term(p.detail)}` : ''}`,
    );
  }
}

/** A sidecar that crashes while running is printed and makes the run fail; one that exits while stopping is teardown. */
function watchCrashes(engine: SessionEngine, output: RunOutput): { crashed: boolean } {
  const seen = { crashed: false };
  engine.onCrash((info) => {
    if (output.stopping) return; // teardown, not news
    seen.crashed = true;
    output.say({ type: 'crash', ...info }, `crash ${term(info.pluginId)}: ${term(info.message)}`);
  });
  return seen;
}

/** Invokes --action once the plugins are ready and prints how it went: false when it was rejected or failed. */
async function invokeAction(engine: SessionEngine, action: RunAction, output: RunOutput): Promise<boolean> {
  try {
    const r = await engine.invokeAction(action.pluginId, action.actionId, action.args);
    output.say(
      { type: 'action', name: action.name, ...r },
      `action ${term(action.name)}: ${r.accepted ? 'accepted' : 'rejected'}${r.message ? ` — ${term(r.message)}` : ''}`,
    );
    return r.accepted;
  } catch (err) {
    output.say(
      { type: 'action', name: action.name, accepted: false, error: (err as Error).message },
      `action ${term(action.name)} failed: ${term((err as Error).message)}`,
    );
    return false;
  }
}

export async function runCommand(argv: string[]): Promise<number> {
  const parsed = parseOrHelp(argv, RUN_OPTIONS, RUN_HELP);
  if (!parsed) return 0;
  const { seconds, answers, action } = runSettings(parsed);
  const output = new RunOutput(makeOut(parsed.values.json === true));
  // Manifest problems end it here: one readable line, exit 1.
  const session = await openSession(parsed.values, parsed.positionals, { frontEnd: printingFrontEnd(output, answers) });
  printSurfaces(session.store, output);
  const run = new RunStop(session, output, forwardFileChanges(session, output));
  try {
    await session.engine.start();
  } catch (err) {
    if (!output.stopping) {
      process.stderr.write(`reasonix-host: ${term((err as Error).message)}\n`);
      // --json readers get the reason on stdout too, as a line of its own (issue 45 item 10).
      if (parsed.values.json === true) output.say(startFailure(err as Error), '');
    }
    run.stop('start failed');
    await run.finished;
    return run.interrupted ? 0 : 1; // a start cut short by Ctrl+C did not fail
  }
  printPlugins(session.engine, output);
  const crashes = watchCrashes(session.engine, output);
  run.rememberProcesses();
  // Inactive (a required capability nothing provides) is no error for the session (HOST_SPEC_V2
  // §11, V2-19): the plugin is printed with its reason, the run still succeeds (issue 45 item 5).
  const allRunning = session.engine.plugins().every((p) => p.state === 'running' || p.state === 'inactive');
  const acted = !action || output.stopping || (await invokeAction(session.engine, action, output));
  if (seconds !== undefined) setTimeout(() => run.stop(`--for ${seconds}`), seconds * 1000).unref();
  await run.finished;
  // Ctrl+C, SIGTERM or SIGHUP is how a user ends `run`: a clean stop is exit 0 unless something
  // failed, and a sidecar that crashed while running is a failure.
  return crashes.crashed || !allRunning || !acted ? 1 : 0;
}
