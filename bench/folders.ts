// Issue 43's window figures, with the policy objects the VS Code face composes (FolderStarts for
// when a folder starts, one StartQueue for the window) over real session engines and real sidecars
// (copies of examples/hello as five extensions per folder):
//  - windowRss: a window of 20 folders × 5 extensions with one folder in use: how many sidecars run
//    and their RSS (from /proc), against the same 5 started alone (goal: 5 sidecars, ≤ 1.2×);
//  - folderInUse: time from "window ready" to the folder in use running, against that folder alone
//    (goal ≤ 1.2×); folderInUseAllFolders: the same with every folder asked to start with the window
//    (`reasonix.startup.folders: all`: the folder in use first, the others after it; goal ≤ 1.2×).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FolderStarts, realClock } from '../src/host/folders';
import { StartQueue } from '../src/host/generations';
import type { SessionEngine } from '../src/host/session';
import { Sidecar } from '../src/host/sidecar';
import { SurfaceStore } from '../src/host/ui';
import { testEngine } from '../test/support/engine';
import { quiet, REPO } from './lib/host';
import { hrtimeMs, lowerIsBetter, round, summarize, type Figure } from './lib/stats';

const FOLDERS = 20;
const PER_FOLDER = 5;

/** Five copies of examples/hello, each its own extension (hello-1 … hello-5). */
function makeExtensions(dir: string): string[] {
  return Array.from({ length: PER_FOLDER }, (_, i) => {
    const root = path.join(dir, `hello-${i + 1}`);
    cpSync(path.join(REPO, 'examples/hello'), root, { recursive: true });
    const file = path.join(root, 'reasonix-plugin.json');
    const m = JSON.parse(readFileSync(file, 'utf8')) as { name: string };
    m.name = `hello-${i + 1}`;
    writeFileSync(file, JSON.stringify(m));
    return root;
  });
}

function rssKiB(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

interface Window {
  engines: Map<string, SessionEngine>;
  starts: FolderStarts;
  sidecars: Sidecar[];
  stop(): Promise<void>;
}

/** A window of `n` folders as the VS Code face builds it: one queue, one FolderStarts, an engine per folder. */
function openWindow(base: string, n: number, extensions: string[], home: string): Window {
  const queue = new StartQueue(4);
  const engines = new Map<string, SessionEngine>();
  const sidecars: Sidecar[] = [];
  const store = new SurfaceStore();
  const starts = new FolderStarts({
    start: (key) => engines.get(key)!.start(),
    stop: async () => undefined,
    idleStopMs: () => 0,
    clock: realClock,
  });
  for (let i = 0; i < n; i++) {
    const key = path.join(base, `folder-${i + 1}`);
    engines.set(
      key,
      testEngine({
        base: key,
        plugins: extensions,
        logger: quiet,
        options: {
          sessionId: `bench-${i}`,
          folderName: `folder-${i + 1}`,
          home,
          startupBudgetMs: 60_000,
          startSlots: queue,
          startPriority: starts.priority(key),
        },
        deps: {
          createSidecar: (o) => {
            const s = new Sidecar(o);
            sidecars.push(s);
            return s;
          },
          store,
          timeouts: undefined, // the engine's own shutdown timeouts, as a window runs it
        },
      }),
    );
    starts.add(key);
  }
  return {
    engines,
    starts,
    sidecars,
    stop: async () => {
      starts.dispose();
      await Promise.all([...engines.values()].map((e) => e.stop()));
    },
  };
}

const runningPids = (w: Window): number[] =>
  w.sidecars.flatMap((s) => (s.state === 'running' && s.pid !== undefined ? [s.pid] : []));

export async function benchFolders(
  quick: boolean,
): Promise<{ windowRss: Figure; folderInUse: Figure; folderInUseAllFolders: Figure }> {
  const runs = quick ? 2 : 3;
  const dir = mkdtempSync(path.join(tmpdir(), 'rx-bench-folders-'));
  try {
    const extensions = makeExtensions(dir);
    const home = path.join(dir, 'home'); // no installed packages: the five are linked
    const inUse = path.join(dir, 'folder-1');

    // RSS: the 20 × 5 window with folder-1 in use, against folder-1 alone.
    const rss: number[] = [];
    const alone: number[] = [];
    let started = 0;
    for (let i = 0; i < runs; i++) {
      const w = openWindow(dir, FOLDERS, extensions, home);
      await w.starts.focus(inUse);
      started = runningPids(w).length;
      rss.push(runningPids(w).reduce((sum, p) => sum + rssKiB(p), 0));
      await w.stop();
      const a = openWindow(dir, 1, extensions, home);
      await a.starts.use(inUse, 'window');
      alone.push(runningPids(a).reduce((x, p) => x + rssKiB(p), 0));
      await a.stop();
    }
    const windowRss = lowerIsBetter('KiB', summarize(rss).median, summarize(alone).median, 1.2);
    windowRss.met = windowRss.met === true && started === PER_FOLDER;
    windowRss.notes = `${started} sidecars running in a ${FOLDERS} × ${PER_FOLDER} window with one folder in use (goal: ${PER_FOLDER}, and RSS ≤ 1.2× the same ${PER_FOLDER} alone); RSS summed over the sidecars from /proc; median of ${runs}`;

    // Time to the folder in use running, as shipped (the others wait for a first use), and with every
    // folder asked to start with the window (`reasonix.startup.folders: all`): the folder in use asks
    // first, as SessionManager.syncFolders does, and the queue keeps it first.
    const onUse: number[] = [];
    const allAsked: number[] = [];
    const allUp: number[] = [];
    const single: number[] = [];
    for (let i = 0; i < runs; i++) {
      const a = openWindow(dir, 1, extensions, home);
      const t1 = process.hrtime.bigint();
      await a.starts.focus(inUse);
      single.push(hrtimeMs(t1));
      await a.stop();

      const w = openWindow(dir, FOLDERS, extensions, home);
      const t = process.hrtime.bigint();
      await w.starts.focus(inUse);
      onUse.push(hrtimeMs(t));
      await w.stop();

      const all = openWindow(dir, FOLDERS, extensions, home);
      const t2 = process.hrtime.bigint();
      await all.starts.focus(inUse);
      allAsked.push(hrtimeMs(t2));
      // Then the others, as SessionManager.syncFolders asks them (the folder in use is running by now).
      await Promise.all([...all.engines.keys()].map((k) => all.starts.use(k, 'window')));
      allUp.push(hrtimeMs(t2));
      if (runningPids(all).length !== FOLDERS * PER_FOLDER) throw new Error('folders: not every sidecar started');
      await all.stop();
    }
    const floor = summarize(single).median;
    const folderInUse = lowerIsBetter('ms', summarize(onUse).median, floor, 1.2);
    folderInUse.notes = `median of ${runs}; value: window ready (${FOLDERS} folders × ${PER_FOLDER}) to the folder in use running, the others waiting for a first use (the default); floor: that folder alone`;
    const folderInUseAllFolders = lowerIsBetter('ms', summarize(allAsked).median, floor, 1.2);
    folderInUseAllFolders.notes = `median of ${runs}; as folderInUse, but every folder starts with the window (reasonix.startup.folders: all): the folder in use first, then the other ${FOLDERS - 1} through the window's 4-slot queue; all ${FOLDERS * PER_FOLDER} sidecars running after ${round(summarize(allUp).median)} ms (median)`;
    return { windowRss, folderInUse, folderInUseAllFolders };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
