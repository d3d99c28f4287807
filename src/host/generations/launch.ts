// Starts a batch of sidecars the way HOST_SPEC §2.5 asks: at most `maxConcurrent` handshaking at
// once, all under one shared budget, so a stalled optional sidecar cannot multiply boot time. A
// plugin waits until the plugins it depends on have settled (HOST_SPEC_V2 §11.6: providers
// before consumers); when a provider it requires failed, it is not launched at all.
import type { PluginSpec } from '../plugins';
import { failureOf, type FailureInfo, type SidecarHandle } from './ports';
import type { StartSlots } from './startQueue';

export const STOPPED_BEFORE_LAUNCH = 'startup stopped before launch';

/** A plugin that must have settled (started or failed) before another one launches. */
export interface LaunchDependency {
  id: string;
  /** When it failed, the dependent is not launched (an optional one only orders). */
  required: boolean;
}

export interface LaunchOptions<S extends SidecarHandle> {
  /** Jobs in the order they should launch (the dependency plan's start order). */
  plugins: readonly PluginSpec[];
  /** What each plugin waits for; ids outside `plugins` are ignored. Default: nothing. */
  waitFor?: (plugin: PluginSpec) => readonly LaunchDependency[];
  create(plugin: PluginSpec): S;
  maxConcurrent: number;
  budgetMs: number;
  /** Aborting behaves like the budget running out (e.g. the session is being stopped). */
  signal?: AbortSignal;
  /**
   * The window's start queue: each handshake first takes one of its slots (shared with every other
   * folder). The budget runs from the batch's first slot, so a folder waiting behind others does
   * not spend its budget in the queue.
   */
  slots?: StartSlots;
  /** This batch's standing in the queue (higher first; read whenever a slot frees up). */
  priority?: () => number;
}

export type LaunchResult<S> =
  | { plugin: PluginSpec; ok: true; sidecar: S }
  | { plugin: PluginSpec; ok: false; info: FailureInfo }
  /** Not launched: these required providers did not start. */
  | { plugin: PluginSpec; ok: false; blockedBy: string[] };

/**
 * The one startup budget of a batch: when it runs out or the caller aborts, launching ends for
 * every job at once (`over` resolves; `reason` and `atMs` say why and when).
 */
class LaunchBudget {
  began = Date.now();
  reason: string | undefined;
  atMs = 0;
  readonly over: Promise<void>;
  private cut!: () => void;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onAbort = () => this.end('startup was cancelled');

  /** `armed` false: the clock starts at the first arm() (the first slot of the window's queue). */
  constructor(
    private readonly budgetMs: number,
    private readonly signal: AbortSignal | undefined,
    armed = true,
  ) {
    this.over = new Promise<void>((resolve) => (this.cut = resolve));
    if (armed) this.arm();
    if (signal?.aborted) this.onAbort();
    signal?.addEventListener('abort', this.onAbort);
  }

  arm(): void {
    if (this.timer !== undefined || this.reason !== undefined) return;
    this.began = Date.now();
    this.timer = setTimeout(() => this.end(`startup budget of ${this.budgetMs} ms expired`), this.budgetMs);
  }

  elapsed(): number {
    return Date.now() - this.began;
  }

  end(why: string): void {
    if (this.reason === undefined) {
      this.reason = why;
      this.atMs = this.elapsed();
    }
    this.cut();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
  }
}

/** Takes a slot of the window's queue (none: no queue), or undefined when launching ended first. */
async function slotFor(
  opts: Pick<LaunchOptions<SidecarHandle>, 'slots' | 'priority'>,
  budget: LaunchBudget,
): Promise<(() => void) | undefined> {
  if (!opts.slots) return () => undefined;
  if (budget.reason !== undefined) return undefined;
  const gave = new AbortController();
  const got = opts.slots.acquire(opts.priority ?? (() => 0), gave.signal);
  const first = await Promise.race([got, budget.over.then(() => undefined)]);
  if (first) {
    budget.arm();
    return first;
  }
  gave.abort(new Error('launching ended'));
  // Granted in the same tick the budget ran out: give the slot straight back.
  await got.then(
    (release) => release(),
    () => undefined,
  );
  return undefined;
}

/** Starts one sidecar inside the budget, holding a slot of the window's queue while it handshakes; never rejects. */
async function startOne<S extends SidecarHandle>(
  plugin: PluginSpec,
  create: (plugin: PluginSpec) => S,
  budget: LaunchBudget,
  opts: Pick<LaunchOptions<S>, 'slots' | 'priority'> = {},
): Promise<LaunchResult<S>> {
  const release = await slotFor(opts, budget);
  try {
    return await startHolding(plugin, create, budget);
  } finally {
    release?.();
  }
}

