// The window's ACP client of the user's Reasonix: one `reasonix acp` process, sessions per folder.
// Built on @agentclientprotocol/sdk (framing, requests, typed handlers for the standard methods),
// with one filter in front of it: Reasonix's vendor messages (`_reasonix.io/extension_surface`
// session updates, `_reasonix.io/session/status_update`) are taken off the stream before the SDK
// sees them, because its stable session-update router parses every `session/update` with the ACP
// schema and drops a vendor one as "Invalid params" (measured against 1.38.11: every structured
// surface was lost). The filter also drops each surface's text fallback, the `agent_message_chunk`
// 1.38.11 sends right after the structured update, so a surface is never shown twice.
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import type { AnyMessage, ClientConnection } from '@agentclientprotocol/sdk';
import { Emitter, type Disposable } from '../emitter';
import { silentLogger, type Logger } from '../log';
import { redact } from '../redact';
import type { SurfaceStore, UiFrontEnd } from '../ui';
import { AcpError, type AcpStage } from './errors';
import { CLIENT_META, EXTENSION_SURFACE_UPDATE } from './extensionSurface';
import { SessionFiles, type DocumentAccess } from './files';
import { AcpProcess } from './process';
import type { PermissionAsker, PermissionRequestLike } from './prompts';
import { ReasonixSession, type NewSessionLike, type SessionPeer } from './session';

/** One ACP line at most (the SDK's bound; the same 8 MiB the extension wire allows). */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
/** Vendor updates held for a session whose `session/new` has not answered yet (its extensions start first). */
const MAX_EARLY_UPDATES = 512;

export interface AcpClientOptions {
  /** The user's Reasonix binary. */
  bin: string;
  /** Extra arguments after `acp` (e.g. `--model …`). */
  args?: readonly string[];
  /** Folder the process runs in (sessions name their own cwd). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  logger?: Logger;
  /** `initialize` answer budget (default 15 s): past it Reasonix is taken for hung and stopped. */
  initializeTimeoutMs?: number;
  /** `session/new` answer budget (default 60 s: its extensions start first). */
  sessionTimeoutMs?: number;
  /**
   * The editor's documents: with them `fs.readTextFile`/`fs.writeTextFile` are advertised and
   * Reasonix's file tools read and write through them, inside each session's folder (files.ts).
   */
  documents?: DocumentAccess;
}

export type ClientState = 'stopped' | 'starting' | 'running' | 'failed';

export interface OpenSessionOptions {
  /** Absolute folder the session is about. */
  cwd: string;
  folderName: string;
  store: SurfaceStore;
  frontEnd?: UiFrontEnd;
  permissions?: PermissionAsker;
  /**
   * Reopen this persisted session (`session/load`, when Reasonix advertises `loadSession`) instead
   * of a new one. Its replayed transcript is not delivered (the chat that asks already shows it).
   */
  load?: string;
}

export class ReasonixAcpClient {
  private proc: AcpProcess | undefined;
  private conn: ClientConnection | undefined;
  private starting: Promise<void> | undefined;
  private _state: ClientState = 'stopped';
  private _failure: AcpError | undefined;
  private readonly bySessionId = new Map<string, ReasonixSession>();
  /** Updates for session ids not known yet, in arrival order (bounded). */
  private early: { sessionId: string; msg: AnyMessage }[] = [];
  /** Sessions whose last update was a structured surface: their next text chunk is its fallback. */
  private readonly fallbackDue = new Set<string>();
  /** A session being loaded: its standard updates are the replayed transcript, not delivered. */
  private replaying: string | undefined;
  private openQueue: Promise<unknown> = Promise.resolve();
  private readonly log: Logger;
  private readonly failed = new Emitter<AcpError>();
  readonly onDidFail = this.failed.event;
  /** What `initialize` answered in `agentCapabilities._meta` (the vendor capabilities). */
  agentMeta: Record<string, unknown> = {};
  /** Whether `initialize` advertised `loadSession`. */
  canLoad = false;

  constructor(private readonly o: AcpClientOptions) {
    this.log = o.logger ?? silentLogger;
  }

  get state(): ClientState {
    return this._state;
  }

  get failure(): AcpError | undefined {
    return this._failure;
  }

  get pid(): number | undefined {
    return this.proc?.child.pid;
  }

  sessions(): ReasonixSession[] {
    return [...this.bySessionId.values()];
  }

