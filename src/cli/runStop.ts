// How `reasonix-host run` ends, and what it prints while it does: the first signal (or --for, or a
// failed start) is a clean stop; a second one while stopping kills every extension's process group.
import { spawnSync } from 'node:child_process';
import { windowsTreeKill } from '../host/plugins';
import type { Out } from './args';
import type { HeadlessSession } from './headless';

/** One run's events, each a line of text or, with --json, a JSON line. */
export class RunOutput {
  private quiet = false;

  constructor(private readonly out: Out) {}

  /** The stop has begun. */
  get stopping(): boolean {
    return this.quiet;
  }

  /** An event, unless the run is stopping. */
  say(event: Record<string, unknown>, text: string): void {
    if (!this.quiet) this.print(event, text);
  }

  /**
   * Shutting down marks every surface stale and may crash-report sidecars that exit: that is
   * teardown, not news, so nothing but the final line is printed from here on.
   */
  beginStop(): void {
    this.quiet = true;
  }

  /** An event printed even while stopping: how the stop ended. */
  print(event: Record<string, unknown>, text: string): void {
    if (this.out.json) this.out.object(event);
    else this.out.line(text);
  }
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

/**
 * The end of one run. First SIGINT/SIGTERM/SIGHUP: a clean stop. A second one while stopping: the
 * user means it, so every sidecar's process group is killed (grandchildren too) before the CLI
 * exits; without this the default handler would end the CLI and leave the sidecars running with
 * ppid 1. Listens from construction on.
 */
export class RunStop {
  /** A signal began the stop. */
  interrupted = false;
  /** Resolves once the session is disposed and `stopped` is printed. */
  readonly finished: Promise<void>;
  private finish!: () => void;
  private readonly pids = new Set<number>();

  constructor(
    private readonly session: HeadlessSession,
    private readonly output: RunOutput,
    private readonly files: { close(): void },
  ) {
    this.finished = new Promise<void>((r) => (this.finish = r));
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, this.onSignal);
  }

  /** Stops once: file forwarding ends, the session is disposed, `stopped` is the last line. */
  stop(why: string): void {
    if (this.output.stopping) return;
    this.output.say({ type: 'stopping', why }, `stopping (${why})`);
    this.output.beginStop();
    void (async () => {
      this.files.close();
      await this.session.dispose();
      this.output.print({ type: 'stopped' }, 'stopped');
      this.finish();
    })();
  }

  /** Notes the sidecars' process groups, for a second signal to kill. */
  rememberProcesses(): void {
    for (const p of this.session.engine.plugins()) if (p.pid) this.pids.add(p.pid);
  }

  private readonly onSignal = (signal: NodeJS.Signals): void => {
    if (this.output.stopping) return this.killAll(signal);
    this.interrupted = true;
    this.stop(signal);
  };

  private killAll(signal: NodeJS.Signals): never {
    this.rememberProcesses();
    for (const pid of this.pids) killGroup(pid);
    this.output.print(
      { type: 'killed', why: `second ${signal}`, pids: [...this.pids] },
      `killed ${this.pids.size} extension process group(s) (second ${signal})`,
    );
    process.exit(128 + (SIGNAL_NUMBERS[signal] ?? 1));
  }
}
