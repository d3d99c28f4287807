// Log tails for failure reports: the code-server log and the extension host's own logs.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function tailLines(file: string, n = 200): string {
  if (!existsSync(file)) return `(no file ${file})\n`;
  const lines = readFileSync(file, 'utf8').split('\n');
  return lines.slice(-n - 1).join('\n');
}

/** Every extension-host log file under a code-server user-data folder, oldest first. */
export function extensionHostLogs(userDataDir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    let entries: string[] = [];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e);
      let st;
      try {
        st = statSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) walk(p);
      else if (/exthost/i.test(p) && p.endsWith('.log')) found.push(p);
    }
  };
  walk(join(userDataDir, 'logs'));
  return found.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
}
