// A small glob matcher for `files.exclude`-style patterns (`**/node_modules`, `*.log`, `{a,b}`,
// `[abc]`, `?`). The engine stays dependency-free and the VS Code face passes the user's patterns
// through unchanged, so both sides agree on what "excluded" means.

/** Compiles one glob into an anchored RegExp over a workspace-relative POSIX path. */
export function globToRegExp(glob: string): RegExp {
  let src = '';
  let i = 0;
  let braceDepth = 0;
  const g = glob.replace(/\\/g, '/').replace(/^\.\//, '').replace(/^\/+/, '');
  while (i < g.length) {
    const c = g[i];
    if (c === '*') {
      if (g[i + 1] === '*') {
        // `**/` matches zero or more whole segments; a trailing `**` matches anything.
        const atSegStart = i === 0 || g[i - 1] === '/';
        if (atSegStart && g[i + 2] === '/') {
          src += '(?:[^/]*/)*';
          i += 3;
          continue;
        }
        src += '.*';
        i += 2;
        continue;
      }
      src += '[^/]*';
    } else if (c === '?') {
      src += '[^/]';
    } else if (c === '[') {
      const end = g.indexOf(']', i + 1);
      if (end === -1) {
        src += '\\[';
      } else {
        let body = g.slice(i + 1, end).replace(/\\/g, '\\\\');
        if (body.startsWith('!')) body = '^' + body.slice(1);
        src += `[${body}]`;
        i = end;
      }
    } else if (c === '{') {
      braceDepth++;
      src += '(?:';
    } else if (c === '}' && braceDepth > 0) {
      braceDepth--;
      src += ')';
    } else if (c === ',' && braceDepth > 0) {
      src += '|';
    } else {
      src += c.replace(/[.+^$()|\\/]/g, (m) => '\\' + m);
    }
    i++;
  }
  return new RegExp(`^${src}$`);
}

/**
 * Matches a path when a glob matches the path itself or any of its parent folders, the way
 * `files.exclude: {"**\/node_modules": true}` hides everything under every node_modules folder.
 */
export function compileExcludes(globs: readonly string[]): (relPath: string) => boolean {
  const res = globs.filter((g) => g.trim() !== '').map(globToRegExp);
  if (res.length === 0) return () => false;
  return (relPath) => {
    const segs = relPath.split('/');
    for (let n = 1; n <= segs.length; n++) {
      const prefix = segs.slice(0, n).join('/');
      if (res.some((re) => re.test(prefix))) return true;
    }
    return false;
  };
}
