// `reasonix-host check <pluginDir>`: start the plugin's runtime exactly as the extension would,
// complete the handshake, shut it down, and report whether the sidecar conformed.
import {
  DEFAULT_TIMEOUTS,
  failureLogLine,
  installReaper,
  Sidecar,
  SidecarFailure,
  type FailureInfo,
} from '../host/sidecar';
import type { Logger } from '../host/log';
import { contractFor, type ErrorReason, type InitializeResult } from '../protocol';
import { inactiveText, planDependencies, type Unmet } from '../host/generations';
import type { PluginSpec } from '../host/plugins';
import { withheldTools } from '../host/tools';
import { toolArgumentChecker } from '../host/arguments';
import { intOption, makeOut, optionLines, parseOrHelp, UsageError } from './args';
import { loadPlugins, ManifestProblem } from './loadPlugin';
import { SESSION_OPTIONS, WORKSPACE_HELP, workspaceOf } from './sessionOptions';
import { term } from './terminal';

export const CHECK_OPTIONS = {
  workspace: SESSION_OPTIONS.workspace,
  with: { type: 'string', multiple: true },
  'handshake-timeout': { type: 'string' },
  json: SESSION_OPTIONS.json,
} as const;

export const CHECK_HELP = `Usage: reasonix-host check <pluginDir> [--with DIR]... [--workspace DIR] [--handshake-timeout MS] [--json]

Starts the plugin's runtime exactly as the VS Code extension would (exec form, no shell,
its own process group), completes the handshake in the protocol its manifest picks (v1 or
v2), watches it run briefly, shuts it down, and reports. Not conforming: anything on stdout that is not a JSON-RPC message, traffic
before extension/initialized, dying instead of answering extension/shutdown, or not
exiting within the grace after it.

${optionLines(
  [
    [
      '--with DIR',
      "another plugin of the same folder (repeatable, never started): the\nplugin's requires are resolved against their provides, and the\nreport says whether it would be Active or Inactive there (v2)",
    ],
    WORKSPACE_HELP,
    ['--handshake-timeout MS', 'bound for extension/initialize (default 30000)'],
    ['--json', 'print one JSON object instead of text'],
  ],
  27,
)}

Exit status: 0 the sidecar conformed, 1 it did not, 2 usage error.`;

export type CheckStage = 'manifest' | 'spawn' | 'handshake' | 'running' | 'shutdown';

export interface CheckReport {
  ok: boolean;
  plugin: string | null;
  /** The protocol the plugin's manifest picks (`reasonix.extension.v1` / `.v2`); null when the manifest was refused. */
  protocol: string | null;
  stage: CheckStage;
  /** A protocol reason, or the graph-level `duplicate_provider` / `dependency_cycle` of --with. */
  reason: ErrorReason | 'duplicate_provider' | 'dependency_cycle' | null;
  message: string;
  initialize: InitializeResult | null;
  timings: { readyMs: number | null; shutdownMs: number | null };
  violations: CheckViolation[];
  /**
   * Deviations the host tolerates as Reasonix does, reported without failing the check: today one,
   * an `extension/shutdown` answer the schema refuses (such as `{}`, see docs/conformance.md).
   */
  warnings: CheckViolation[];
  stderrTail: string;
  /** What its `requires` come to beside the --with plugins (HOST_SPEC_V2 §11); null when it requires nothing. */
  dependencies: CheckDependencies | null;
}

export interface CheckDependencies {
  /**
   * Active: every required capability is provided; Inactive: the extension would not start it
   * (no error: `run` goes on with the rest); refused: the folder's plugins together cannot start
   * (a cycle of required capabilities, two providers of one), as `run` refuses the whole generation.
   */
  state: 'active' | 'inactive' | 'refused';
  /** For `refused`: `dependency_cycle` or `duplicate_provider`. */
  reason?: 'dependency_cycle' | 'duplicate_provider';
  unmet: Unmet[];
  /** One line, e.g. "Inactive — missing required capability acme/index/search". */
  text: string;
}

export interface CheckViolation {
  reason: ErrorReason;
  /** Where the sidecar broke the protocol. */
  stage: 'handshake' | 'running' | 'shutdown';
  message: string;
}

