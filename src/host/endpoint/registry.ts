// The window registry: one `<id>.json` record per running window (its endpoint, token and
// workspace folders) in the per-user hooks directory, plus the `runtime` file naming the program
// the shell launcher runs the bridge with. The bridge and the MCP relay pick the window whose
// folder holds `cwd` (locateWindow) and check its endpoint before sending it the token.
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { innermost } from '../folderMatch';
import { fileProblem, privacyProblem } from './privateDir';

// Which folder holds a path is shared with the rooms that pick a folder's session (hooks/, mcp/).
export { containment, HOST_PATHS, innermost, type PathRules } from '../folderMatch';

export interface WindowRecord {
  v: number;
  id: string;
  pid: number;
  /** The socket (or pipe); '' when the window could not open one (then `problem` says why). */
  endpoint: string;
  token: string;
  /** Absolute workspace folder paths this window serves. */
  folders: string[];
  startedAt: number;
  /**
   * Per folder, the hook points at which a required extension takes part, with its ids: when the
   * window cannot be asked, the bridge refuses what those extensions would have ruled on.
   */
  required?: Record<string, Record<string, string[]>>;
  /**
   * The same for optional extensions: when the window cannot be asked, the bridge answers for them
   * as the window would for one that could not rule (ask before a tool, else a system message).
   */
  optional?: Record<string, Record<string, string[]>>;
  /** Why the window has no endpoint. */
  problem?: string;
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

/**
 * Records of windows whose process still runs; unreadable or stale files are skipped, and so is
 * a record that is a link, or not this user's own 0600 file (the bridge sends its token to what
 * a record names, so only records this user wrote count).
 */
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
    const file = join(dir, name);
    if (fileProblem(file, 'file')) continue;
    try {
      const r: unknown = JSON.parse(readFileSync(file, 'utf8'));
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

/** The window serving `cwd`: innermost folder first, then the most recently started window. */
export function pickWindow(
  records: readonly WindowRecord[],
  cwd: string,
): { record: WindowRecord; folder: string } | undefined {
  const newestFirst = [...records].sort((a, b) => b.startedAt - a.startedAt);
  const hit = innermost(newestFirst, (r) => r.folders, cwd);
  return hit && { record: hit.item, folder: hit.folder };
}

/** Every record in the private directories among `dirs` (one not private is skipped, and said so). */
function windowsIn(dirs: readonly string[], notes: string[]): { dir: string; record: WindowRecord }[] {
  const out: { dir: string; record: WindowRecord }[] = [];
  for (const dir of dirs) {
    const problem = privacyProblem(dir);
    if (problem) {
      if (!/ is missing /.test(problem)) notes.push(`ignored ${dir}: ${problem}`);
      continue;
    }
    for (const record of listWindows(dir)) out.push({ dir, record });
  }
  return out;
}

/** A window found in the registry: its record, the directory it is in, and the folder that matched. */
export interface LocatedWindow {
  dir: string;
  record: WindowRecord;
  folder: string;
  /** Why its endpoint must not get the token (endpointProblem), or undefined: then it may be asked. */
  unreachable?: string;
}

/**
 * The window serving `cwd` (innermost folder, then newest window) among the private directories of
 * `dirs`; with `id`, only that window, and `cwd` must be inside one of its folders. Directories that
 * are not private are skipped and said so in `notes`. The endpoint is checked on the way.
 */
export function locateWindow(
  dirs: readonly string[],
  cwd: string,
  notes: string[],
  id?: string,
): LocatedWindow | undefined {
  const found = windowsIn(dirs, notes).filter((w) => id === undefined || w.record.id === id);
  const hit = pickWindow(
    found.map((w) => w.record),
    cwd,
  );
  if (!hit) return undefined;
  const dir = found.find((w) => w.record === hit.record)!.dir;
  const unreachable = endpointProblem(dir, hit.record);
  return { dir, record: hit.record, folder: hit.folder, ...(unreachable ? { unreachable } : {}) };
}

/** Why the record's endpoint must not get the token, or undefined: ours, a socket, in its directory. */
export function endpointProblem(dir: string, record: WindowRecord): string | undefined {
  if (!record.endpoint) return record.problem ?? 'the window has no endpoint';
  if (process.platform === 'win32') return undefined;
  if (join(dir, `${record.id}.sock`) !== record.endpoint) return `its endpoint ${record.endpoint} is not in ${dir}`;
  return fileProblem(record.endpoint, 'socket');
}
