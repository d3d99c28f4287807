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
  type HookReply,
  type HookRequest,
} from './endpoint';
import { answerHookEvent, type DecisionRecord, type HookSessionPort } from './mapping';
import { innermost, recordRuntime, removeStaleWindows, removeWindowRecord, writeWindowRecord } from './registry';

export interface HookSessionEntry {
  /** Absolute folder path of the session. */
  folder: string;
  session: HookSessionPort;
}

export interface HookWindowOptions {
  dir: string;
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

export class HookWindow {
  private constructor(
    private readonly opts: HookWindowOptions,
    readonly id: string,
    readonly endpoint: string,
    private readonly token: string,
    private readonly server: Server,
    private readonly startedAt: number,
  ) {}

  /** Creates the private directory, listens, records the runtime and this window. */
  static async open(opts: HookWindowOptions): Promise<HookWindow> {
    ensurePrivateDir(opts.dir);
    removeStaleWindows(opts.dir);
    const id = newId();
    const token = newToken();
    const endpoint = endpointPath(opts.dir, id);
    // The server exists before the window object that handles its requests.
    const holder: { win?: HookWindow } = {};
    const server = await listenEndpoint(
      endpoint,
      token,
      (req) => holder.win!.handle(req),
      (m) => opts.logger.warn(m),
    );
    const win = (holder.win = new HookWindow(opts, id, endpoint, token, server, Date.now()));
    recordRuntime(opts.dir, opts.runtime);
    win.updateFolders();
    return win;
  }

  /** Re-writes the record (call when workspace folders change). */
  updateFolders(): void {
    writeWindowRecord(this.opts.dir, {
      v: PROTOCOL_VERSION,
      id: this.id,
      pid: process.pid,
      endpoint: this.endpoint,
      token: this.token,
      folders: this.opts.folders(),
      startedAt: this.startedAt,
    });
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
    const budget = Number.isFinite(req.budgetMs) ? req.budgetMs : 0;
    const r = await answerHookEvent(req.event, input, hit.item.session, {
      deadlineAt: Date.now() + budget - ANSWER_MARGIN_MS,
    });
    this.opts.onDecision?.(r.record, hit.folder, performance.now() - t0);
    return r.answer ? { v: PROTOCOL_VERSION, answer: r.answer } : { v: PROTOCOL_VERSION, note: r.record.note };
  }

  async close(): Promise<void> {
    removeWindowRecord(this.opts.dir, this.id);
    await new Promise<void>((r) => this.server.close(() => r()));
    if (process.platform !== 'win32') rmSync(this.endpoint, { force: true });
  }
}
