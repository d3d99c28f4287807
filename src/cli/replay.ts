// `reasonix-host replay <pluginDir> <trace.ndjson>`: plays a protocol trace (Show Protocol Trace →
// Copy as NDJSON, src/host/trace) against the plugin's sidecar, for a bug report: the host's
// requests and notifications are written in their recorded order, each request waits for its
// answer, the sidecar's own requests are answered with the host's recorded answers, and every
// answer is compared with the recorded one.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { isDeepStrictEqual } from 'node:util';
import { installReaper, killTree, launch, resolveCommand } from '../host/sidecar';
import { redact } from '../host/redact';
import { traceFromNdjson, type TraceEntry } from '../host/trace';
import { intOption, makeOut, optionLines, parseOrHelp, UsageError } from './args';
import { loadPlugins } from './loadPlugin';
import { term } from './terminal';

export const REPLAY_OPTIONS = {
  timeout: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export const REPLAY_HELP = `Usage: reasonix-host replay <pluginDir> <trace.ndjson> [--timeout MS] [--json]

Replays a protocol trace (VS Code: Reasonix: Show Protocol Trace → Copy as NDJSON) against the
plugin's sidecar, started as the extension starts it (exec form, no shell, its own process group).
The host's requests and notifications are written in their recorded order; each request waits for
its answer; a request of the sidecar is answered with the host's recorded answer to the request of
the same id and method (else an internal error). Each answer is compared with the recorded one.
The trace is redacted: values the redaction replaced are sent as they were recorded.

${optionLines(
  [
    ['--timeout MS', 'bound for each answer (default 10000)'],
    ['--json', 'print one JSON object instead of text'],
  ],
  16,
)}

Exit status: 0 every request was answered as recorded, 1 an answer differed, was missing or the
sidecar failed, 2 usage error (or a file that is not a trace).`;

export interface ReplayStep {
  seq: number;
  method: string;
  id: string | number | null;
  outcome: 'same' | 'differs' | 'no answer' | 'sent';
  latencyMs?: number;
  recordedLatencyMs?: number;
  /** The answer now (redacted) when it differs from the recorded one. */
  answer?: unknown;
  recorded?: unknown;
}

export interface ReplayReport {
  ok: boolean;
  plugin: string;
  steps: ReplayStep[];
  /** Requests of the sidecar and how they were answered. */
  served: { method: string; id: unknown; answered: 'recorded' | 'not in the trace' }[];
  message: string;
}

type Json = Record<string, unknown>;

export async function runReplay(pluginDir: string, trace: TraceEntry[], timeoutMs = 10_000): Promise<ReplayReport> {
  const [spec] = await loadPlugins([pluginDir]);
  const cmd = resolveCommand(spec);
  if (!cmd.ok) throw new UsageError(`${spec.id}: ${cmd.message}`);
  installReaper();
  const child = launch(spec, cmd.command);
  child.stderr.resume();
  const report: ReplayReport = { ok: true, plugin: spec.id, steps: [], served: [], message: '' };
  const byId = new Map<string, TraceEntry>(); // in-answers by the out-request's id
  const hostAnswers = new Map<string, TraceEntry>(); // out-answers by the in-request's id
  const inRequests = new Map<string, TraceEntry>();
  for (const e of trace) {
    const key = String(e.id);
    if (e.dir === 'in' && (e.kind === 'response' || e.kind === 'error')) byId.set(key, e);
    if (e.dir === 'out' && (e.kind === 'response' || e.kind === 'error')) hostAnswers.set(key, e);
    if (e.dir === 'in' && e.kind === 'request') inRequests.set(key, e);
  }
  const waiting = new Map<string, (msg: Json) => void>();
  const write = (frame: unknown) => child.stdin.write(`${JSON.stringify(frame)}\n`);
  let exited = false;
  child.on('exit', () => (exited = true));
  child.on('error', () => (exited = true));
  child.stdin.on('error', () => undefined);
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => {
    let msg: Json;
    try {
      msg = JSON.parse(line) as Json;
    } catch {
      return;
    }
    if (typeof msg.method === 'string' && msg.id !== undefined && msg.id !== null) {
      // The sidecar asks: the host's recorded answer to the same request, else an internal error.
      const recorded = inRequests.get(String(msg.id));
      const answer = recorded?.method === msg.method ? hostAnswers.get(String(msg.id)) : undefined;
      report.served.push({ method: msg.method, id: msg.id, answered: answer ? 'recorded' : 'not in the trace' });
      write(
        answer
          ? answer.frame
          : { jsonrpc: '2.0', id: msg.id, error: { code: -32603, message: 'not in the replayed trace' } },
      );
      return;
    }
    if (msg.method === undefined && msg.id !== undefined) waiting.get(String(msg.id))?.(msg);
  });
  try {
    for (const e of trace) {
      if (e.dir !== 'out' || (e.kind !== 'request' && e.kind !== 'notification') || e.truncated) continue;
      if (exited) break;
      const started = Date.now();
      if (e.kind === 'notification') {
        write(e.frame);
        report.steps.push({ seq: e.seq, method: e.method ?? '', id: null, outcome: 'sent' });
        continue;
      }
      const key = String(e.id);
      const answered = new Promise<Json | undefined>((resolve) => {
        const timer = setTimeout(() => resolve(undefined), timeoutMs);
        waiting.set(key, (msg) => {
          clearTimeout(timer);
          resolve(msg);
        });
      });
      write(e.frame);
      const msg = await answered;
      waiting.delete(key);
      const rec = byId.get(key);
      const step: ReplayStep = { seq: e.seq, method: e.method ?? '', id: e.id ?? null, outcome: 'no answer' };
      if (rec?.latencyMs !== undefined) step.recordedLatencyMs = rec.latencyMs;
      if (msg) {
        step.latencyMs = Date.now() - started;
        const now = JSON.parse(redact(JSON.stringify(msg))) as unknown;
        step.outcome = rec && isDeepStrictEqual(now, rec.frame) ? 'same' : 'differs';
        if (step.outcome === 'differs') {
          step.answer = now;
          step.recorded = rec?.frame ?? null;
        }
      }
      if (step.outcome !== 'same') report.ok = false;
      report.steps.push(step);
    }
  } finally {
    lines.close();
    child.stdin.end();
    const gone = new Promise((r) => (exited ? r(undefined) : child.once('exit', r)));
    await Promise.race([gone, new Promise((r) => setTimeout(r, 2_000))]);
    killTree(child);
  }
  const requests = report.steps.filter((s) => s.outcome !== 'sent');
  const same = requests.filter((s) => s.outcome === 'same').length;
  report.message = `${spec.id}: ${same} of ${requests.length} request(s) answered as recorded${
    exited && requests.length > same ? ' (the sidecar exited)' : ''
  }`;
  return report;
}

