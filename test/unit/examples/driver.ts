// A hand-driven host for the sample sidecars: spawns a plugin exactly as the host does (command
// expanded from the manifest, absolute, no shell, identity variables in the environment) and
// speaks NDJSON JSON-RPC to it frame by frame, so the tests see precisely what is on the wire.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import type { InitializeParams, UIPublishParams, UIRequestParams, UIRequestResult } from '../../../src/protocol';

export const REPO = path.resolve(__dirname, '..', '..', '..', '..');
export const EXAMPLES = path.join(REPO, 'examples');
const ROOT_VAR = '${REASONIX_PLUGIN_ROOT}';

export type Frame = Record<string, unknown> & {
  id?: unknown;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
};
export interface Response {
  id: number;
  result?: unknown;
  error?: { code: number; message: string; data?: { reason: string; retryable: boolean } };
}
export interface Manifest {
  apiVersion: string;
  name: string;
  version: string;
  runtime: {
    tools?: { name: string }[];
    command: string;
    args?: string[];
    env?: Record<string, string>;
    intercepts?: string[];
    replaces?: string[];
    capabilities?: string[];
  };
}

export interface DriverOptions {
  /** Installed plugin id (REASONIX_PLUGIN_NAME); defaults to the manifest name. */
  pluginId?: string;
  /** Extra environment (e.g. faster timers for the sample). */
  env?: Record<string, string>;
  /** Answers host/ui/request; default: dismissed. */
  prompt?: (params: UIRequestParams) => UIRequestResult | Promise<UIRequestResult>;
  /** Answers other extension → host requests (e.g. host/content/read); default: -32601. */
  serve?: (method: string, params: unknown) => unknown;
}

export function readManifest(root: string): Manifest {
  return JSON.parse(readFileSync(path.join(root, 'reasonix-plugin.json'), 'utf8')) as Manifest;
}

/** The command a host runs: `${REASONIX_PLUGIN_ROOT}` expanded as a prefix; must end up absolute. */
export function expandedCommand(root: string, manifest: Manifest): string {
  const c = manifest.runtime.command;
  return c.startsWith(ROOT_VAR) ? root + c.slice(ROOT_VAR.length) : c;
}

export class SidecarDriver {
  readonly child: ChildProcessWithoutNullStreams;
  readonly manifest: Manifest;
  readonly pluginId: string;
  /** Every frame the sidecar wrote, in order. */
  readonly frames: Frame[] = [];
  /** Every non-JSON line on stdout (must stay empty: stdout is protocol only). */
  readonly garbage: string[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private nextId = 1;
  private readonly waiters = new Set<() => void>();
  private readonly opts: DriverOptions;

  constructor(
    readonly root: string,
    opts: DriverOptions = {},
  ) {
    this.opts = opts;
    this.manifest = readManifest(root);
    this.pluginId = opts.pluginId ?? this.manifest.name;
    const command = expandedCommand(root, this.manifest);
    if (!path.isAbsolute(command)) throw new Error(`command ${command} is not absolute`);
    this.child = spawn(command, this.manifest.runtime.args ?? [], {
      shell: false,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ...(this.manifest.runtime.env ?? {}),
        ...(opts.env ?? {}),
        REASONIX_PLUGIN_ROOT: root,
        REASONIX_PLUGIN_NAME: this.pluginId,
        REASONIX_PLUGIN_VERSION: this.manifest.version,
      },
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (t: string) => (this.stderr += t));
    this.child.stdin.on('error', () => undefined); // writes after exit are the test's business
    createInterface({ input: this.child.stdout, crlfDelay: Infinity }).on('line', (line) => this.onLine(line));
  }

  private onLine(line: string): void {
    let frame: Frame;
    try {
      frame = JSON.parse(line) as Frame;
    } catch {
      this.garbage.push(line);
      return;
    }
    this.frames.push(frame);
    if (typeof frame.method === 'string' && 'id' in frame) void this.answer(frame);
    for (const wake of [...this.waiters]) wake();
  }

  /** Plays the host side of extension → host requests. */
  private async answer(frame: Frame): Promise<void> {
    const id = frame.id;
    let reply: Frame;
    try {
      if (frame.method === 'host/ui/publish') reply = { result: { accepted: true } };
      else if (frame.method === 'host/ui/request') {
        const prompt = this.opts.prompt ?? (() => ({ cancelled: true }));
        reply = { result: await prompt(frame.params as UIRequestParams) };
      } else if (this.opts.serve) reply = { result: await this.opts.serve(frame.method as string, frame.params) };
      else reply = { error: { code: -32601, message: `method not found: ${frame.method}` } };
    } catch (err) {
      const wire = (err as { toWire?: () => unknown }).toWire;
      reply = { error: wire ? wire.call(err) : { code: -32603, message: String(err) } };
    }
    this.write({ jsonrpc: '2.0', id, ...reply });
  }

  write(frame: unknown): void {
    this.writeLine(JSON.stringify(frame));
  }

  writeLine(line: string): void {
    this.child.stdin.write(line + '\n');
  }

  /** Sends a request with the next integer id and resolves with the whole response frame. */
  async request(method: string, params: unknown, timeoutMs = 5000): Promise<Response> {
    const id = this.nextId++;
    this.write({ jsonrpc: '2.0', id, method, params });
    return (await this.waitFor(
      (f) => f.id === id && !('method' in f),
      `response to ${method} #${id}`,
      timeoutMs,
    )) as Response;
  }

  /** A request that must succeed; returns its result. */
  async call<T = Record<string, unknown>>(method: string, params: unknown): Promise<T> {
    const r = await this.request(method, params);
    if (r.error) throw new Error(`${method} failed: ${JSON.stringify(r.error)}`);
    return r.result as T;
  }

  notify(method: string, params: unknown): void {
    this.write({ jsonrpc: '2.0', method, params });
  }

  /** Resolves with the first frame (from `from` on) matching `pred`. */
  waitFor(pred: (f: Frame) => boolean, what: string, timeoutMs = 5000, from = 0): Promise<Frame> {
    return this.until(() => this.frames.slice(from).find(pred), what, timeoutMs);
  }

  /** Resolves when `probe` returns a value, re-checking after every frame. */
  until<T>(probe: () => T | undefined, what: string, timeoutMs = 5000): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const v = probe();
        if (v === undefined) return false;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(v);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}; stderr:\n${this.stderr}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  /** Every host/ui/publish the sidecar sent, in order. */
  publishes(): UIPublishParams[] {
    return this.frames.filter((f) => f.method === 'host/ui/publish').map((f) => f.params as UIPublishParams);
  }

