// Which folder holds a path: containment decided on path segments, links followed both ways, the
// innermost folder first. The window registry picks a window by it (endpoint/registry.ts), and a
// window picks the folder's session by it (hooks/window.ts, mcp/windowKind.ts), each without
// entering another room for it.
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** How paths are compared: the platform's path rules and whether its file systems ignore case. */
export interface PathRules {
  resolve(p: string): string;
  relative(from: string, to: string): string;
  isAbsolute(p: string): boolean;
  sep: string;
  caseInsensitive: boolean;
}

export const HOST_PATHS: PathRules = {
  resolve,
  relative,
  isAbsolute,
  sep,
  caseInsensitive: process.platform === 'win32' || process.platform === 'darwin',
};

/**
 * Depth of `folder` when it contains `path` (itself included), else -1. Decided on path segments:
 * the relative path leaves the folder only when it is `..` or starts with `..` and a separator,
 * so a folder named `..cache` inside is inside (issue 28 item 3).
 */
export function containment(folder: string, path: string, rules: PathRules = HOST_PATHS): number {
  const norm = (p: string) => (rules.caseInsensitive ? rules.resolve(p).toLowerCase() : rules.resolve(p));
  const f = norm(folder);
  const rel = rules.relative(f, norm(path));
  const leaves = rel === '..' || rel.startsWith(`..${rules.sep}`) || (rules.sep === '\\' && rel.startsWith('../'));
  if (rel === '' || (!leaves && !rules.isAbsolute(rel))) return f.length;
  return -1;
}

/** A path and, when it is a link (or under one), its real path too: a folder matches either way. */
function spellings(p: string): string[] {
  try {
    const real = realpathSync(p);
    return real === p ? [p] : [p, real];
  } catch {
    return [p]; // need not exist for the match
  }
}

/** The folder (of any session list) that holds `cwd` most closely: the innermost wins. */
export function innermost<T>(
  items: readonly T[],
  folderOf: (item: T) => readonly string[],
  cwd: string,
): { item: T; folder: string } | undefined {
  let best: { item: T; folder: string; depth: number } | undefined;
  const candidates = spellings(cwd);
  for (const item of items) {
    for (const folder of folderOf(item)) {
      for (const f of spellings(folder)) {
        for (const path of candidates) {
          const depth = containment(f, path);
          if (depth >= 0 && (!best || depth > best.depth)) best = { item, folder, depth };
        }
      }
    }
  }
  return best && { item: best.item, folder: best.folder };
}
