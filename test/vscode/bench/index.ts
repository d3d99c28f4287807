// In-host bench probe (not a test suite): scripts/run-inhost-tests.mjs points code-server's
// extensionTestsPath here from bench/activation.ts. Inside the real extension host it reads the
// extension's own activation figure through the exported API and prints one line the bench
// parses. Rejecting makes the runner exit non-zero, so a missing figure is never silent.
import * as vscode from 'vscode';
import type { ReasonixApi } from '../../../src/vscode/api';

/** The bench greps stdout for this prefix followed by one JSON object. */
export const PROBE_PREFIX = 'REASONIX_BENCH_PROBE ';

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension<ReasonixApi>('reasonix.reasonix-vscode-host');
  if (!ext) throw new Error('reasonix.reasonix-vscode-host is not installed in this host');
  const api = await ext.activate();
  const { activationMs, activationCpuMs } = api.diagnostics();
  if (!Number.isFinite(activationMs)) throw new Error(`activationMs is not a number: ${activationMs}`);
  console.log(PROBE_PREFIX + JSON.stringify({ activationMs, activationCpuMs, vscode: vscode.version }));
}
