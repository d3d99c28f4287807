// `reasonix-host check <pluginDir>`: start the plugin's runtime exactly as the extension would,
// complete the handshake, shut it down, and report whether the sidecar conformed.
import { resolve } from 'node:path';
import { Sidecar, StartError } from '../host/sidecar';
import type { Logger } from '../host/log';
import type { ErrorReason, InitializeResult } from '../protocol';
import { intOption, makeOut, parse, UsageError } from './args';
import { loadPlugins, ManifestProblem } from './loadPlugin';

export const CHECK_HELP = `Usage: reasonix-host check <pluginDir> [--workspace DIR] [--handshake-timeout MS] [--json]

Starts the plugin's runtime exactly as the VS Code extension would (exec form, no shell,
its own process group), completes the v1 handshake, shuts it down, and reports.

  --workspace DIR          the workspace root sent in the session (default: current directory)
  --handshake-timeout MS   bound for extension/initialize (default 30000)
  --json                   print one JSON object instead of text

Exit status: 0 the sidecar conformed, 1 it did not, 2 usage error.`;

export type CheckStage = 'manifest' | 'spawn' | 'handshake' | 'running' | 'shutdown';

export interface CheckReport {
  ok: boolean;
  plugin: string | null;
  stage: CheckStage;
  reason: ErrorReason | null;
  message: string;
  initialize: InitializeResult | null;
  timings: { readyMs: number | null; shutdownMs: number | null };
  violations: { reason: ErrorReason; message: string }[];
  stderrTail: string;
}

/** Warnings the engine logs while the sidecar runs are protocol violations of the peer. */
function collectingLogger(violations: CheckReport['violations']): Logger {
  const noop = () => {};
  return {
    trace: noop,
    debug: noop,
    info: noop,
    warn: (message) => violations.push({ reason: 'protocol_error', message }),
    error: (message) => violations.push({ reason: 'protocol_error', message }),
  };
}

export async function runCheck(pluginDir: string, opts: { workspace: string; handshakeMs?: number }): Promise<CheckReport> {
  const report: CheckReport = {
    ok: false, plugin: null, stage: 'manifest', reason: null, message: '', initialize: null,
    timings: { readyMs: null, shutdownMs: null }, violations: [], stderrTail: '',
  };
  let spec;
  try {
    [spec] = await loadPlugins([pluginDir]);
  } catch (err) {
    report.plugin = err instanceof ManifestProblem ? (err.pluginId ?? null) : null;
    report.reason = 'invalid_params';
    report.message = (err as Error).message;
    return report;
  }
  report.plugin = spec.id;
  report.stage = 'spawn';
  const sidecar = new Sidecar({
    plugin: spec,
    session: { sessionId: 'reasonix-host-check', workspaceRoot: opts.workspace, generation: 1 },
    uiHost: 'desktop', // exactly what the extension sends
    timeouts: opts.handshakeMs !== undefined ? { handshakeMs: opts.handshakeMs } : {},
    logger: collectingLogger(report.violations),
  });
  const started = performance.now();
  try {
    await sidecar.start();
    report.timings.readyMs = Math.round(performance.now() - started);
    report.stage = 'running';
    report.initialize = sidecar.initializeResult ?? null;
  } catch (err) {
    const info = err instanceof StartError ? err.info : undefined;
    report.stage = info?.stage ?? 'handshake';
    report.reason = info?.reason ?? 'internal';
    report.message = info?.message ?? (err as Error).message;
    report.stderrTail = info?.stderrTail ?? sidecar.stderrTail();
    // The engine also logs the start failure itself; that is the report, not a second violation.
    report.violations = report.violations.filter((v) => !v.message.includes(report.message));
    await sidecar.stop();
    return report;
  }
  let crashed: string | undefined;
  const sub = sidecar.onCrash((info) => (crashed = info.message));
  report.stage = 'shutdown';
  const stopping = performance.now();
  await sidecar.stop();
  sub.dispose();
  report.timings.shutdownMs = Math.round(performance.now() - stopping);
  report.stderrTail = sidecar.stderrTail();
  if (crashed) {
    report.reason = 'provider_interrupted';
    report.message = crashed;
    return report;
  }
  if (report.violations.length) {
    report.reason = report.violations[0].reason;
    report.message = `${spec.id} completed the handshake but broke the protocol: ${report.violations[0].message}`;
    return report;
  }
  report.ok = true;
  report.message = `${spec.id} ${report.initialize?.version ?? ''} conforms: ready in ${report.timings.readyMs} ms, shut down in ${report.timings.shutdownMs} ms`;
  return report;
}

export async function checkCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    workspace: { type: 'string' },
    'handshake-timeout': { type: 'string' },
    json: { type: 'boolean' },
  });
  if (values.help) {
    console.log(CHECK_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('check takes exactly one plugin folder');
  const handshakeMs = intOption(values['handshake-timeout'], 'handshake-timeout', 1);
  const report = await runCheck(positionals[0], { workspace: resolve(String(values.workspace ?? process.cwd())), handshakeMs });
  const out = makeOut(values.json === true);
  if (out.json) out.object(report);
  else {
    out.line(`${report.ok ? '✔' : '✖'} ${report.message}`);
    if (!report.ok) out.line(`  stage: ${report.stage}, reason: ${report.reason}`);
    if (report.initialize) {
      const i = report.initialize;
      out.line(`  initialize: ${i.name} ${i.version}, protocol ${i.protocolVersion}, subscriptions [${(i.subscriptions ?? []).join(', ')}], actions [${(i.uiActions ?? []).map((a) => a.actionId).join(', ')}], providers [${(i.providers ?? []).map((p) => p.ref).join(', ')}]`);
    }
    for (const v of report.violations) out.line(`  violation (${v.reason}): ${v.message}`);
    if (!report.ok && report.stderrTail) out.line(`  stderr (last lines, redacted):\n${report.stderrTail.split('\n').slice(-10).map((l) => '    ' + l).join('\n')}`);
  }
  return report.ok ? 0 : 1;
}