/** `extension/initialized` is held back this long, so a sidecar that does not wait for it is caught every time. */
export const BARRIER_PROBE_MS = 200;
/** How long the running sidecar is watched before it is asked to shut down. */
export const OBSERVE_MS = 300;

/** Warnings the engine logs while the sidecar runs are protocol violations of the peer. */
function collectingLogger(violations: CheckViolation[], stage: () => CheckViolation['stage']): Logger {
  const noop = () => {};
  return {
    trace: noop,
    debug: noop,
    info: noop,
    warn: (message) => violations.push({ reason: 'protocol_error', stage: stage(), message }),
    error: (message) => violations.push({ reason: 'protocol_error', stage: stage(), message }),
  };
}

/**
 * The plugin's requirements resolved against the other plugins of its folder, as a generation
 * would (the sidecar is checked either way: an author checks a consumer without its provider).
 */
function dependencyReport(spec: PluginSpec, others: readonly PluginSpec[]): CheckDependencies | null {
  const planned = planDependencies([spec, ...others.filter((o) => o.id !== spec.id)]);
  // The folder as a whole cannot start: `run` refuses the generation, so check fails too.
  if (!planned.ok) return { state: 'refused', reason: planned.reason, unmet: [], text: `Refused — ${planned.message}` };
  if (!spec.requires.length) return null;
  const unmet = [...(planned.plan.inactive.get(spec.id) ?? [])];
  if (!unmet.length) {
    const from = planned.plan.edges.filter((e) => e.consumer === spec.id).map((e) => `${e.key} from ${e.provider}`);
    return { state: 'active', unmet, text: `Active — ${from.length ? from.join(', ') : 'only optional requirements'}` };
  }
  return { state: 'inactive', unmet, text: inactiveText(unmet) };
}

/** What a check reports before it has learnt anything: not conforming, at the manifest. */
function emptyReport(): CheckReport {
  return {
    ok: false,
    plugin: null,
    protocol: null,
    stage: 'manifest',
    reason: null,
    message: '',
    initialize: null,
    timings: { readyMs: null, shutdownMs: null },
    violations: [],
    warnings: [],
    stderrTail: '',
    dependencies: null,
  };
}

/** The plugin and its --with neighbours, read as linked folders; undefined (the report says why) when one cannot run. */
async function loadForCheck(pluginDir: string, others: readonly string[], report: CheckReport) {
  try {
    const [spec, ...rest] = await loadPlugins([pluginDir, ...others]);
    return { spec, others: rest };
  } catch (err) {
    report.plugin = err instanceof ManifestProblem ? (err.pluginId ?? null) : null;
    report.reason = 'invalid_params';
    report.message = (err as Error).message;
    return undefined;
  }
}

/**
 * The served tools the folder would withhold (issue 45 item 1): a model-facing name outside
 * `^[A-Za-z0-9_-]{1,64}$`, or one another tool shares, among the --with plugins' declared tools too.
 */
function withheldViolations(spec: PluginSpec, sidecar: Sidecar, others: readonly PluginSpec[]): CheckViolation[] {
  const clients = [
    { pluginId: spec.id, state: 'running' as const, tools: sidecar.tools },
    ...others
      .filter((o) => o.id !== spec.id)
      .map((o) => ({ pluginId: o.id, state: 'stopped' as const, tools: o.runtime.tools })),
  ];
  return withheldTools(clients)
    .filter((w) => w.pluginId === spec.id)
    .map((w) => ({ reason: 'invalid_params' as const, stage: 'handshake' as const, message: w.problem }));
}

/** Starts the sidecar through the handshake; false (the report says why, the process is gone) when it did not complete. */
async function handshake(sidecar: Sidecar, report: CheckReport): Promise<boolean> {
  const started = performance.now();
  try {
    await sidecar.start();
    report.timings.readyMs = Math.round(performance.now() - started);
    report.stage = 'running';
    report.initialize = sidecar.initializeResult ?? null;
    // What the handshake says for diagnostics only is a note in the log, not a violation.
    // (In place: the collecting logger keeps appending to this array.)
    const notes = new Set(sidecar.handshakeNotes);
    for (let i = report.violations.length - 1; i >= 0; i--)
      if (notes.has(report.violations[i].message)) report.violations.splice(i, 1);
    return true;
  } catch (err) {
    const info = err instanceof SidecarFailure ? err.info : undefined;
    report.stage = info?.stage ?? 'handshake';
    report.reason = info?.reason ?? 'internal';
    report.message = info?.message ?? (err as Error).message;
    report.stderrTail = info?.stderrTail ?? sidecar.stderrTail();
    // The engine also logs the start failure itself; that is the report, not a second violation.
    if (info) report.violations = report.violations.filter((v) => !v.message.endsWith(failureLogLine(info)));
    await sidecar.stop();
    return false;
  }
}

