// One plugin runtime: its process, its validated connection and its lifecycle (HOST_SPEC §2).
// Each start creates a fresh `Proc`; events from an older process are ignored by identity. What
// the host serves lives in handlers.ts (one map by method), what went wrong in failures.ts.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { ContentStore } from '../content';
import { scopedLogger, silentLogger, type Logger } from '../log';
import type { PluginSpec, ToolDecl } from '../plugins';
import { redact } from '../redact';
import {
  InvalidResultError,
  ValidatedConnection,
  type ConnectionEnd,
  type RequestOptions,
  type FrameTap,
} from '../wire';
import {
  contractFor,
  ProtocolError,
  type Contract,
  type ErrorReason,
  type EventParams,
  type InitializeResult,
  type UIActionDecl,
} from '../../protocol';
import { Emitter, type Disposable } from '../emitter';
import { transition } from '../states';
import { SIDECAR_TABLE, type SidecarState } from './lifecycle';
import {
  crashFailure,
  describeExit,
  failureLogLine,
  HANDSHAKE_TIMEOUT_REASON,
  handshakeProblem,
  shutdownProblem,
  SidecarFailure,
  startFailure,
  type FailureInfo,
  type StartProblem,
} from './failures';
import { inboundHandlers, type HostHandlers } from './handlers';
import {
  acceptedUiActions,
  checkInitializeResult,
  handshakeWarnings,
  initializeParams,
  redactInitializeResult,
  servedTools,
  type SessionContextInput,
  type UiHost,
} from './handshake';
import { killTree, launch, resolveCommand, type DebugLaunch } from './spawn';
import { StderrRing } from './stderr';
import { StderrLines } from './stderrLines';

export type { SidecarState } from './lifecycle';

export interface SidecarTimeouts {
  handshakeMs: number;
  shutdownRequestMs: number;
  exitGraceMs: number;
  reapMs: number;
  writeStallMs: number;
  /**
   * How long to hold `extension/initialized` back after a valid initialize result (0: send it at
   * once). `check` uses this to catch, every time, a sidecar that does not wait for it.
   */
  barrierProbeMs: number;
}

export const DEFAULT_TIMEOUTS: SidecarTimeouts = {
  handshakeMs: 30_000,
  shutdownRequestMs: 5_000,
  exitGraceMs: 750,
  reapMs: 5_000,
  writeStallMs: 10_000,
  barrierProbeMs: 0,
};

/**
 * How long a sidecar's stdout/stderr may stay open after its process exited (a descendant holding
 * them) before the host closes its ends: enough for the last frames and stderr bytes in flight.
 */
export const PIPE_GRACE_MS = 250;

/** How the last `stop()` of a running sidecar went, for `check`'s shutdown verdict. */
export interface StopOutcome {
  /** The sidecar answered `extension/shutdown` (whatever it said). */
  answered: boolean;
  /** Why it did not answer: the process died, or the request timed out. */
  problem?: { reason: ErrorReason; message: string };
  /**
   * It answered with a result the schema refuses (e.g. `{}`, no `accepted`): like the reference,
   * shutdown ignores the answer and goes on closing (HOST_SPEC §2.6, HOST_SPEC_V2 V2-53); `check`
   * reports it as a warning. Redacted.
   */
  invalidAnswer?: string;
  /** It exited by itself within the grace after its stdin closed. */
  exitedWithinGrace: boolean;
  exitCode: number | null;
  signal: string | null;
}

export interface SidecarOptions {
  plugin: PluginSpec;
  session: SessionContextInput;
  uiHost: UiHost;
  /** What the host serves this sidecar besides `host/content/read`, which the sidecar serves itself. */
  handlers?: HostHandlers;
  timeouts?: Partial<SidecarTimeouts>;
  /** Protocol frames at trace (redacted), stderr lines at debug. */
  logger?: Logger;
  /** Frames are traced only while this returns true (default: never), so the hot path stays lean. */
  traceEnabled?: () => boolean;
  /** stderr lines are logged only while this returns true (default: whenever a logger is given). */
  debugEnabled?: () => boolean;
  /** Where every frame both ways goes, for a protocol trace (src/host/trace); asked per frame. */
  frameTap?: () => FrameTap | undefined;
  /**
   * Asked at each start: when it returns a launch, the process runs under a debugger (Debug
   * Extension…) and its handshake has no deadline, since the debugger may hold it at its first
   * line for as long as the author needs; when it returns nothing, the normal start and budget.
   */
  debugLaunch?: () => DebugLaunch | undefined;
}

