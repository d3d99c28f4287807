// Noticing that Reasonix's plugin-packages.json changed, whoever changed it (our own commands,
// `reasonix plugin …` in a terminal, another window). Polling its stat survives what event-based
// watchers miss here: Reasonix replacing the file by a rename, the home folder not existing yet,
// network and Windows homes. A change of stat alone is not enough: the text must differ too, so a
// touch or a rewrite with the same records does not disturb anything.
// The starting point (text and stat) is read synchronously before polling starts: node's watchFile
// takes its first stat asynchronously, so on a busy machine a file created right after the call
// became its starting point and the creation was never reported.
import { readFile, readFileSync, stat, statSync, type Stats } from 'node:fs';
import * as path from 'node:path';
import type { Disposable } from '../emitter';
import { PACKAGES_FILE } from './discover';

/** How often the file's stat is read (one stat call). */
export const PACKAGES_POLL_MS = 1000;

/** What a stat says of the file for change detection; a missing file is all zeros. */
function signature(st: Stats | undefined): string {
  return st ? `${st.mtimeMs}:${st.size}:${st.ino}` : '0:0:0';
}

export function watchPackagesFile(home: string, onChange: () => void, o: { intervalMs?: number } = {}): Disposable {
  const file = path.join(home, PACKAGES_FILE);
  let disposed = false;
  const read = (then: (text: string) => void) =>
    readFile(file, 'utf8', (err, text) => !disposed && then(err ? '' : text));
  let last: string;
  let seen: string;
  try {
    last = readFileSync(file, 'utf8');
  } catch {
    last = '';
  }
  try {
    seen = signature(statSync(file));
  } catch {
    seen = signature(undefined);
  }
  let busy = false;
  const poll = () => {
    if (busy || disposed) return;
    busy = true;
    stat(file, (err, st) => {
      busy = false;
      if (disposed) return;
      const now = signature(err ? undefined : st);
      if (now === seen) return;
      seen = now;
      read((text) => {
        if (text === last) return;
        last = text;
        onChange();
      });
    });
  };
  const timer = setInterval(poll, o.intervalMs ?? PACKAGES_POLL_MS);
  timer.unref();
  return {
    dispose() {
      disposed = true;
      clearInterval(timer);
    },
  };
}
