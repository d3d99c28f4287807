// Entry points only. Activation does no heavy work: it wires views and commands and defers
// discovery and spawning until after activate() has returned (and start-up has finished).
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { ReasonixApi } from './api';
import { Ctx } from './context';
import { realSidecarFactory } from './sidecarFactory';

let ctx: Ctx | undefined;

export function activate(context: vscode.ExtensionContext): ReasonixApi {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  ctx = new Ctx(context, realSidecarFactory);
  const c = ctx;
  // Sessions start on the next turn, never inside activate().
  setImmediate(() => {
    if (ctx !== c) return;
    c.start().catch((err: Error) => c.log.error(`starting sessions failed: ${err.message}`));
  });
  c.activationMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  c.activationCpuMs = (cpu.user + cpu.system) / 1000;
  c.log.debug(`activated in ${c.activationMs.toFixed(1)} ms of own work`);
  return c.api;
}

export async function deactivate(): Promise<void> {
  const c = ctx;
  ctx = undefined;
  if (!c) return;
  try {
    await c.stop();
  } finally {
    c.dispose();
  }
}