async function startHolding<S extends SidecarHandle>(
  plugin: PluginSpec,
  create: (plugin: PluginSpec) => S,
  budget: LaunchBudget,
): Promise<LaunchResult<S>> {
  if (budget.reason !== undefined) {
    // It failed when launching ended, even if a worker only gets to it now.
    const message = `${STOPPED_BEFORE_LAUNCH} (${budget.reason})`;
    return {
      plugin,
      ok: false,
      info: {
        pluginId: plugin.id,
        stage: 'spawn',
        reason: 'internal',
        message,
        stderrTail: '',
        elapsedMs: budget.atMs,
      },
    };
  }
  let sidecar: S;
  try {
    sidecar = create(plugin);
  } catch (err) {
    return { plugin, ok: false, info: failureOf(err, plugin.id, budget.elapsed()) };
  }
  const started = sidecar.start().then(
    () => ({ done: true as const }),
    (err: unknown) => ({ done: true as const, err }),
  );
  // A sidecar held by a debugger is waited for: the author, not the budget, decides when it runs.
  const outcome = sidecar.debugging
    ? await started
    : await Promise.race([started, budget.over.then(() => ({ done: false as const }))]);
  if (outcome.done && !('err' in outcome)) {
    // Finishing the handshake in the same tick the budget ran out still counts as started.
    return { plugin, ok: true, sidecar };
  }
  if (outcome.done && 'err' in outcome) {
    await sidecar.stop().catch(() => undefined); // make sure nothing of a failed start lingers
    return { plugin, ok: false, info: failureOf(outcome.err, plugin.id, budget.elapsed()) };
  }
  // Still handshaking when launching ended: this start has failed. Stopping cancels the
  // handshake and kills the process; the sidecar's own report still carries the stderr tail.
  const failedAt = budget.elapsed();
  await sidecar.stop().catch(() => undefined);
  const late = await started;
  const base = 'err' in late ? failureOf(late.err, plugin.id, failedAt) : undefined;
  const info: FailureInfo = {
    ...(base ?? { stderrTail: '' }),
    pluginId: plugin.id,
    stage: 'handshake',
    reason: 'internal',
    message: `${budget.reason ?? 'startup ended'} while "${plugin.id}" was still starting`,
    elapsedMs: failedAt,
  };
  return { plugin, ok: false, info };
}

/** Launches every job; results come back in input order. Never rejects. */
export async function launchAll<S extends SidecarHandle>(opts: LaunchOptions<S>): Promise<LaunchResult<S>[]> {
  const budget = new LaunchBudget(opts.budgetMs, opts.signal, !opts.slots);
  const results: LaunchResult<S>[] = new Array(opts.plugins.length);
  // Which plugins settled and how; a worker with nothing ready waits for the next settle.
  const index = new Map(opts.plugins.map((p, i) => [p.id, i]));
  const settled = new Map<string, boolean>();
  // Only plugins earlier in the order count, so a stray edge can delay a launch but never deadlock it.
  const deps = (p: PluginSpec) =>
    (opts.waitFor?.(p) ?? []).filter((d) => (index.get(d.id) ?? Infinity) < (index.get(p.id) ?? -1));
  let wake!: () => void;
  let settling = new Promise<void>((r) => (wake = r));
  const waiting = opts.plugins.map((_, i) => i);

  const launchOne = async (i: number): Promise<LaunchResult<S>> => {
    const plugin = opts.plugins[i];
    const blockedBy = deps(plugin)
      .filter((d) => d.required && settled.get(d.id) === false)
      .map((d) => d.id);
    return blockedBy.length && budget.reason === undefined
      ? { plugin, ok: false, blockedBy }
      : startOne(plugin, opts.create, budget, opts);
  };
  const worker = async () => {
    while (waiting.length) {
      // Once launching has ended every job fails at once, ready or not.
      const at = waiting.findIndex(
        (i) => budget.reason !== undefined || deps(opts.plugins[i]).every((d) => settled.has(d.id)),
      );
      if (at < 0) {
        await Promise.race([settling, budget.over]);
        continue;
      }
      const [i] = waiting.splice(at, 1);
      results[i] = await launchOne(i);
      settled.set(opts.plugins[i].id, results[i].ok);
      const w = wake;
      settling = new Promise<void>((r) => (wake = r));
      w();
    }
  };
  try {
    const workers = Math.max(1, Math.min(opts.maxConcurrent, opts.plugins.length));
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    budget.dispose();
  }
  return results;
}
