// What the in-host suites share to build their own session managers over the real engine and real
// sidecars (the sample extensions of the runner's REASONIX_HOME), beside the extension's own.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SurfaceStore } from '../../src/host/ui';
import { createSessionEngine } from '../../src/host/session';
import type { SessionEngineOptions } from '../../src/host/session';
import { Enablement } from '../../src/vscode/enablement';
import { LinkedFolders } from '../../src/vscode/linking';
import { VsCodePrompts } from '../../src/vscode/prompts';
import { SessionManager } from '../../src/vscode/sessions';
import { Sidecar, type DebugLaunch } from '../../src/host/sidecar';
import { silentLogger } from '../../src/host/log';
import type { FrameTap } from '../../src/host/wire';
import type { FolderClock } from '../../src/host/folders';
import type { Settings } from '../../src/vscode/settings';
import { takeDebugLaunch } from '../../src/vscode/sidecarFactory';

export class MemoryMemento implements vscode.Memento {
  private readonly data = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.data.keys()];
  }
  get<T>(key: string, def?: T): T {
    return (this.data.has(key) ? this.data.get(key) : def) as T;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.data.set(key, value);
  }
}

export function folder(dir: string, index: number): vscode.WorkspaceFolder {
  return { uri: vscode.Uri.file(dir), name: path.basename(dir), index };
}

export function manager(opts: {
  trusted: boolean | (() => boolean);
  created?: SessionEngineOptions[];
  linked?: LinkedFolders;
  /** Package root → frame tap, as the extension's sidecar factory reads it (protocol trace). */
  taps?: Map<string, FrameTap>;
  /** Setting values over the defaults below (e.g. `startFolders`, `fileChanges`). */
  settings?: Partial<Settings>;
  store?: SurfaceStore;
  /** The clock folder starts use (idle stop); tests move it by hand. */
  folderClock?: FolderClock;
  slotsDir?: string;
  coalesceMs?: number;
  /** Package root → its debug start, taken once as the extension's sidecar factory does (Debug Extension…). */
  debugs?: Map<string, DebugLaunch>;
}): SessionManager {
  const home = process.env.REASONIX_HOME;
  assert.ok(home, 'REASONIX_HOME is set by the in-host runner');
  const store = opts.store ?? new SurfaceStore();
  return new SessionManager({
    createEngine: (o) => {
      opts.created?.push(o);
      return createSessionEngine(o, {
        createSidecar: (so) =>
          new Sidecar({
            ...so,
            frameTap: () => opts.taps?.get(so.plugin.root),
            debugLaunch: () => (opts.debugs ? takeDebugLaunch(opts.debugs, so.plugin.root) : undefined),
          }),
        store,
        logger: silentLogger,
      });
    },
    log: silentLogger,
    settings: () => ({
      home,
      autoRestart: false,
      maxParallelStarts: 4,
      startupBudgetMs: 30_000,
      fileChanges: () => false,
      // The suites written before folders started on first use expect every folder running.
      startFolders: () => 'all',
      ...opts.settings,
    }),
    folderClock: opts.folderClock,
    slotsDir: opts.slotsDir,
    coalesceMs: opts.coalesceMs,
    linked: opts.linked ?? new LinkedFolders(new MemoryMemento()),
    enablement: new Enablement(new MemoryMemento()),
    frontEnd: new VsCodePrompts(() => undefined),
    isTrusted: typeof opts.trusted === 'function' ? opts.trusted : () => opts.trusted as boolean,
    showLogs: () => undefined,
  });
}
