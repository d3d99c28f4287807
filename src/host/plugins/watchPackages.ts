// Noticing that Reasonix's plugin-packages.json changed, whoever changed it (our own commands,
// `reasonix plugin …` in a terminal, another window). Polling its stat survives what event-based
// watchers miss here: Reasonix replacing the file by a rename, the home folder not existing yet,
// network and Windows homes. A change of stat alone is not enough: the text must differ too, so a
// touch or a rewrite with the same records does not disturb anything.
import { readFile, readFileSync, unwatchFile, watchFile, type Stats } from 'node:fs';
import * as path from 'node:path';
import type { Disposable } from '../emitter';
import { PACKAGES_FILE } from './discover';

/** How often the file's stat is read (one stat call). */
export const PACKAGES_POLL_MS = 1000;

export function watchPackagesFile(home: string, onChange: () => void, o: { intervalMs?: number } = {}): Disposable {
  const file = path.join(home, PACKAGES_FILE);
  let disposed = false;
  const read = (then: (text: string) => void) =>
    readFile(file, 'utf8', (err, text) => !disposed && then(err ? '' : text));
  // The text as it is now, read before watching starts: a change made right after this call is a
  // change (an asynchronous first read could take it for the starting point on a busy machine).
  let last: string;
  try {
    last = readFileSync(file, 'utf8');
  } catch {
    last = '';
  }
  const listener = (curr: Stats, prev: Stats) => {
    if (curr.mtimeMs === prev.mtimeMs && curr.size === prev.size && curr.ino === prev.ino) return;
    read((text) => {
      if (text === last) return;
      last = text;
      onChange();
    });
  };
  watchFile(file, { interval: o.intervalMs ?? PACKAGES_POLL_MS, persistent: false }, listener);
  return {
    dispose() {
      disposed = true;
      unwatchFile(file, listener);
    },
  };
}
