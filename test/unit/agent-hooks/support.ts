// A "window" for the agent-hooks bridge tests: a real engine session over the interceptor fixture
// sidecars, its HookWindow endpoint in a private hooks directory, and the bridge program
// (out/src/hook.js) run as a child process exactly as the agent plugin's launcher runs it.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { HookWindow, type DecisionRecord } from '../../../src/host/hooks';
import { type McpCallRecord } from '../../../src/host/mcp';
import * as mcp from '../../../src/host/mcp';
import { Emitter } from '../../../src/host/emitter';
import type { SessionEngine } from '../../../src/host/session';
import type { Logger } from '../../../src/host/log';
import { discoverPlugins } from '../../../src/host/plugins';
import { startTestEngine, testEngine } from '../../support/engine';
import { pluginFolder } from '../../support/plugins';

export const REPO = resolve(__dirname, '..', '..', '..', '..');
export const HOOK_JS = resolve(__dirname, '..', '..', '..', 'src', 'hook.js');
export const CLI_JS = resolve(__dirname, '..', '..', '..', 'src', 'cli.js');
export const INTERCEPTOR = join(REPO, 'test', 'fixtures', 'interceptors', 'interceptor.js');
export const FIXTURES = join(REPO, 'test', 'fixtures', 'agent-hooks');

export const quiet: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** A documented input (test/fixtures/agent-hooks) with `cwd` pointing at `cwd`. */
export function fixture(name: string, cwd: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...(JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, unknown>),
    cwd,
    ...extra,
  };
}

export interface PluginDef {
  name: string;
  intercepts: string[];
  /** INTERCEPTOR_CONFIG points rules. */
  points?: Record<string, unknown>;
  required?: boolean;
  replaces?: string[];
  timeoutMillis?: number;
}

/** A scratch area: a private hooks dir (0700, as the window makes it) and workspace folders. */
export function scratch(): { root: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), 'rx-agent-hooks-'));
  chmodSync(root, 0o700);
  return { root, dir: join(root, 'hooks') };
}

export interface WindowExtras {
  /** More plugin folders (e.g. v2 tool fixtures) for the session, after the interceptors. */
  plugins?: string[];
  /** Serve MCP clients relayed by `reasonix-host mcp` (issue 24). */
  mcp?: boolean;
  /**
   * The folder waits for its first use (issue 43): the engine is not started; the window's entry
   * declares the manifests' plugins until `ready` (the first use) starts it.
   */
  lazy?: boolean;
}

export class TestWindow {
  readonly decisions: { record: DecisionRecord; folder?: string; ms: number }[] = [];
  readonly mcpCalls: McpCallRecord[] = [];
  /** Each first-use start a lazy folder was asked for, by reason (WindowExtras.lazy). */
  readonly uses: string[] = [];
  readonly recordFile: string;
  private constructor(
    readonly engine: SessionEngine,
    readonly window: HookWindow,
    readonly folder: string,
    recordFile: string,
  ) {
    this.recordFile = recordFile;
  }

  /** Starts a session for `folder` with `plugins` and opens its endpoint in `dir` (or the first of `dirs` that works). */
  static async open(
    dir: string,
    folder: string,
    plugins: PluginDef[],
    dirs: string[] = [dir],
    extras: WindowExtras = {},
  ): Promise<TestWindow> {
    mkdirSync(folder, { recursive: true });
    const base = mkdtempSync(join(tmpdir(), 'rx-agent-hooks-plugins-'));
    const recordFile = join(base, 'record.jsonl');
    writeFileSync(recordFile, '');
    const linked = plugins.map((p) => {
      return pluginFolder(join(base, p.name), p.name, {
        command: process.execPath,
        args: [INTERCEPTOR],
        capabilities: p.replaces?.length ? ['interceptors', 'strategies'] : ['interceptors'],
        intercepts: p.intercepts,
        replaces: p.replaces ?? [],
        required: p.required ?? false,
        timeoutMillis: p.timeoutMillis ?? 0,
        env: { INTERCEPTOR_CONFIG: JSON.stringify({ record: recordFile, points: p.points ?? {} }) },
      });
    });
    const engineOptions = {
      base,
      plugins: () => [...linked, ...(extras.plugins ?? [])],
      logger: quiet,
      options: { sessionKey: folder, sessionId: 'hooks-test', workspaceRoot: folder },
    };
    const engine = extras.lazy ? testEngine(engineOptions) : await startTestEngine(engineOptions);
    const holder: { w?: TestWindow } = {};
    // A lazy folder: what its manifests declare, read without a process, until its first use starts it.
    const declared = extras.lazy
      ? (await discoverPlugins({ home: join(base, 'home'), linked: engineOptions.plugins() })).plugins
      : undefined;
    let started: Promise<void> | undefined;
    const lazy = declared && {
      waiting: () => (started ? undefined : declared),
      ready: (reason?: string) => {
        holder.w?.uses.push(reason ?? '');
        return (started ??= engine.start());
      },
    };
    const sessionsChanged = new Emitter<void>();
    engine.onDidChange(() => sessionsChanged.fire());
    const window = await HookWindow.open({
      dirs,
      runtime: process.execPath,
      folders: () => [folder],
      sessions: () => [{ folder, session: engine, ...lazy }],
      onDecision: (record, f, ms) => holder.w?.decisions.push({ record, folder: f, ms }),
      mcp: extras.mcp
        ? {
            load: () => mcp,
            version: '0.0.0-test',
            onDidChangeSessions: (l) => sessionsChanged.event(l),
            onCall: (r) => holder.w?.mcpCalls.push(r),
          }
        : undefined,
      logger: quiet,
    }).catch(async (err: Error) => {
      await engine.stop();
      throw err;
    });
    holder.w = new TestWindow(engine, window, folder, recordFile);
    return holder.w;
  }

  /** What the interceptors received (one entry per intercept or event). */
  received(): { plugin: string; kind: string; event: string; payload: Record<string, unknown> }[] {
    return readFileSync(this.recordFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as never);
  }

  async close(): Promise<void> {
    await this.window.close();
    await this.engine.stop();
  }
}

export interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  answer: Record<string, unknown> | undefined;
}

/** Runs `program args` with `stdin`, the way an agent runs a hook command; collects the answer. */
export function runProgram(
  program: string,
  args: string[],
  stdin: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = 15_000,
  cwd?: string,
): Promise<HookRun> {
  const t0 = performance.now();
  const child = spawn(program, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.on('error', () => {});
  child.stdin.end(stdin);
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${program} ${args.join(' ')} did not finish within ${timeoutMs} ms\nstderr: ${stderr}`));
    }, timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - t0;
      const text = stdout.trim();
      resolvePromise({
        code,
        stdout,
        stderr,
        ms,
        answer: text && !text.includes('\n') ? (JSON.parse(text) as Record<string, unknown>) : undefined,
      });
    });
  });
}

/** The bundled bridge, run by the same runtime with ELECTRON_RUN_AS_NODE=1 as the launcher does. */
export function runHook(dir: string, event: string, input: unknown, timeoutMs?: number): Promise<HookRun> {
  const text = typeof input === 'string' ? input : JSON.stringify(input);
  return runProgram(
    process.execPath,
    [HOOK_JS, event],
    text,
    { ...process.env, REASONIX_HOOKS_DIR: dir, ELECTRON_RUN_AS_NODE: '1' },
    timeoutMs,
  );
}

export function hookOutput(answer: Record<string, unknown> | undefined): Record<string, unknown> {
  return (answer?.hookSpecificOutput ?? {}) as Record<string, unknown>;
}
