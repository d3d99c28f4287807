// Issue 25 §4: a file the host reads on a package's behalf (reasonix-plugin.json,
// plugin-packages.json) is read only if it is a regular file, never past the cap plus one byte
// whatever it claims (a symlink to /dev/zero or /dev/urandom reports 0 bytes and never ends), and
// a FIFO never blocks: each form gets a clear reason, through `check` (a real CLI process) and
// through discovery.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { readBounded } from '../../../src/host/boundedFile';
import { discoverPlugins } from '../../../src/host/plugins';
import { parseJson, runCli, tempDir } from '../cli/support';
import { makeTempHome } from './temp-home';

const posix = process.platform !== 'win32';

/** Makes `file` the named special form; returns what the reason must say. */
function makeSpecial(file: string, form: string): RegExp {
  switch (form) {
    case 'symlink to /dev/zero':
      symlinkSync('/dev/zero', file);
      return /is a character device, not a regular file; it is not read/;
    case 'symlink to /dev/urandom':
      symlinkSync('/dev/urandom', file);
      return /is a character device, not a regular file; it is not read/;
    case 'FIFO': {
      const r = spawnSync('mkfifo', [file]);
      assert.equal(r.status, 0, `mkfifo: ${String(r.stderr)}`);
      return /is a FIFO, not a regular file; it is not read/;
    }
    case 'directory':
      mkdirSync(file);
      return /is a directory, not a regular file; it is not read/;
    case 'dangling symlink':
      symlinkSync(path.join(path.dirname(file), 'nowhere'), file);
      return /does not exist/;
    default:
      throw new Error(form);
  }
}

const FORMS = ['symlink to /dev/zero', 'symlink to /dev/urandom', 'FIFO', 'directory', 'dangling symlink'];

describe('files read on a package’s behalf (issue 25 §4)', function () {
  before(function () {
    if (!posix) this.skip(); // no /dev/zero, FIFOs or POSIX symlinks to devices on Windows
  });
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir('special')));
  afterEach(() => tmp.cleanup());

  for (const form of FORMS) {
    it(`check refuses a reasonix-plugin.json that is a ${form}, at once and with its reason`, async () => {
      const root = path.join(tmp.dir, 'p');
      mkdirSync(root);
      const why = makeSpecial(path.join(root, 'reasonix-plugin.json'), form);
      const started = Date.now();
      const r = await runCli(['check', root, '--json'], { timeoutMs: 10000 });
      const report = parseJson<{ ok: boolean; stage: string; message: string }>(r.stdout);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(report.ok, false);
      assert.equal(report.stage, 'manifest');
      assert.match(report.message, why);
      assert.ok(Date.now() - started < 8000, 'no blocking, no reading forever');
    });

    it(`discovery reports a plugin-packages.json that is a ${form} and loads nothing from it`, async () => {
      const home = await makeTempHome();
      try {
        const why = makeSpecial(path.join(home.dir, 'plugin-packages.json'), form);
        const r = await discoverPlugins({ home: home.dir, linked: [] });
        assert.deepEqual(r.entries, []);
        if (form === 'dangling symlink') assert.deepEqual(r.problems, [], 'a missing file means nothing installed');
        else
          assert.ok(
            r.problems.some((p) => why.test(p)),
            r.problems.join('\n'),
          );
      } finally {
        await home.remove();
      }
    });
  }

  it('never holds more than the cap plus one byte of an endless file', async () => {
    const before = process.memoryUsage().rss;
    for (const dev of ['/dev/zero', '/dev/urandom']) {
      const link = path.join(tmp.dir, path.basename(dev));
      symlinkSync(dev, link);
      const r = await readBounded(link, 64 * 1024 * 1024);
      assert.equal(r.ok, false);
    }
    // A device is refused before any read: the process did not grow by the 64 MiB cap.
    assert.ok(process.memoryUsage().rss - before < 32 * 1024 * 1024, 'no memory growth');
  });

  it('reads a regular file (also through a symlink) up to the cap, and refuses cap + 1 bytes', async () => {
    const file = path.join(tmp.dir, 'f.json');
    writeFileSync(file, 'x'.repeat(100));
    const link = path.join(tmp.dir, 'link.json');
    symlinkSync(file, link);
    assert.deepEqual(await readBounded(link, 100), { ok: true, text: 'x'.repeat(100) });
    const over = await readBounded(file, 99);
    assert.equal(over.ok, false);
    assert.match(over.ok ? '' : over.why, /is 100 bytes, over the 99 bytes/);
  });
});