interface Exit {
  code: number | null;
  signal: string | null;
}

/** One launched process and everything that lives exactly as long as it. */
class Proc {
  readonly ring = new StderrRing();
  lines: StderrLines | undefined;
  readonly content = new ContentStore();
  conn!: ValidatedConnection;
  exit: Exit | undefined;
  readonly exited: Promise<Exit>;
  readonly closed: Promise<void>;
  seq = 0;
  eventDropWarned = false;
  violationWarned = false;
  crashed = false;
  constructor(readonly child: ChildProcessWithoutNullStreams) {
    this.exited = new Promise<Exit>((resolve) => {
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      });
      // A spawn failure (ENOENT, EACCES) emits 'error' and never 'exit'.
      child.once('error', () => {
        if (child.pid === undefined) {
          this.exit = { code: null, signal: null };
          resolve(this.exit);
        }
      });
    });
    this.closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    // A descendant that escaped every kill (one that cleared its environment, docs/reliability.md)
    // may hold our end of stdout/stderr open for ever: once the process itself has exited, its
    // pipes get PIPE_GRACE_MS to drain, then they are closed here, so the connection ends, pending
    // calls fail with the exit, and the host's event loop is not kept alive by them.
    void this.exited.then(() => {
      let isClosed = false;
      void this.closed.then(() => (isClosed = true));
      setTimeout(() => {
        if (isClosed) return;
        child.stdout.destroy();
        child.stderr.destroy();
        child.stdin.destroy();
      }, PIPE_GRACE_MS).unref();
    });
  }
  /** True when the process ended within `ms`. */
  waitExit(ms: number): Promise<boolean> {
    if (this.exit) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

/** Whatever ends a start early lands here: the first problem wins, and `aborted` resolves. */
class StartAbort {
  problem: StartProblem | undefined;
  readonly aborted: Promise<void>;
  private wake: () => void = noop;

  constructor() {
    this.aborted = new Promise<void>((resolve) => (this.wake = resolve));
  }

  readonly abort = (p: StartProblem): void => {
    if (!this.problem) this.problem = p;
    this.wake();
  };
}

export class Sidecar {
  readonly pluginId: string;
  readonly plugin: PluginSpec;
  /** The protocol its manifest picked; its connection speaks only this one. */
  readonly contract: Contract;
  private readonly opts: SidecarOptions;
  private readonly t: SidecarTimeouts;
  /** Lines about this plugin, prefixed with its id. */
  private readonly log: Logger;
  private readonly debugOn: () => boolean;
  private _state: SidecarState = 'idle';
  private _session: SessionContextInput;
  private proc: Proc | undefined;
  private lastContent = new ContentStore();
  private _readyAt: number | undefined;
  private _initResult: InitializeResult | undefined;
  private _uiActions: UIActionDecl[] = [];
  private _tools: ToolDecl[] = [];
  private _notes: string[] = [];
  private startPromise: Promise<void> | undefined;
  private stopPromise: Promise<void> | undefined;
  private _lastStop: StopOutcome | undefined;
  private _debugging = false;
  private abortStart: ((problem: StartProblem) => void) | undefined;
  private readonly stateChanged = new Emitter<{ state: SidecarState; previous: SidecarState }>((err) =>
    this.log.error(`state listener failed: ${redact(String(err))}`),
  );
  private readonly crashed = new Emitter<FailureInfo>((err) =>
    this.log.error(`crash listener failed: ${redact(String(err))}`),
  );

  constructor(opts: SidecarOptions) {
    this.opts = opts;
    this.plugin = opts.plugin;
    this.pluginId = opts.plugin.id;
    this.contract = contractFor(opts.plugin.protocol);
    this._session = { ...opts.session };
    this.t = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
    this.log = scopedLogger(opts.logger ?? silentLogger, opts.plugin.id);
    const hasLogger = opts.logger !== undefined && opts.logger !== silentLogger;
    this.debugOn = opts.debugEnabled ?? (() => hasLogger);
  }

  get state(): SidecarState {
    return this._state;
  }
  get pid(): number | undefined {
    return this.proc?.child.pid;
  }
  get readyAt(): number | undefined {
    return this._readyAt;
  }

  /**
   * Resolves once the last process started has exited and its pipes are closed (at once when none
   * was started): by then its exit and its end of the connection have both been seen, so nothing
   * more can come of that process (a crash is reported once, whichever of the two came first).
   */
  processClosed(): Promise<void> {
    return this.proc?.closed ?? Promise.resolve();
  }
  get session(): SessionContextInput {
    return { ...this._session };
  }
  /** The runtime generation the sidecar was (last) started in; read per stream chunk, so no copy. */
  get generation(): number {
    return this._session.generation;
  }
  get initializeResult(): InitializeResult | undefined {
    return this._initResult;
  }
  get uiActions(): UIActionDecl[] {
    return this._uiActions.map((a) => ({ ...a }));
  }
  /** What the last handshake said that is kept for diagnostics only (logged as warnings, never a failure). */
  get handshakeNotes(): readonly string[] {
    return this._notes;
  }
  /** The tools the running process serves (v2): declared in the manifest and named at handshake. */
  get tools(): readonly ToolDecl[] {
    return this._tools;
  }
  /** The current (or last) process was launched under a debugger: its handshake had no deadline. */
  get debugging(): boolean {
    return this._debugging;
  }
  get lastStop(): StopOutcome | undefined {
    return this._lastStop;
  }
  get content(): ContentStore {
    return this.proc?.content ?? this.lastContent;
  }

  onStateChange(listener: (state: SidecarState, previous: SidecarState) => void): Disposable {
    return this.stateChanged.event((e) => listener(e.state, e.previous));
  }

  /** Fires exactly once for each process that reached `running` and then died unasked. */
  onCrash(listener: (info: FailureInfo) => void): Disposable {
    return this.crashed.event(listener);
  }

  stderrTail(): string {
    return this.proc?.ring.text() ?? '';
  }

  nextInterceptSeq(): number {
    if (!this.proc) throw new ProtocolError('provider_interrupted', this.notRunningMessage());
    return ++this.proc.seq;
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  start(session?: SessionContextInput): Promise<void> {
    if (this.startPromise) return this.startPromise;
    if (session) this._session = { ...session };
    if (this._state === 'running') return Promise.resolve();
    if (this._state === 'stopping' && this.stopPromise) return this.stopPromise.then(() => this.start(session));
    const p = this.doStart().finally(() => {
      if (this.startPromise === p) this.startPromise = undefined;
    });
    this.startPromise = p;
    return p;
  }

  stop(): Promise<void> {
    if (this.stopPromise) return this.stopPromise;
    switch (this._state) {
      case 'starting': {
        const starting = this.startPromise;
        this.abortStart?.({
          stage: 'handshake',
          reason: 'provider_interrupted',
          message: 'startup was cancelled by stop()',
        });
        this.stopPromise = (starting ?? Promise.resolve()).then(noop, noop).then(() => this.setState('stopped'));
        return this.stopPromise;
      }
      case 'running':
        this.stopPromise = this.doStop();
        return this.stopPromise;
      default:
        return Promise.resolve();
    }
  }

  async restart(session?: SessionContextInput): Promise<void> {
    await this.stop();
    await this.start(session);
  }

  // ---- traffic ----------------------------------------------------------------------------------

  request<R>(
    method: string,
    params: object,
    opts?: {
      timeoutMs?: number;
      timeoutReason?: ErrorReason;
      signal?: AbortSignal;
      paramsJson?: string;
      failOnUnusableAnswer?: boolean;
    },
  ): Promise<R> {
    const proc = this.proc;
    if (this._state !== 'running' || !proc)
      return Promise.reject(new ProtocolError('provider_interrupted', this.notRunningMessage()));
    return proc.conn.request<R>(method, params, opts as RequestOptions | undefined);
  }

  notify(method: string, params: object): void {
    const proc = this.proc;
    if (this._state !== 'running' || !proc) throw new ProtocolError('provider_interrupted', this.notRunningMessage());
    proc.conn.notify(method, params);
  }

  sendEvent(params: EventParams): boolean {
    const proc = this.proc;
    if (this._state !== 'running' || !proc) return false;
    const sent = proc.conn.sendEvent(params);
    if (!sent && !proc.eventDropWarned) {
      proc.eventDropWarned = true;
      this.log.warn(
        `event queue full: dropping extension/event (${params.event}) and further overflow for this process`,
      );
    }
    return sent;
  }

  // ---- internals -------------------------------------------------------------------------------

  private notRunningMessage(): string {
    return this._state === 'crashed'
      ? `sidecar ${this.pluginId} crashed`
      : `sidecar ${this.pluginId} is not running (${this._state})`;
  }

  private setState(event: SidecarState): void {
    const prev = this._state;
    if (prev === event) return;
    const next = transition(`sidecar ${this.pluginId}`, SIDECAR_TABLE, prev, event);
    this._state = next;
    this.stateChanged.fire({ state: next, previous: prev });
  }

  private async doStart(): Promise<void> {
    const started = Date.now();
    this.resetForStart();
    const launched = this.launchProcess();
    if (!launched.ok) throw await this.failStart(undefined, started, launched.problem, launched.cause);
    const { proc } = launched;
    const early = new StartAbort();
    this.abortStart = early.abort;
    this.wireProcess(proc, early.abort, launched.command);
    try {
      await this.completeHandshake(proc, early, started);
    } catch (err) {
      if (err instanceof SidecarFailure) throw err;
      throw await this.failStart(proc, started, early.problem ?? handshakeProblem(err, this.t.handshakeMs), err);
    }
  }

  /** Forgets what the last process said and enters `starting`. */
  private resetForStart(): void {
    this.stopPromise = undefined;
    this._readyAt = undefined;
    this._initResult = undefined;
    this._uiActions = [];
    this._tools = [];
    this._notes = [];
    this.setState('starting');
  }

  /** Launches the plugin's command as a fresh process record, or says why it was refused or failed. */
  private launchProcess():
    { ok: true; proc: Proc; command: string } | { ok: false; problem: StartProblem; cause?: unknown } {
    const cmd = resolveCommand(this.plugin);
    if (!cmd.ok) {
      this.proc = undefined;
      return {
        ok: false,
        problem: { stage: 'spawn', reason: 'internal', message: `refused to launch: ${cmd.message}` },
      };
    }
    let child: ChildProcessWithoutNullStreams;
    const debug = this.opts.debugLaunch?.();
    this._debugging = debug !== undefined;
    if (debug) this.log.info(`starting under a debugger: ${redact([debug.command, ...debug.args].join(' '))}`);
    // What is actually spawned, for the messages: under a debugger, its interpreter or debug server.
    const program = debug ? debug.command : cmd.command;
    try {
      child = launch(this.plugin, cmd.command, debug);
    } catch (err) {
      this.proc = undefined; // as when refused: the last process's record is not this start's
      const message = `could not launch ${program}: ${(err as Error).message}`;
      return { ok: false, problem: { stage: 'spawn', reason: 'internal', message }, cause: err };
    }
    const proc = new Proc(child);
    this.proc = proc;
    this.lastContent = proc.content;
    return { ok: true, proc, command: program };
  }

  /**
   * Sends extension/initialize, checks the answer, holds extension/initialized back for the barrier
   * probe, and goes running, with no await between the last check and running.
   */
  private async completeHandshake(proc: Proc, early: StartAbort, started: number): Promise<void> {
    const probeMs = this.t.barrierProbeMs;
    const init = proc.conn.request<InitializeResult>(
      'extension/initialize',
      initializeParams(this.plugin, this._session, this.opts.uiHost, this.contract),
      {
        // Counted from spawn: the request is written right after launch, before any await. None
        // under a debugger: it may hold the sidecar at its first line (Debug Extension…).
        timeoutMs: this._debugging ? undefined : this.t.handshakeMs,
        timeoutReason: HANDSHAKE_TIMEOUT_REASON,
        // The barrier opens at the valid result's place in the wire (HOST_SPEC §2.4: "after
        // validation the host marks the connection ready"), synchronously, so whether a frame
        // written right behind the result is accepted never depends on how the pipe chunked it.
        onResult: (r) => {
          if (probeMs === 0 && !checkInitializeResult(this.plugin, r as InitializeResult, this.contract))
            proc.conn.markReady();
        },
      },
    );
    init.catch(noop);
    const result = await Promise.race([init, early.aborted.then(() => undefined)]);
    if (early.problem || !result)
      throw await this.failStart(
        proc,
        started,
        early.problem ?? { stage: 'handshake', reason: 'internal', message: 'handshake aborted' },
      );
    const bad = checkInitializeResult(this.plugin, result, this.contract);
    if (bad) throw await this.failStart(proc, started, { stage: 'handshake', ...bad });
    if (probeMs > 0) {
      // Anything the sidecar sends now was sent before it could have read extension/initialized.
      await Promise.race([new Promise((r) => setTimeout(r, probeMs)), early.aborted]);
      if (early.problem) throw await this.failStart(proc, started, early.problem);
    }
    this.becomeRunning(proc, result, started);
  }

  /** Keeps what the handshake said, opens the barrier, sends extension/initialized, enters `running`. */
  private becomeRunning(proc: Proc, result: InitializeResult, started: number): void {
    this._initResult = redactInitializeResult(result);
    this._uiActions = acceptedUiActions(result, this.log);
    this._tools = servedTools(this.plugin, result);
    this._notes = handshakeWarnings(this.plugin, result);
    for (const w of this._notes) this.log.warn(w);
    proc.conn.markReady();
    proc.conn.notify('extension/initialized', {});
    this.abortStart = undefined;
    this._readyAt = Date.now();
    this.setState('running');
    this.log.info(
      `running (pid ${proc.child.pid}, ${this._initResult.name} ${this._initResult.version}) after ${this._readyAt - started} ms`,
    );
  }

  /** Kills what was launched, waits (bounded) for it, records the failure and builds the error. */
  private async failStart(
    proc: Proc | undefined,
    started: number,
    problem: StartProblem,
    cause?: unknown,
  ): Promise<SidecarFailure> {
    this.abortStart = undefined;
    const info = startFailure(this.pluginId, problem, Date.now() - started);
    if (proc) {
      proc.crashed = true; // a process that never reached running is never reported as a crash
      killTree(proc.child);
      proc.conn?.dispose('startup failed');
      await proc.waitExit(this.t.reapMs);
      await settleStderr(proc);
      info.stderrTail = proc.ring.text();
      info.exitCode = proc.exit?.code ?? null;
      info.signal = proc.exit?.signal ?? null;
      info.elapsedMs = Date.now() - started;
    }
    if (this.proc === proc) this.setState('failed');
    this.log.error(failureLogLine(info));
    return new SidecarFailure(info, { cause });
  }

  private wireProcess(proc: Proc, abort: (p: StartProblem) => void, command: string): void {
    const { child } = proc;
    // Streams may error after the connection let go of them (EPIPE on a dead child); never let
    // that become an uncaught 'error' event.
    child.stdin.on('error', noop);
    child.stdout.on('error', noop);
    child.stderr.on('error', noop);
    child.stderr.on('data', (chunk: Buffer) => {
      proc.ring.push(chunk);
      if (this.debugOn()) {
        proc.lines ??= new StderrLines((line) => this.log.debug(`stderr: ${line}`));
        proc.lines.push(chunk);
      }
    });
    child.stderr.once('close', () => proc.lines?.flush());
    child.on('error', (err: Error) => {
      if (child.pid === undefined)
        abort({ stage: 'spawn', reason: 'internal', message: `could not launch ${command}: ${err.message}` });
      else this.log.warn(`process error: ${redact(err.message)}`);
    });

    proc.conn = new ValidatedConnection({
      contract: this.contract,
      input: child.stdout,
      output: child.stdin,
      writeStallMs: this.t.writeStallMs,
      logger: this.log,
      traceEnabled: this.opts.traceEnabled,
      frameTap: this.opts.frameTap,
      handlers: inboundHandlers(this.handlerMap(proc)),
    });
    proc.conn.onPeerViolation((what) => {
      // The most common author bug is a stray console.log on stdout: say so once per process.
      if (proc.violationWarned) return this.log.debug(`protocol violation: ${what}`);
      proc.violationWarned = true;
      this.log.warn(`protocol violation: ${what} (further violations of this process are logged at debug)`);
    });
    proc.conn.onBarrierViolation((method) => {
      abort({
        stage: 'handshake',
        reason: 'protocol_error',
        message: `the sidecar sent ${method} before extension/initialized`,
      });
    });
    proc.conn.onEnd((end) => this.connectionEnded(proc, end, abort));
    void proc.exited.then((exit) => {
      if (this.proc !== proc) return;
      if (this._state === 'starting') {
        abort({
          stage: 'handshake',
          reason: 'provider_interrupted',
          message: `the process exited during the handshake (${describeExit(exit)})`,
        });
      } else if (this._state === 'running') {
        this.crash(proc, `the process exited (${describeExit(exit)})`);
      }
    });
  }

  private connectionEnded(proc: Proc, end: ConnectionEnd, abort: (p: StartProblem) => void): void {
    if (end.local || this.proc !== proc) return;
    if (this._state === 'starting') {
      const reason: ErrorReason = end.reason === 'frame_too_large' ? 'frame_too_large' : 'provider_interrupted';
      abort({ stage: 'handshake', reason, message: `the connection failed during the handshake: ${end.message}` });
    } else if (this._state === 'running') {
      this.crash(proc, end.message);
    }
  }

  private crash(proc: Proc, cause: string): void {
    if (proc.crashed) return;
    proc.crashed = true;
    const started = this._readyAt ?? Date.now();
    this.setState('crashed');
    killTree(proc.child);
    proc.conn.dispose(`sidecar ${this.pluginId} crashed`);
    proc.content.clear();
    void (async () => {
      await proc.waitExit(this.t.reapMs);
      await settleStderr(proc);
      const info = crashFailure(this.pluginId, cause, {
        stderrTail: proc.ring.text(),
        elapsedMs: Date.now() - started,
        exitCode: proc.exit?.code ?? null,
        signal: proc.exit?.signal ?? null,
      });
      this.log.error(failureLogLine(info));
      this.crashed.fire(info);
    })();
  }

  private async doStop(): Promise<void> {
    const proc = this.proc as Proc;
    const wasRunning = this._state === 'running';
    this.setState('stopping'); // before anything is sent, so the ensuing EOF is not a crash
    proc.crashed = true;
    proc.conn.beginShutdown();
    const outcome: StopOutcome = { answered: false, exitedWithinGrace: false, exitCode: null, signal: null };
    if (wasRunning && !proc.conn.ended && !proc.exit) {
      try {
        await proc.conn.request(
          'extension/shutdown',
          { timeoutMillis: this.t.shutdownRequestMs },
          { timeoutMs: this.t.shutdownRequestMs, timeoutReason: 'shutdown_timeout' },
        );
        outcome.answered = true;
      } catch (err) {
        if (err instanceof InvalidResultError) {
          outcome.answered = true;
          outcome.invalidAnswer = err.message;
          this.log.debug(`extension/shutdown answered with ${err.message}; ignored, closing as usual`);
        } else outcome.problem = shutdownProblem(err, endedHow(proc));
        this.log.debug(`extension/shutdown: ${redact((err as Error).message)}`);
      }
    } else if (wasRunning) {
      outcome.problem = shutdownProblem(undefined, endedHow(proc));
    }
    proc.conn.end(); // close stdin
    if (!(await proc.waitExit(this.t.exitGraceMs))) {
      this.log.warn(`did not exit within ${this.t.exitGraceMs} ms of shutdown; killing its process group`);
      killTree(proc.child);
      await proc.waitExit(this.t.reapMs);
    } else {
      outcome.exitedWithinGrace = true;
      killTree(proc.child); // the leader is gone; reap anything it left in its group
    }
    outcome.exitCode = proc.exit?.code ?? null;
    outcome.signal = proc.exit?.signal ?? null;
    this._lastStop = outcome;
    proc.conn.dispose('stopped');
    proc.content.clear();
    this.setState('stopped');
  }

  /** The plugin's handler map plus the content pages of this process (refs die with it). */
  private handlerMap(proc: Proc): HostHandlers {
    return { ...this.opts.handlers, 'host/content/read': (params) => proc.content.readEncoded(params) };
  }
}

function noop(): void {}

/** How the process or its connection ended, when one of them did. */
function endedHow(proc: Proc): { exit?: string; connection?: string } | undefined {
  if (proc.exit) return { exit: describeExit(proc.exit) };
  if (proc.conn.ended) return { connection: proc.conn.ended.message };
  return undefined;
}

/** Lets the last stderr bytes arrive after exit, but never waits on a pipe a grandchild holds. */
async function settleStderr(proc: Proc): Promise<void> {
  await Promise.race([proc.closed, new Promise<void>((r) => setTimeout(r, 200).unref())]);
}
