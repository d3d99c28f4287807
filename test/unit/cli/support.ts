// Drives the `reasonix-host` CLI as a user would: a real `node` child process per invocation.
// The CLI under test is out/src/cli.js, compiled by the same `tsc -p .` that compiled these
// tests, so it can never be older than the sources the tests were built from.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readLines } from '../../fixtures/lib/ndjson';
import { pluginFolder } from '../../support/plugins';
import { alive } from '../../support/processes';
import { waitFor } from '../../support/wait';

export const REPO = resolve(__dirname, '..', '..', '..', '..');
export const CLI = resolve(__dirname, '..', '..', '..', 'src', 'cli.js');
export const SIDECARS = join(REPO, 'test', 'fixtures', 'sidecars');
export const SHOWCASE = join(REPO, 'examples', 'showcase');
export const HELLO = join(REPO, 'examples', 'hello');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to completion; a run longer than `timeoutMs` is killed and rejected. */
export function runCli(args: string[], opts: { cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd ?? REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `reasonix-host ${args.join(' ')} did not finish within ${opts.timeoutMs ?? 15000} ms\nstdout: ${stdout}\nstderr: ${stderr}`,
        ),
      );
    }, opts.timeoutMs ?? 15000);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
}

/** A long-running CLI (`run`) whose stdout is read as JSON lines while it runs. */
export class LiveCli {
  readonly child: ChildProcessWithoutNullStreams;
  readonly events: Record<string, unknown>[] = [];
  stderr = '';
  private waiters: (() => void)[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(args: string[], cwd = REPO) {
    this.child = spawn(process.execPath, [CLI, ...args], { cwd });
    this.child.stdin.end();
    readLines((line) => this.events.push(JSON.parse(line) as Record<string, unknown>), this.child.stdout);
    // After the reader above has taken this chunk's lines.
    this.child.stdout.on('data', () => {
      for (const w of this.waiters.splice(0)) w();
    });
    this.child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((r) => this.child.once('close', (code, signal) => r({ code, signal })));
    void this.exited.then(() => {
      for (const w of this.waiters.splice(0)) w();
    });
  }

  /** Resolves with the first event (already seen or still to come) that matches. */
  async waitFor(
    what: string,
    match: (e: Record<string, unknown>) => boolean,
    timeoutMs = 10000,
  ): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => (exited = true));
    for (;;) {
      const hit = this.events.find(match);
      if (hit) return hit;
      if (exited) throw new Error(`reasonix-host exited before ${what}; stderr: ${this.stderr}`);
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `timed out waiting for ${what}; events: ${JSON.stringify(this.events.map((e) => e.type))}; stderr: ${this.stderr}`,
        );
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }

  /** Safety net for a failing test: never leave the CLI (or, through it, a sidecar) behind. */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }
}

/** A temporary folder removed by `cleanup()`. */
export function tempDir(prefix: string): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), `reasonix-cli-test-${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Wraps a fixture sidecar in a plugin folder: the manifest's command is the absolute path of
 * this node binary (exec form, no shell) and the fixture script is its only argument.
 */
export function fixturePlugin(
  parent: string,
  name: string,
  fixture: string,
  extra: { command?: string; env?: Record<string, string> } = {},
): string {
  const runtime: Record<string, unknown> = {
    command: extra.command ?? process.execPath,
    args: [join(SIDECARS, fixture)],
  };
  if (extra.env) runtime.env = extra.env;
  return pluginFolder(join(parent, name), name, runtime, '1.2.3');
}

/** Whether `pid` is gone within `ms` (an exited child may need a moment to be reaped). */
export function gone(pid: number, ms = 3000): Promise<boolean> {
  return waitFor(() => !alive(pid), { timeoutMs: ms, what: `pid ${pid} to end`, intervalMs: 25 }).then(
    () => true,
    () => false,
  );
}

/** Parses one JSON document from a CLI's stdout, with the raw text in the failure message. */
export function parseJson<T>(text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`stdout is not one JSON document: ${text}`);
  }
}

/** Parses JSON lines from a CLI's stdout. */
export function parseLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => parseJson<Record<string, unknown>>(l));
}
