// `reasonix-host run <pluginDir>…`: a headless host that keeps plugins running, prints what they
// publish, answers prompts from --answers, forwards file changes, and stops cleanly.
import { spawnSync } from 'node:child_process';
import { watch } from 'node:fs';
import { resolve } from 'node:path';
import { windowsTreeKill } from '../host/plugins';
import { ChangeBatcher } from '../host/resources';
import { viewText, type PromptAnswer, type PromptRequest, type Surface } from '../protocol';
import { intOption, jsonOption, makeOut, parse, UsageError, type Out } from './args';
import { openHeadlessSession, stderrLogger } from './headless';
import { loadPlugins } from './loadPlugin';
import { term, termBlock } from './terminal';

export const RUN_HELP = `Usage: reasonix-host run <pluginDir>... [--workspace DIR] [--json] [--for SECONDS]
                         [--answers JSON] [--action /<plugin>:<action> [--args JSON]] [--verbose]

Keeps the plugins running as the VS Code extension would (one session, uiHost "desktop"),
prints every published surface and notification, forwards file changes under the workspace
as extension/resources/changed, and stops cleanly on Ctrl+C, SIGTERM, SIGHUP or after --for.
A second Ctrl+C (or SIGTERM/SIGHUP) while stopping kills every extension's process group at once.

  --workspace DIR     the session's workspace root (default: current directory)
  --json              print one JSON object per line for every event
  --for SECONDS       stop after this many seconds
  --answers JSON      answers to host/ui/request prompts, by field key, e.g. '{"value":"dark"}';
                      without it every prompt is printed and answered cancelled
  --action NAME       invoke /<plugin>:<action> once the plugins are ready
  --args JSON         string arguments for --action, e.g. '{"mode":"fast"}'
  --verbose           engine logs on stderr

Exit status: 0 stopped cleanly; 1 a plugin failed to start, crashed while running, or the
action failed; 128+N when a second signal N forced the stop; 2 usage error.`;

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

const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

/** SIGKILL to a sidecar's process group (it was spawned as a group leader), or its tree on Windows. */
function killGroup(pid: number): void {
  try {
    if (process.platform === 'win32') {
      const { command, args } = windowsTreeKill(pid);
      spawnSync(command, args, { windowsHide: true, stdio: 'ignore' });
    } else process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function emit(out: Out, event: Record<string, unknown>, text: string): void {
  if (out.json) out.object(event);
  else out.line(text);
}

export async function runCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    workspace: { type: 'string' },
    json: { type: 'boolean' },
    for: { type: 'string' },
    answers: { type: 'string' },
    action: { type: 'string' },
    args: { type: 'string' },
    verbose: { type: 'boolean' },
  });
  if (values.help) {
    console.log(RUN_HELP);
    return 0;
  }
  if (!positionals.length) throw new UsageError('run takes at least one plugin folder');
  const seconds = intOption(values.for, 'for', 0);
  const answers = jsonOption<Record<string, unknown>>(values.answers, 'answers');
  const actionArgs = jsonOption<Record<string, string>>(values.args, 'args');
  const action = values.action === undefined ? undefined : /^\/([^:]+):([a-z0-9-]+)$/.exec(String(values.action));
  if (values.action !== undefined && !action) throw new UsageError('--action must look like /<plugin>:<action>');
  const out = makeOut(values.json === true);
  let stopping = false;
  const say = (event: Record<string, unknown>, text: string) => {
    if (!stopping) emit(out, event, text);
  };
  const workspace = resolve(String(values.workspace ?? process.cwd()));
  await loadPlugins(positionals); // manifest problems: one readable line, exit 1

  const session = openHeadlessSession({
    pluginDirs: positionals,
    workspace,
    logger: stderrLogger(values.verbose === true),
    frontEnd: {
      notify: (n) =>
        say(
          { type: 'notification', pluginId: n.pluginId, surfaceId: n.surfaceId, payload: n.payload },
          `notification ${describe(n)}`,
        ),
      prompt: async (req) => {
        const answer = answerFrom(answers, req);
        say(
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
    },
  });
  session.store.onDidChange((change) => {
    if (change.type === 'upsert' && change.surface.kind !== 'notification') {
      say(
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

  let finish!: () => void;
  const finished = new Promise<void>((r) => (finish = r));
  let interrupted = false;
  const stop = (why: string) => {
    if (stopping) return;
    say({ type: 'stopping', why }, `stopping (${why})`);
    // Shutting down marks every surface stale and may crash-report sidecars that exit: that is
    // teardown, not news, so nothing but the final line is printed from here on.
    stopping = true;
    void (async () => {
      watcher?.close();
      batcher.dispose();
      await session.dispose();
      emit(out, { type: 'stopped' }, 'stopped');
      finish();
    })();
  };
  // First SIGINT/SIGTERM/SIGHUP: a clean stop. A second one while stopping: the user means it,
  // so every sidecar's process group is killed (grandchildren too) before the CLI exits; without
  // this the default handler would end the CLI and leave the sidecars running with ppid 1.
  const pids = new Set<number>();
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      for (const p of session.engine.plugins()) if (p.pid) pids.add(p.pid);
      for (const pid of pids) killGroup(pid);
      emit(
        out,
        { type: 'killed', why: `second ${signal}`, pids: [...pids] },
        `killed ${pids.size} extension process group(s) (second ${signal})`,
      );
      process.exit(128 + (SIGNAL_NUMBERS[signal] ?? 1));
    }
    interrupted = true;
    stop(signal);
  };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, onSignal);

  const batcher = new ChangeBatcher({
    root: workspace,
    send: (paths) => {
      const n = session.engine.notifyResourcesChanged(paths);
      say(
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

  try {
    await session.engine.start();
  } catch (err) {
    if (!stopping) process.stderr.write(`reasonix-host: ${term((err as Error).message)}\n`);
    stop('start failed');
    await finished;
    return interrupted ? 0 : 1; // a start cut short by Ctrl+C did not fail
  }
  for (const p of session.engine.plugins()) {
    say(
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
  let crashed = false;
  session.engine.onCrash((info) => {
    if (stopping) return; // teardown, not news
    crashed = true; // a sidecar that crashed while running makes the run fail
    say({ type: 'crash', ...info }, `crash ${term(info.pluginId)}: ${term(info.message)}`);
  });
  for (const p of session.engine.plugins()) if (p.pid) pids.add(p.pid);

  let status = session.engine.plugins().some((p) => p.state !== 'running') ? 1 : 0;
  if (action && !stopping) {
    try {
      const r = await session.engine.invokeAction(action[1], action[2], actionArgs);
      say(
        { type: 'action', name: values.action, ...r },
        `action ${term(values.action)}: ${r.accepted ? 'accepted' : 'rejected'}${r.message ? ` — ${term(r.message)}` : ''}`,
      );
      if (!r.accepted) status = 1;
    } catch (err) {
      say(
        { type: 'action', name: values.action, accepted: false, error: (err as Error).message },
        `action ${term(values.action)} failed: ${term((err as Error).message)}`,
      );
      status = 1;
    }
  }
  if (seconds !== undefined) setTimeout(() => stop(`--for ${seconds}`), seconds * 1000).unref();
  await finished;
  // Ctrl+C, SIGTERM or SIGHUP is how a user ends `run`: a clean stop is exit 0 unless something
  // failed, and a sidecar that crashed while running is a failure.
  return crashed ? 1 : status;
}