/** Watches the running sidecar for OBSERVE_MS; false (the report says why) when it died meanwhile. */
async function keepsRunning(sidecar: Sidecar, report: CheckReport): Promise<boolean> {
  let crashed: FailureInfo | undefined;
  const sub = sidecar.onCrash((info) => (crashed = info));
  await new Promise((r) => setTimeout(r, OBSERVE_MS));
  if (!crashed && sidecar.state === 'running') {
    sub.dispose();
    return true;
  }
  // Died while running: the crash is the verdict (the crash report arrives after the reap).
  await sidecar.stop();
  await waitFor(() => crashed !== undefined, 6_000);
  sub.dispose();
  report.stderrTail = sidecar.stderrTail();
  report.reason = 'provider_interrupted';
  report.message = crashed?.message ?? `${sidecar.pluginId} stopped running before it was asked to shut down`;
  const logged = crashed && failureLogLine(crashed);
  if (logged) report.violations = report.violations.filter((v) => !v.message.endsWith(logged));
  return false;
}

/** Asks the sidecar to shut down and judges how it went: its answer, and whether it exited within the grace. */
async function shutDown(sidecar: Sidecar, report: CheckReport): Promise<void> {
  const stopping = performance.now();
  await sidecar.stop();
  report.timings.shutdownMs = Math.round(performance.now() - stopping);
  report.stderrTail = sidecar.stderrTail();
  const stop = sidecar.lastStop;
  if (stop?.invalidAnswer) {
    report.warnings.push({
      reason: 'protocol_error',
      stage: 'shutdown',
      message: `answered extension/shutdown with a result the ${report.protocol} schema refuses (${stop.invalidAnswer}); the host ignores a shutdown answer, as Reasonix does, and closed it normally. Answer {"accepted": true} instead`,
    });
  }
  if (stop?.problem) {
    report.violations.push({ reason: stop.problem.reason, stage: 'shutdown', message: stop.problem.message });
  } else if (stop && !stop.exitedWithinGrace) {
    // The engine's own warning about the kill is this same finding.
    report.violations = report.violations.filter((v) => !/did not exit within/.test(v.message));
    report.violations.push({
      reason: 'shutdown_timeout',
      stage: 'shutdown',
      message: `answered extension/shutdown but did not exit within ${DEFAULT_TIMEOUTS.exitGraceMs} ms of its stdin closing; its process group was killed`,
    });
  }
}

/** A sidecar that went through start, run and shutdown: conforming unless it broke the protocol on the way. */
function verdict(pluginId: string, report: CheckReport): CheckReport {
  if (report.violations.length) {
    const first = report.violations[0];
    report.stage = first.stage;
    report.reason = first.reason;
    report.message = `${pluginId} completed the handshake but broke the protocol while ${first.stage === 'running' ? 'running' : first.stage === 'shutdown' ? 'shutting down' : 'starting'}: ${first.message}`;
    return report;
  }
  const deps = report.dependencies;
  if (deps?.state === 'refused') {
    // The sidecar itself passed; the folder it was checked in would not start (as `run` says).
    report.stage = 'manifest';
    report.reason = deps.reason ?? null;
    report.message = `${pluginId} completed the handshake, but the plugins given with --with cannot start together: ${deps.text}`;
    return report;
  }
  report.ok = true;
  const n = report.warnings.length;
  const except = n ? ` except for ${n} warning${n === 1 ? '' : 's'}` : '';
  // Inactive is no failure (run exits 0 beside it, V2-19), but the headline says so.
  const inactive = deps?.state === 'inactive' ? `; ${deps.text}, so this host would not start it here` : '';
  report.message = `${pluginId} ${report.initialize?.version ?? ''} conforms${except}: ready in ${report.timings.readyMs} ms, shut down in ${report.timings.shutdownMs} ms${inactive}`;
  return report;
}

