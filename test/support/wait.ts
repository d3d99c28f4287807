// Waiting on conditions, never on fixed sleeps: poll a probe until it yields a value. The one
// poller of every suite (unit, in-host, UI) and the benches; plain Node, no vscode, so each of
// them loads it from out/test/support.
export interface WaitOptions {
  timeoutMs: number;
  /** Shown in the timeout error: "timed out after 5000 ms waiting for <what>". */
  what: string;
  /** Pause between two probes; default 100 ms (probes that reach a browser or a VS Code window). In-process probes pass a few ms. */
  intervalMs?: number;
}

/** Polls `probe` until it returns something other than undefined/false; a throw aborts the wait. */
export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  opts: WaitOptions,
): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      if (!(e instanceof RetryableError)) throw e;
      last = e;
    }
    if (Date.now() > deadline) {
      const why = last instanceof Error ? ` (last: ${last.message})` : '';
      throw new Error(`timed out after ${opts.timeoutMs} ms waiting for ${opts.what}${why}`);
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 100));
  }
}

/** Thrown by a probe to say "not yet, and here is why" without aborting the wait. */
export class RetryableError extends Error {}