  /** Starts `reasonix acp` and initializes it; a second call while starting waits for the first. */
  start(): Promise<void> {
    if (this._state === 'running') return Promise.resolve();
    this.starting ??= this.doStart().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** Opens an ACP session in `cwd`; its extensions start now and their surfaces go into `store`. */
  openSession(opts: OpenSessionOptions): Promise<ReasonixSession> {
    // One `session/new` at a time: the updates that come before its answer belong to it.
    const run = this.openQueue.then(() => this.doOpen(opts));
    this.openQueue = run.catch(() => undefined);
    return run;
  }

  /** Closes every session and stops the process (its extensions stop with it). */
  async dispose(): Promise<void> {
    for (const s of this.sessions()) await s.close().catch(() => undefined);
    const proc = this.proc;
    this._state = 'stopped';
    this.conn?.close();
    this.conn = undefined;
    await proc?.stop();
    this.failed.clear();
  }

  private async doStart(): Promise<void> {
    this._state = 'starting';
    this._failure = undefined;
    let proc: AcpProcess;
    try {
      proc = new AcpProcess({
        bin: this.o.bin,
        args: ['acp', ...(this.o.args ?? [])],
        cwd: this.o.cwd,
        env: this.o.env,
      });
    } catch (err) {
      throw this.fail(new AcpError('start', 'spawn', `could not start ${this.o.bin} acp: ${(err as Error).message}`));
    }
    this.proc = proc;
    const spawned = new Promise<void>((resolve, reject) => {
      proc.child.once('spawn', () => resolve());
      proc.child.once('error', (err) => reject(err));
    });
    try {
      await spawned;
    } catch (err) {
      throw this.fail(new AcpError('start', 'spawn', `could not start ${this.o.bin} acp: ${(err as Error).message}`));
    }
    const conn = this.connect(proc);
    this.conn = conn;
    void proc.exit.then(() => this.onExit(proc));
    // A line past the bound, or a stream error, closes the SDK's connection under a live process.
    void conn.closed.then(async () => {
      if (this.conn !== conn || this._state === 'stopped') return;
      // A line past the bound breaks the stream under a live process. Anything else that closes the
      // connection is its stdout ending because it exited: the exit reports that (onExit).
      const reason = conn.signal.reason as { message?: unknown } | undefined;
      if (!(reason instanceof acp.MessageTooLargeError)) {
        await Promise.race([proc.exit, new Promise((r) => setTimeout(r, 500))]);
        if (proc.exited || this.conn !== conn) return;
      }
      const why = redact(String(reason?.message ?? reason)).slice(0, 300);
      this.fail(
        new AcpError(
          'running',
          'garbage',
          `Reasonix's ACP connection broke (${why}); Reasonix was stopped`,
          proc.said(),
        ),
      );
      proc.kill();
    });
    const init = await this.bounded(
      'initialize',
      this.o.initializeTimeoutMs ?? 15_000,
      conn.agent.request('initialize', {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {
          fs: { readTextFile: !!this.o.documents, writeTextFile: !!this.o.documents },
          terminal: false,
          _meta: CLIENT_META,
        },
        clientInfo: { name: 'reasonix-vscode', version: '1' },
      }),
    );
    const meta = init.agentCapabilities?._meta;
    this.agentMeta = meta && typeof meta === 'object' ? (meta as Record<string, unknown>) : {};
    this.canLoad = init.agentCapabilities?.loadSession === true;
    this._state = 'running';
    this.log.info(`Reasonix ACP is running (pid ${proc.child.pid}, protocol ${init.protocolVersion})`);
  }

  private async doOpen(opts: OpenSessionOptions): Promise<ReasonixSession> {
    await this.start();
    const conn = this.conn;
    if (!conn) throw this.failure ?? new AcpError('session', 'exit', 'Reasonix is not running');
    this.early = [];
    let r: NewSessionLike;
    if (opts.load) {
      if (!this.canLoad)
        throw new AcpError('session', 'unsupported', 'this Reasonix does not offer session/load over ACP');
      this.replaying = opts.load;
      try {
        const loaded = await this.bounded(
          'session',
          this.o.sessionTimeoutMs ?? 60_000,
          conn.agent.request('session/load', { sessionId: opts.load, cwd: opts.cwd, mcpServers: [] }),
        );
        r = { ...loaded, sessionId: opts.load };
      } finally {
        this.replaying = undefined;
      }
    } else {
      r = await this.bounded(
        'session',
        this.o.sessionTimeoutMs ?? 60_000,
        conn.agent.request('session/new', { cwd: opts.cwd, mcpServers: [] }),
      );
    }
    const peer: SessionPeer = {
      request: (method, params) => this.request(method, params),
      notify: (method, params) => (this.conn ? this.conn.agent.notify(method, params) : Promise.resolve()),
      forget: (id) => this.bySessionId.delete(id),
    };
    const session = new ReasonixSession(r, { ...opts, peer, logger: this.log, agentMeta: this.agentMeta });
    this.bySessionId.set(r.sessionId, session);
    // What arrived before the answer (its extensions' first surfaces) is delivered now, in order.
    const early = this.early.filter((e) => e.sessionId === r.sessionId);
    this.early = [];
    for (const e of early) this.route(e.msg);
    return session;
  }

  private request<R>(method: string, params: object): Promise<R> {
    const conn = this.conn;
    if (!conn) return Promise.reject(this.failure ?? new AcpError('running', 'exit', 'Reasonix is not running'));
    return conn.agent.request<R>(method, params).catch(async (err: unknown) => {
      // No JSON-RPC error code: the connection closed under the request (Reasonix exited or was
      // killed mid-turn), and its stdout can close before its exit is seen. The exit is the reason.
      if (!this.failure && typeof (err as { code?: unknown })?.code !== 'number') await this.exitSeen();
      throw this.failure ?? this.refused(method, err);
    });
  }

  /** Resolves once the process's exit was seen, or after `ms` (the exit then is not the reason). */
  private exitSeen(ms = 1000): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([this.proc?.exit, new Promise((r) => (timer = setTimeout(r, ms)))]).finally(() =>
      clearTimeout(timer),
    );
  }

