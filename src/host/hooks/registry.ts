// The window registry: one `<id>.json` record per running window (its endpoint, token and
// workspace folders) in the per-user hooks directory, plus the `runtime` file naming the program
// the shell launcher runs the bridge with. The bridge picks the window whose folder holds `cwd`.
import { readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';

export interface WindowRecord {
  v: number;
  id: string;
  pid: number;
  endpoint: string;
  token: string;
  /** Absolute workspace folder paths this window serves. */
  folders: string[];
  startedAt: number;
}

/** The file the launchers read: the runtime VS Code already has (run with ELECTRON_RUN_AS_NODE=1). */
export const RUNTIME_FILE = 'runtime';

function writePrivate(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, file);
}

export function writeWindowRecord(dir: string, record: WindowRecord): string {
  const file = join(dir, `${record.id}.json`);
  writePrivate(file, JSON.stringify(record));
  return file;
}

export function removeWindowRecord(dir: string, id: string): void {
  rmSync(join(dir, `${id}.json`), { force: true });
}

/** Records where the launchers find the runtime (the extension host's own executable). */
export function recordRuntime(dir: string, execPath: string): void {
  let current: string | undefined;
  try {
    current = readFileSync(join(dir, RUNTIME_FILE), 'utf8').trim();
  } catch {
    // first window on this machine
  }
  if (current !== execPath) writePrivate(join(dir, RUNTIME_FILE), `${execPath}\n`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isRecord(v: unknown): v is WindowRecord {
  const r = v as WindowRecord;
  return (
    !!r &&
    typeof r === 'object' &&
    typeof r.endpoint === 'string' &&
    typeof r.token === 'string' &&
    Number.isInteger(r.pid) &&
    Array.isArray(r.folders) &&
    r.folders.every((f) => typeof f === 'string')
  );
}

/** Records of windows whose process still runs; unreadable or stale files are skipped. */
export function listWindows(dir: string): WindowRecord[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: WindowRecord[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    try {
      const r: unknown = JSON.parse(readFileSync(join(dir, name), 'utf8'));
      if (isRecord(r) && alive(r.pid)) out.push(r);
    } catch {
      // a record being replaced, or garbage: not a window
    }
  }
  return out;
}

/** Removes the records (and sockets) of windows whose process is gone: a killed window leaves them. */
export function removeStaleWindows(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    try {
      const r: unknown = JSON.parse(readFileSync(join(dir, name), 'utf8'));
      if (!isRecord(r) || alive(r.pid)) continue;
      rmSync(join(dir, name), { force: true });
      if (r.endpoint.startsWith(dir)) rmSync(r.endpoint, { force: true });
    } catch {
      // being written by another window: leave it
    }
  }
}

const caseInsensitive = process.platform === 'win32' || process.platform === 'darwin';

/** Depth of `folder` when it contains `path` (itself included), else -1. */
export function containment(folder: string, path: string): number {
  const norm = (p: string) => (caseInsensitive ? resolve(p).toLowerCase() : resolve(p));
  const f = norm(folder);
  const rel = relative(f, norm(path));
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) return f.length;
  return -1;
}

/** The folder (of any session list) that holds `cwd` most closely: the innermost wins. */
export function innermost<T>(
  items: readonly T[],
  folderOf: (item: T) => readonly string[],
  cwd: string,
): { item: T; folder: string } | undefined {
  let best: { item: T; folder: string; depth: number } | undefined;
  const candidates = [cwd];
  try {
    const real = realpathSync(cwd);
    if (real !== cwd) candidates.push(real);
  } catch {
    // cwd need not exist for the match
  }
  for (const item of items) {
    for (const folder of folderOf(item)) {
      for (const path of candidates) {
        const depth = containment(folder, path);
        if (depth >= 0 && (!best || depth > best.depth)) best = { item, folder, depth };
      }
    }
  }
  return best && { item: best.item, folder: best.folder };
}

/** The window serving `cwd`: innermost folder first, then the most recently started window. */
export function pickWindow(records: readonly WindowRecord[], cwd: string): WindowRecord | undefined {
  const newestFirst = [...records].sort((a, b) => b.startedAt - a.startedAt);
  return innermost(newestFirst, (r) => r.folders, cwd)?.item;
}