export async function runCheck(
  pluginDir: string,
  opts: { workspace: string; handshakeMs?: number; with?: readonly string[] },
): Promise<CheckReport> {
  const report = emptyReport();
  const loaded = await loadForCheck(pluginDir, opts.with ?? [], report);
  if (!loaded) return report;
  const { spec } = loaded;
  installReaper(); // a check its caller kills leaves no sidecar behind
  report.plugin = spec.id;
  report.protocol = contractFor(spec.protocol).protocolId;
  report.dependencies = dependencyReport(spec, loaded.others);
  report.stage = 'spawn';
  let phase: CheckViolation['stage'] = 'handshake';
  const sidecar = new Sidecar({
    plugin: spec,
    session: { sessionId: 'reasonix-host-check', workspaceRoot: opts.workspace, generation: 1 },
    uiHost: 'desktop', // exactly what the extension sends
    timeouts: {
      barrierProbeMs: BARRIER_PROBE_MS,
      ...(opts.handshakeMs !== undefined ? { handshakeMs: opts.handshakeMs } : {}),
    },
    logger: collectingLogger(report.violations, () => phase),
  });
  if (!(await handshake(sidecar, report))) return report;
  report.violations.push(...withheldViolations(spec, sidecar, loaded.others));
  for (const t of sidecar.tools) {
    const problem = toolArgumentChecker.schemaProblem(t.inputSchema);
    if (problem)
      report.warnings.push({
        reason: 'invalid_params',
        stage: 'handshake',
        message: `the input schema of tool ${t.name} cannot be compiled (${problem}); the host sends its arguments to the extension unchecked`,
      });
  }
  phase = 'running';
  if (!(await keepsRunning(sidecar, report))) return report;
  report.stage = 'shutdown';
  phase = 'shutdown';
  await shutDown(sidecar, report);
  return verdict(spec.id, report);
}

export async function checkCommand(argv: string[]): Promise<number> {
  const parsed = parseOrHelp(argv, CHECK_OPTIONS, CHECK_HELP);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('check takes exactly one plugin folder');
  const handshakeMs = intOption(values['handshake-timeout'], 'handshake-timeout', 1);
  const report = await runCheck(positionals[0], {
    workspace: workspaceOf(values),
    handshakeMs,
    with: (values.with as string[] | undefined) ?? [],
  });
  const out = makeOut(values.json === true);
  if (out.json) out.object(report);
  else {
    // Every string here may carry sidecar text: term() keeps it one visible span on its line.
    out.line(`${report.ok ? '✔' : '✖'} ${term(report.message)}`);
    if (!report.ok) out.line(`  stage: ${report.stage}, reason: ${report.reason}`);
    if (report.protocol) out.line(`  protocol: ${report.protocol}`);
    if (report.dependencies) {
      const hint =
        report.dependencies.state === 'inactive' ? ' (the extension would not start it; checked anyway)' : '';
      out.line(`  dependencies: ${term(report.dependencies.text)}${hint}`);
    }
    if (report.initialize) {
      const i = report.initialize;
      const list = (xs: string[]) => xs.map(term).join(', ');
      out.line(
        `  initialize: ${term(i.name)} ${term(i.version)}, protocol ${term(i.protocolVersion)}, subscriptions [${list(i.subscriptions ?? [])}], actions [${list((i.uiActions ?? []).map((a) => a.actionId))}], providers [${list((i.providers ?? []).map((p) => p.ref))}]${i.tools ? `, tools [${list(i.tools)}]` : ''}`,
      );
    }
    for (const v of report.violations) out.line(`  violation (${v.reason}, ${v.stage}): ${term(v.message)}`);
    for (const w of report.warnings) out.line(`  warning (${w.reason}, ${w.stage}): ${term(w.message)}`);
    if (!report.ok && report.stderrTail)
      out.line(
        `  stderr (last lines, redacted):\n${report.stderrTail
          .split('\n')
          .slice(-10)
          .map((l) => '    ' + term(l))
          .join('\n')}`,
      );
  }
  return report.ok ? 0 : 1;
}

async function waitFor(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}