  /** The newest payload published for `surfaceId`, once `pred` holds for it. */
  surface<T = Record<string, unknown>>(
    surfaceId: string,
    pred: (payload: T) => boolean = () => true,
    what = surfaceId,
  ): Promise<T> {
    return this.until(() => {
      const mine = this.publishes().filter((p) => p.surfaceId === surfaceId);
      const last = mine[mine.length - 1];
      return last && pred(last.payload as T) ? (last.payload as T) : undefined;
    }, `surface ${what}`);
  }

  /** InitializeParams built from the manifest's runtime block, the way the host builds them. */
  initializeParams(
    over: {
      workspaceRoot?: string;
      sessionId?: string;
      generation?: number;
      manifest?: InitializeParams['manifest'];
    } = {},
  ): InitializeParams {
    const rt = this.manifest.runtime;
    // The protocol the manifest picks, as the host does: exactly reasonix.io/plugin/v2 → v2.
    const major = this.manifest.apiVersion === 'reasonix.io/plugin/v2' ? '2' : '1';
    return {
      protocolVersion: major,
      protocolId: `reasonix.extension.v${major}`,
      manifest: over.manifest ?? {
        intercepts: rt.intercepts ?? [],
        replaces: rt.replaces ?? [],
        capabilities: rt.capabilities ?? [],
        ...(major === '2' ? { tools: (rt.tools ?? []).map((t) => t.name) } : {}),
      },
      session: {
        sessionId: over.sessionId ?? 'session-1',
        workspaceRoot: over.workspaceRoot ?? REPO,
        generation: over.generation ?? 3,
      },
      capabilities: { contentRefs: true, uiHost: 'desktop', protocolVersion: major },
    };
  }

  /** Handshake plus `extension/initialized`; returns the InitializeResult. */
  async ready(params: InitializeParams = this.initializeParams()): Promise<Record<string, unknown>> {
    const result = await this.call('extension/initialize', params);
    this.notify('extension/initialized', {});
    return result;
  }

  /** Orderly shutdown as the host does it; resolves with the exit status. */
  async shutdown(): Promise<{ code: number | null; signal: NodeJS.Signals | null; result: unknown }> {
    const r = await this.request('extension/shutdown', { timeoutMillis: 1000 });
    this.child.stdin.end();
    const status = await this.exited;
    return { ...status, result: r.result };
  }

  /** Always called from afterEach: ends the process however the test left it. */
  async dispose(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 1000);
    await this.exited;
    clearTimeout(timer);
  }
}
