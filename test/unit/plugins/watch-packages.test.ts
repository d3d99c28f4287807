// Noticing changes to plugin-packages.json, whoever makes them: written, replaced by a rename,
// created, deleted; a rewrite with the same text is not a change.
import { strict as assert } from 'node:assert';
import { mkdtempSync, renameSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { watchPackagesFile } from '../../../src/host/plugins';
import { waitFor } from '../../support/wait';

describe('plugin-packages.json watcher', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'rx-watch-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('fires once per change of text: created, rewritten, replaced by rename, deleted; not for a touch', async () => {
    const file = path.join(dir, 'plugin-packages.json');
    let n = 0;
    const w = watchPackagesFile(dir, () => n++, { intervalMs: 20 });
    try {
      const next = async (what: string, change: () => void) => {
        const before = n;
        change();
        await waitFor(() => n > before, { timeoutMs: 3000, what, intervalMs: 10 });
        assert.equal(n, before + 1, what);
      };
      await next('created', () => writeFileSync(file, '{"plugins":[]}'));
      await next('rewritten', () => writeFileSync(file, '{"plugins":[{"name":"a"}]}'));
      await next('replaced by a rename', () => {
        writeFileSync(`${file}.tmp`, '{"plugins":[{"name":"b"}]}');
        renameSync(`${file}.tmp`, file);
      });
      const still = n;
      const later = new Date(Date.now() + 5000);
      utimesSync(file, later, later); // a touch: same text
      writeFileSync(file, '{"plugins":[{"name":"b"}]}'); // the same records again
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(n, still, 'no change of text, no event');
      await next('deleted', () => unlinkSync(file));
    } finally {
      w.dispose();
    }
  });
});
