// A headless session for the CLI: the same composition the VS Code extension uses, with plugin
// folders "linked" into an empty private home, surfaces printed, prompts answered from JSON.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { toolArgumentChecker } from '../host/arguments';
import { callTool } from '../host/tools';
import { installReaper, Sidecar } from '../host/sidecar';
import { createSessionEngine, type SessionEngine, type UiFrontEnd } from '../host/session';
import { SurfaceStore } from '../host/ui';
import type { Logger } from '../host/log';
import { term } from './terminal';

export interface HeadlessSession {
  engine: SessionEngine;
  store: SurfaceStore;
  /** The workspace root the session was opened for. */
  workspace: string;
  dispose(): Promise<void>;
}

/**
 * Log bytes the CLI's stderr may hold unwritten. Node writes to a pipe asynchronously: a sidecar
 * writing stderr faster than whoever reads ours (at --verbose every line is logged) would grow
 * that buffer without bound (hundreds of MB, issue 45 item 12). Past it lines are dropped and
 * counted, and the count is logged once the buffer has room again.
 */
export const LOG_BUFFER_BYTES = 1024 * 1024;

/** Engine warnings and errors go to stderr; the rest is quiet unless --verbose. */
export function stderrLogger(
  verbose: boolean,
  out: NodeJS.WritableStream & { writableLength: number } = process.stderr,
): Logger {
  // Engine logs carry sidecar text (stderr lines at --verbose): one escaped line per message.
  let dropped = 0;
  const write = (level: string) => (m: string) => {
    if (out.writableLength > LOG_BUFFER_BYTES) {
      dropped++;
      return;
    }
    if (dropped) {
      out.write(`[warn] ${dropped} log lines dropped: stderr was not read as fast as they came\n`);
      dropped = 0;
    }
    out.write(`[${level}] ${term(m)}\n`);
  };
  const noop = () => {};
  return {
    trace: noop,
    debug: verbose ? write('debug') : noop,
    info: verbose ? write('info') : noop,
    warn: write('warn'),
    error: write('error'),
  };
}

/** `home` runs the plugins installed there; without it the folders are linked into an empty home. */
export function openHeadlessSession(opts: {
  pluginDirs: string[];
  workspace: string;
  frontEnd: UiFrontEnd;
  logger: Logger;
  home?: string;
  /** One budget for starting every plugin (default 30 s). */
  startupBudgetMs?: number;
  /**
   * --verbose: sidecars' stderr lines reach the logger. Without it stderr is only kept in each
   * sidecar's 16 KiB ring: no line is cut, redacted and thrown away per write (issue 45 item 12).
   */
  verbose?: boolean;
}): HeadlessSession {
  // Whatever kills this process (SIGKILL included), its sidecars do not outlive it.
  installReaper();
  const verbose = opts.verbose === true;
  const home = opts.home ?? mkdtempSync(join(tmpdir(), 'reasonix-host-home-'));
  const linked = opts.pluginDirs.map((d) => resolve(d));
  const store = new SurfaceStore();
  const engine = createSessionEngine(
    {
      sessionKey: opts.workspace,
      sessionId: 'reasonix-host-cli',
      folderName: basename(opts.workspace),
      workspaceRoot: opts.workspace,
      home,
      linked: () => linked,
      disabled: () => [],
      frontEnd: opts.frontEnd,
      maxParallelStarts: 4,
      startupBudgetMs: opts.startupBudgetMs ?? 30_000,
    },
    {
      createSidecar: (o) => new Sidecar({ ...o, debugEnabled: () => verbose }),
      store,
      logger: opts.logger,
      toolCalls: () => ({ callTool, toolArgumentChecker }),
    },
  );
  return {
    engine,
    store,
    workspace: opts.workspace,
    async dispose() {
      await engine.stop();
      if (!opts.home) rmSync(home, { recursive: true, force: true });
    },
  };
}
