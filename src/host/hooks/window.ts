// One window's side of the agent-hooks bridge: the private endpoint, the window's record in the
// registry, and the handler that finds the folder's session for the event's `cwd` and answers.
// The VS Code face supplies the sessions and logs the decisions; nothing here imports vscode.
import { rmSync } from 'node:fs';
import type { Server } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../log';
import { isAgentHookEvent } from './events';
import {
  endpointPath,
  ensurePrivateDir,
  listenEndpoint,
  newId,
  newToken,
  PROTOCOL_VERSION,
  hookRequestProblem,
  type EndpointKinds,
  type HookReply,
  type HookRequest,
} from './endpoint';
import { pointsOf, EVENT_POINTS } from './events';
import { answerHookEvent, type DecisionRecord, type HookSessionPort } from './mapping';
import {
  innermost,
  recordRuntime,
  removeStaleWindows,
  removeWindowRecord,
  writeWindowRecord,
  type WindowRecord,
} from './registry';

export interface HookSessionEntry {
  /** Absolute folder path of the session. */
  folder: string;
  session: HookSessionPort;
}

export interface HookWindowOptions {
  /** Where the endpoint may live, best first (hooksDirs()): the first usable one is taken. */
  dirs: readonly string[];
  /** The program the launchers run the bridge with (the extension host's process.execPath). */
  runtime: string;
  /** Every workspace folder of the window (what the record advertises). */
  folders(): string[];
  /** The running sessions (a folder without one answers "no decision"). */
  sessions(): HookSessionEntry[];
  /** Every answered event, with the time the window spent on it. */
  onDecision?(record: DecisionRecord, folder: string | undefined, elapsedMs: number): void;
  logger: Logger;
}

/** Time kept back so the answer reaches the bridge before its own deadline, even on a busy machine. */
const ANSWER_MARGIN_MS = 500;

/** The points whose required members the bridge refuses for when this window cannot be asked. */
const GUARDED_POINTS = [...new Set(Object.keys(EVENT_POINTS).flatMap((e) => pointsOf(e)))];

/** The kinds of request a window's endpoint serves, one entry each (endpoint.ts RequestKind). */
function requestKinds(holder: { win?: HookWindow }): EndpointKinds {
  return {
    hook: { check: hookRequestProblem, handle: (req) => holder.win!.handle(req as HookRequest) },
  };
}

export class HookWindow {
  private constructor(
    private readonly opts: HookWindowOptions,
    readonly dir: string,
    readonly id: string,
    readonly endpoint: string,
    private readonly token: string,
    private readonly server: Server | undefined,
    private readonly startedAt: number,
    /** Why the window has no endpoint (then hooks are answered by the bridge alone: see open()). */
    readonly problem?: string,
  ) {}

  /**
   * Creates the private directory, listens, records the runtime and this window, in the first of
   * `dirs` where that works. When listening works nowhere, the window is still recorded, without
   * an endpoint and with `problem` set, where a directory could be made: the bridge then refuses
   * what its required extensions would have ruled on instead of letting everything through. Throws
   * only when no directory is usable at all.
   */
  static async open(opts: HookWindowOptions): Promise<HookWindow> {
    const problems: string[] = [];
    let recordDir: string | undefined;
    for (const dir of opts.dirs) {
      try {
        ensurePrivateDir(dir);
      } catch (err) {
        problems.push((err as Error).message);
        continue;
      }
      recordDir ??= dir;
      removeStaleWindows(dir);
      const id = newId();
      const token = newToken();
      const endpoint = endpointPath(dir, id);
      // The server exists before the window object that handles its requests.
      const holder: { win?: HookWindow } = {};
      let server: Server;
      try {
        server = await listenEndpoint(endpoint, token, requestKinds(holder), (m) => opts.logger.warn(m));
      } catch (err) {
        problems.push(`could not listen on ${endpoint}: ${(err as Error).message}`);
        continue;
      }
      const win = (holder.win = new HookWindow(opts, dir, id, endpoint, token, server, Date.now()));
      recordRuntime(dir, opts.runtime);
      win.updateFolders();
      return win;
    }
    const why = problems.join('; ') || 'no directory to open it in';
    if (!recordDir) throw new Error(why);
    const win = new HookWindow(opts, recordDir, newId(), '', newToken(), undefined, Date.now(), why);
    recordRuntime(recordDir, opts.runtime);
    win.updateFolders();
    return win;
  }

  /** Re-writes the record (call when workspace folders, or the extensions running in them, change). */
  updateFolders(): void {
    const record: WindowRecord = {
      v: PROTOCOL_VERSION,
      id: this.id,
      pid: process.pid,
      endpoint: this.endpoint,
      token: this.token,
      folders: this.opts.folders(),
      startedAt: this.startedAt,
      required: this.requiredByFolder(),
    };
    if (this.problem) record.problem = this.problem;
    writeWindowRecord(this.dir, record);
  }

  /** Per folder, the guarded points where a required extension takes part (the dispatcher's answer). */
  private requiredByFolder(): Record<string, Record<string, string[]>> {
    const out: Record<string, Record<string, string[]>> = {};
    for (const { folder, session } of this.opts.sessions()) {
      for (const point of GUARDED_POINTS) {
        const ids = session
          .interceptorsAt(point)
          .filter((m) => m.required)
          .map((m) => m.pluginId);
        if (ids.length) (out[folder] ??= {})[point] = ids;
      }
    }
    return out;
  }

  async handle(req: HookRequest): Promise<HookReply> {
    const t0 = performance.now();
    if (!isAgentHookEvent(req.event)) return { v: PROTOCOL_VERSION, note: `unknown hook event "${String(req.event)}"` };
    const input = req.input && typeof req.input === 'object' ? req.input : {};
    const cwd = typeof input.cwd === 'string' ? input.cwd : '';
    const hit = cwd ? innermost(this.opts.sessions(), (s) => [s.folder], cwd) : undefined;
    if (!hit) {
      this.opts.onDecision?.(
        {
          event: req.event,
          decision: 'none',
          note: `no running Reasonix session for ${cwd || 'an event without cwd'}`,
        },
        undefined,
        performance.now() - t0,
      );
      return {
        v: PROTOCOL_VERSION,
        note: `no running Reasonix session in this window serves ${cwd || 'an event without cwd'}`,
      };
    }
    // budgetMs was checked where the request was read (endpoint.ts budgetProblem).
    const r = await answerHookEvent(req.event, input, hit.item.session, {
      deadlineAt: Date.now() + req.budgetMs - ANSWER_MARGIN_MS,
    });
    this.opts.onDecision?.(r.record, hit.folder, performance.now() - t0);
    return r.answer ? { v: PROTOCOL_VERSION, answer: r.answer } : { v: PROTOCOL_VERSION, note: r.record.note };
  }

  async close(): Promise<void> {
    removeWindowRecord(this.dir, this.id);
    const server = this.server;
    if (!server) return;
    await new Promise<void>((r) => server.close(() => r()));
    if (process.platform !== 'win32') rmSync(this.endpoint, { force: true });
  }
}