export async function replayCommand(argv: string[]): Promise<number> {
  const parsed = parseOrHelp(argv, REPLAY_OPTIONS, REPLAY_HELP);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  if (positionals.length !== 2) throw new UsageError('replay takes a plugin folder and a trace file');
  const timeoutMs = intOption(values.timeout, 'timeout', 1);
  let trace: TraceEntry[];
  try {
    trace = traceFromNdjson(readFileSync(positionals[1], 'utf8'));
  } catch (err) {
    throw new UsageError(`${positionals[1]}: ${(err as Error).message}`);
  }
  const report = await runReplay(positionals[0], trace, timeoutMs);
  const out = makeOut(values.json === true);
  if (out.json) out.object(report);
  else {
    out.line(`${report.ok ? '✔' : '✖'} ${term(report.message)}`);
    for (const s of report.steps) {
      const timing =
        s.latencyMs !== undefined
          ? ` in ${s.latencyMs} ms${s.recordedLatencyMs !== undefined ? ` (recorded ${s.recordedLatencyMs} ms)` : ''}`
          : '';
      out.line(
        `  #${s.seq} → ${term(s.method)}${s.id !== null ? ` id ${term(String(s.id))}` : ''}: ${s.outcome}${timing}`,
      );
      if (s.outcome === 'differs') {
        out.line(`    now:      ${term(JSON.stringify(s.answer).slice(0, 500))}`);
        out.line(`    recorded: ${term(JSON.stringify(s.recorded).slice(0, 500))}`);
      }
    }
    for (const s of report.served) out.line(`  ← ${term(s.method)} id ${term(String(s.id))}: answered ${s.answered}`);
  }
  return report.ok ? 0 : 1;
}
