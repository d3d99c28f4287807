// Starts a batch of sidecars the way HOST_SPEC §2.5 asks: at most `maxConcurrent` handshaking at
// once, all under one shared budget, so a stalled optional sidecar cannot multiply boot time.
import type { PluginSpec } from '../plugins';
import { failureOf, type FailureInfo, type SidecarHandle } from './ports';

export const STOPPED_BEFORE_LAUNCH = 'startup stopped before launch';

export interface LaunchOptions<S extends SidecarHandle> {
  /** Jobs in the order they should launch (the caller sorts by plugin id). */
  plugins: readonly PluginSpec[];
  create(plugin: PluginSpec): S;
  maxConcurrent: number;
  budgetMs: number;
  /** Aborting behaves like the budget running out (e.g. the session is being stopped). */
  signal?: AbortSignal;
}

export type LaunchResult<S> =
  { plugin: PluginSpec; ok: true; sidecar: S } | { plugin: PluginSpec; ok: false; info: FailureInfo };

/** Launches every job; results come back in input order. Never rejects. */
export async function launchAll<S extends SidecarHandle>(opts: LaunchOptions<S>): Promise<LaunchResult<S>[]> {
  const began = Date.now();
  let cutReason: string | undefined;
  let cutAtMs = 0;
  let cut!: () => void;
  const budgetOver = new Promise<void>((resolve) => (cut = resolve));
  const endLaunching = (why: string) => {
    if (cutReason === undefined) {
      cutReason = why;
      cutAtMs = Date.now() - began;
    }
    cut();
  };
  const timer = setTimeout(() => endLaunching(`startup budget of ${opts.budgetMs} ms expired`), opts.budgetMs);
  const onAbort = () => endLaunching('startup was cancelled');
  if (opts.signal?.aborted) onAbort();
  opts.signal?.addEventListener('abort', onAbort);

  const results: LaunchResult<S>[] = new Array(opts.plugins.length);
  let next = 0;

  const runOne = async (plugin: PluginSpec): Promise<LaunchResult<S>> => {
    const elapsed = () => Date.now() - began;
    if (cutReason !== undefined) {
      // It failed when launching ended, even if a worker only gets to it now.
      return {
        plugin,
        ok: false,
        info: {
          pluginId: plugin.id,
          stage: 'spawn',
          reason: 'internal',
          message: `${STOPPED_BEFORE_LAUNCH} (${cutReason})`,
          stderrTail: '',
          elapsedMs: cutAtMs,
        },
      };
    }
    let sidecar: S;
    try {
      sidecar = opts.create(plugin);
    } catch (err) {
      return { plugin, ok: false, info: failureOf(err, plugin.id, elapsed()) };
    }
    const started = sidecar.start().then(
      () => ({ done: true as const }),
      (err: unknown) => ({ done: true as const, err }),
    );
    const outcome = await Promise.race([started, budgetOver.then(() => ({ done: false as const }))]);
    if (outcome.done && !('err' in outcome)) {
      // Finishing the handshake in the same tick the budget ran out still counts as started.
      return { plugin, ok: true, sidecar };
    }
    if (outcome.done && 'err' in outcome) {
      await sidecar.stop().catch(() => undefined); // make sure nothing of a failed start lingers
      return { plugin, ok: false, info: failureOf(outcome.err, plugin.id, elapsed()) };
    }
    // Still handshaking when launching ended: this start has failed. Stopping cancels the
    // handshake and kills the process; the sidecar's own report still carries the stderr tail.
    const failedAt = elapsed();
    await sidecar.stop().catch(() => undefined);
    const late = await started;
    const base = 'err' in late ? failureOf(late.err, plugin.id, failedAt) : undefined;
    const info: FailureInfo = {
      ...(base ?? { stderrTail: '' }),
      pluginId: plugin.id,
      stage: 'handshake',
      reason: 'internal',
      message: `${cutReason ?? 'startup ended'} while "${plugin.id}" was still starting`,
      elapsedMs: failedAt,
    };
    return { plugin, ok: false, info };
  };

  const worker = async () => {
    while (next < opts.plugins.length) {
      const i = next++;
      results[i] = await runOne(opts.plugins[i]);
    }
  };
  try {
    const workers = Math.max(1, Math.min(opts.maxConcurrent, opts.plugins.length));
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
  return results;
}