  private refused(method: string, err: unknown): AcpError {
    const e = err as { message?: string; code?: number };
    const said = redact(String(e?.message ?? err)).slice(0, 600);
    return new AcpError(
      method === 'session/prompt' ? 'prompt' : 'running',
      'refused',
      `Reasonix refused ${method}: ${said}`,
      said,
    );
  }

  /** The SDK connection over the process's pipes, with the vendor filter in front. */
  private connect(proc: AcpProcess): ClientConnection {
    const raw = acp.ndJsonStream(
      Writable.toWeb(proc.child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(proc.child.stdout) as unknown as ReadableStream<Uint8Array>,
      { maxMessageBytes: MAX_LINE_BYTES },
    );
    const filter = new TransformStream<AnyMessage, AnyMessage>({
      transform: (msg, out) => {
        if (!this.take(msg)) out.enqueue(msg);
      },
    });
    const app = acp.client({ name: 'reasonix-vscode' });
    app.onNotification('session/update', ({ params }) =>
      this.bySessionId.get(params.sessionId)?.onUpdate(params.update),
    );
    app.onRequest('session/request_permission', async ({ params, signal }) => {
      const s = this.bySessionId.get(params.sessionId);
      if (!s) return { outcome: { outcome: 'cancelled' } };
      return s.onPermission(params as PermissionRequestLike, signal);
    });
    const documents = this.o.documents;
    if (documents) {
      // Reasonix's file tools, through the editor's documents, inside the session's folder only.
      const served = async <R>(sessionId: string, what: string, run: (f: SessionFiles) => Promise<R>): Promise<R> => {
        const s = this.bySessionId.get(sessionId);
        if (!s) throw acp.RequestError.sessionNotFound(sessionId);
        try {
          return await run(new SessionFiles(s.cwd, documents));
        } catch (err) {
          const e = err as { code?: unknown; message?: unknown };
          if (e.code !== -32002)
            this.log.warn(`Reasonix ${what} refused in ${s.folderName}: ${redact(String(e.message ?? err))}`);
          throw err;
        }
      };
      app.onRequest('fs/read_text_file', ({ params }) =>
        served(params.sessionId, 'fs/read_text_file', (f) => f.read(params)),
      );
      app.onRequest('fs/write_text_file', ({ params }) =>
        served(params.sessionId, 'fs/write_text_file', (f) => f.write(params)),
      );
    }
    return app.connect({ readable: raw.readable.pipeThrough(filter), writable: raw.writable });
  }

  /**
   * Takes Reasonix's vendor messages off the stream (true: consumed). Runs in arrival order, so the
   * fallback that follows a structured surface is recognised exactly.
   */
  private take(msg: AnyMessage): boolean {
    const m = msg as { method?: string; id?: unknown; params?: unknown };
    if (typeof m.method !== 'string' || m.id !== undefined) return false;
    if (m.method === 'session/update') {
      const p = m.params as
        { sessionId?: unknown; update?: { sessionUpdate?: unknown; content?: unknown } } | undefined;
      const sessionId = typeof p?.sessionId === 'string' ? p.sessionId : '';
      const kind = p?.update?.sessionUpdate;
      const due = this.fallbackDue.delete(sessionId);
      if (typeof kind === 'string' && kind.startsWith('_')) {
        if (kind === EXTENSION_SURFACE_UPDATE) this.fallbackDue.add(sessionId);
        this.route(msg);
        return true;
      }
      // 1.38.11's text fallback of the surface just drawn: "\n\n" + the surface as text.
      if (due && kind === 'agent_message_chunk') {
        const c = p?.update?.content as { type?: unknown; text?: unknown } | undefined;
        if (c?.type === 'text' && typeof c.text === 'string' && c.text.startsWith('\n\n')) return true;
      }
      // A loading session's transcript replay: the chat that asked shows it already.
      if (sessionId && sessionId === this.replaying) return true;
      // Standard updates for a session still opening wait with the vendor ones (order kept).
      if (sessionId && !this.bySessionId.has(sessionId) && this.holdEarly(sessionId, msg)) return true;
      return false;
    }
    if (m.method.startsWith('_reasonix.io/')) {
      this.route(msg);
      return true;
    }
    return false;
  }

  private holdEarly(sessionId: string, msg: AnyMessage): boolean {
    if (this.early.length >= MAX_EARLY_UPDATES) {
      this.log.warn(
        `Reasonix sent more than ${MAX_EARLY_UPDATES} updates before its session opened; later ones are dropped`,
      );
      return true;
    }
    this.early.push({ sessionId, msg });
    return true;
  }

  /** Hands a taken (or held) message to its session. */
  private route(msg: AnyMessage): void {
    const m = msg as { method: string; params?: unknown };
    const p = (m.params ?? {}) as { sessionId?: unknown; update?: unknown };
    const sessionId = typeof p.sessionId === 'string' ? p.sessionId : '';
    const session = this.bySessionId.get(sessionId);
    if (!session) {
      if (sessionId) this.holdEarly(sessionId, msg);
      return;
    }
    if (m.method === 'session/update') session.onUpdate(p.update);
    else if (m.method === '_reasonix.io/session/status_update') session.onStatus(m.params);
    else this.log.debug(`Reasonix ${redact(m.method)} not used`);
  }

  /** A request that must answer within `ms`: past it Reasonix is taken for hung and stopped. */
  private async bounded<T>(stage: AcpStage, ms: number, p: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const proc = this.proc;
        const garbage = proc && proc.garbageLines > 0;
        const err = garbage
          ? new AcpError(
              stage,
              'garbage',
              `Reasonix wrote output that is not ACP (${proc.garbageLines} line(s), first: "${proc.garbageSample()}") and did not answer ${stage} within ${ms} ms`,
              proc.said(),
            )
          : new AcpError(stage, 'timeout', `Reasonix did not answer ${stage} within ${ms} ms`, proc?.said() ?? '');
        this.fail(err);
        proc?.kill();
        reject(err);
      }, ms);
    });
    try {
      return await Promise.race([p, timeout]);
    } catch (err) {
      if (err instanceof AcpError) throw err;
      // The connection closed under the request: the exit is the reason.
      await this.exitSeen(200);
      throw this.failure ?? this.fail(this.refused(stage, err));
    } finally {
      clearTimeout(timer);
    }
  }

  private onExit(proc: AcpProcess): void {
    if (this.proc !== proc) return;
    if (this._state === 'stopped') return;
    const how = proc.exitSignal ? `was stopped by ${proc.exitSignal}` : `exited with code ${proc.exitCode}`;
    const err =
      proc.garbageLines > 0
        ? new AcpError(
            'running',
            'garbage',
            `Reasonix ${how} after writing output that is not ACP (first: "${proc.garbageSample()}")`,
            proc.said(),
          )
        : new AcpError(this._state === 'starting' ? 'start' : 'running', 'exit', `Reasonix ${how}`, proc.said());
    this.fail(err);
  }

  /** Records the failure once, fails every session, and tells the face. */
  private fail(err: AcpError): AcpError {
    if (this._failure) return this._failure;
    this._failure = err;
    this._state = 'failed';
    this.conn?.close(err);
    this.conn = undefined;
    for (const s of this.sessions()) s.onClientFailed(err);
    this.log.error(`${err.message}${err.said ? ` — Reasonix said: ${err.said}` : ''}`);
    this.failed.fire(err);
    return err;
  }
}

export type { Disposable };
