// scripts/prepare-home.mjs: the home it writes is what plugin discovery reads, and the samples it
// lists start from there exactly as the host starts them.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { discoverPlugins, expandCommand } from '../../../src/host/plugins';
import { EXAMPLES, REPO, SidecarDriver } from './driver';

const run = promisify(execFile);
const SCRIPT = path.join(REPO, 'scripts', 'prepare-home.mjs');

describe('scripts/prepare-home.mjs', function () {
  let dir: string;
  const drivers: SidecarDriver[] = [];
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'prepare-home-'));
  });
  afterEach(async () => {
    await Promise.all(drivers.splice(0).map((d) => d.dispose()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes plugin-packages.json for both samples and a demo workspace, idempotently', async () => {
    const home = path.join(dir, 'home');
    const ws = path.join(dir, 'ws');
    const first = await run(process.execPath, [SCRIPT, home, '--workspace', ws]);
    assert.match(first.stdout, /wrote .*plugin-packages\.json \(showcase 0\.2\.0, hello 0\.1\.0\)/);
    assert.match(first.stdout, /created README\.md/);
    const doc = JSON.parse(readFileSync(path.join(home, 'plugin-packages.json'), 'utf8'));
    assert.deepEqual(doc, {
      version: 1,
      plugins: [
        {
          name: 'hello',
          root: path.join(EXAMPLES, 'hello'),
          version: '0.1.0',
          manifestKind: 'reasonix',
          enabled: true,
        },
        {
          name: 'showcase',
          root: path.join(EXAMPLES, 'showcase'),
          version: '0.2.0',
          manifestKind: 'reasonix',
          enabled: true,
        },
      ],
    });
    assert.match(readFileSync(path.join(ws, 'README.md'), 'utf8'), /Reasonix: Run Extension Action/);

    writeFileSync(path.join(ws, 'src', 'greeting.js'), '// my edit\n');
    const second = await run(process.execPath, [SCRIPT, home, '--workspace', ws]);
    assert.match(second.stdout, /unchanged .*plugin-packages\.json/);
    assert.match(second.stdout, /already prepared/);
    assert.equal(readFileSync(path.join(ws, 'src', 'greeting.js'), 'utf8'), '// my edit\n', 'edits survive a rerun');
    assert.deepEqual(JSON.parse(readFileSync(path.join(home, 'plugin-packages.json'), 'utf8')), doc);
  });

  it('keeps records of other plugins and refuses a missing home argument', async () => {
    const home = path.join(dir, 'home');
    mkdirSync(home);
    const other = { name: 'other', root: 'plugins/other', enabled: false };
    writeFileSync(path.join(home, 'plugin-packages.json'), JSON.stringify({ version: 1, plugins: [other] }));
    await run(process.execPath, [SCRIPT, home, '--plugin', 'hello']);
    const doc = JSON.parse(readFileSync(path.join(home, 'plugin-packages.json'), 'utf8'));
    assert.deepEqual(
      doc.plugins.map((p: { name: string }) => p.name),
      ['hello', 'other'],
    );
    assert.deepEqual(doc.plugins[1], other);
    await assert.rejects(
      run(process.execPath, [SCRIPT]),
      (err: { code?: number; stdout?: string }) => err.code === 2 && /usage:/.test(err.stdout ?? ''),
    );
    assert.ok(!existsSync(path.join(dir, 'ws')));
  });

  it('is read by plugin discovery, and each sample starts from it and shuts down cleanly', async () => {
    const home = path.join(dir, 'home');
    await run(process.execPath, [SCRIPT, home]);
    const found = await discoverPlugins({ home });
    assert.deepEqual(found.problems, []);
    assert.deepEqual(
      found.entries.map((e) => [e.id, e.status]),
      [
        ['hello', 'runnable'],
        ['showcase', 'runnable'],
      ],
    );
    for (const spec of found.plugins) {
      assert.ok(path.isAbsolute(expandCommand(spec.runtime.command, spec.root)));
      const d = new SidecarDriver(spec.root, { pluginId: spec.id, env: { SHOWCASE_TICK_MS: '1' } });
      drivers.push(d);
      const r = await d.ready(
        d.initializeParams({
          workspaceRoot: dir,
          manifest: {
            intercepts: spec.runtime.intercepts,
            replaces: spec.runtime.replaces,
            capabilities: spec.runtime.capabilities,
          },
        }),
      );
      assert.equal(r.name, spec.id);
      await d.waitFor((f) => f.method === 'host/ui/publish', `${spec.id} publishes`);
      const s = await d.shutdown();
      assert.equal(s.code, 0);
    }
  });
});
