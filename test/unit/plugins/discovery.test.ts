import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { discoverPlugins, resolveReasonixHome } from '../../../src/host/plugins';
import { makeTempHome, v1Manifest, type TempHome } from './temp-home';

describe('plugins: resolveReasonixHome', () => {
  it('prefers $REASONIX_HOME', () => {
    assert.equal(resolveReasonixHome({ REASONIX_HOME: '/opt/rx' }, 'linux', '/home/u'), '/opt/rx');
    assert.equal(resolveReasonixHome({ REASONIX_HOME: 'D:\\rx', APPDATA: 'C:\\A' }, 'win32', 'C:\\Users\\u'), 'D:\\rx');
  });
  it('uses ~/.reasonix on POSIX', () => {
    assert.equal(resolveReasonixHome({}, 'linux', '/home/u'), '/home/u/.reasonix');
    assert.equal(resolveReasonixHome({ REASONIX_HOME: '  ' }, 'darwin', '/Users/u'), '/Users/u/.reasonix');
  });
  it('uses %APPDATA%\\reasonix on Windows, else %USERPROFILE%\\AppData\\Roaming\\reasonix', () => {
    assert.equal(
      resolveReasonixHome({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32', 'C:\\Users\\u'),
      'C:\\Users\\u\\AppData\\Roaming\\reasonix',
    );
    assert.equal(
      resolveReasonixHome({ USERPROFILE: 'C:\\Users\\p' }, 'win32', 'C:\\Users\\u'),
      'C:\\Users\\p\\AppData\\Roaming\\reasonix',
    );
    assert.equal(resolveReasonixHome({}, 'win32', 'C:\\Users\\u'), 'C:\\Users\\u\\AppData\\Roaming\\reasonix');
  });
});

describe('plugins: discoverPlugins (installed records)', () => {
  let home: TempHome;
  beforeEach(async () => {
    home = await makeTempHome();
  });
  afterEach(() => home.remove());

  it('treats a missing plugin-packages.json as no plugins and no problem', async () => {
    const r = await discoverPlugins({ home: home.dir });
    assert.deepEqual(r, { plugins: [], entries: [], problems: [], warnings: [] });
  });

  it('reports broken JSON as a problem without throwing, and still loads linked folders', async () => {
    await home.packages('{"version":1, plugins: [');
    const linked = await home.manifest('dev/lnk', v1Manifest('lnk'));
    const r = await discoverPlugins({ home: home.dir, linked: [linked] });
    assert.equal(r.problems.length, 1);
    assert.match(r.problems[0], /plugin-packages\.json is not valid JSON/);
    assert.deepEqual(
      r.plugins.map((p) => [p.id, p.source]),
      [['lnk', 'linked']],
    );
  });

  it('reports an unreadable file and a wrong shape as problems', async () => {
    await fs.mkdir(path.join(home.dir, 'plugin-packages.json'));
    let r = await discoverPlugins({ home: home.dir });
    assert.equal(r.plugins.length, 0);
    assert.match(r.problems[0], /plugin-packages\.json is a directory, not a regular file; it is not read/);
    await fs.rmdir(path.join(home.dir, 'plugin-packages.json'));
    await home.packages({ version: 1, plugins: {} });
    r = await discoverPlugins({ home: home.dir });
    assert.match(r.problems[0], /expected an object with a "plugins" array/);
  });

  it('resolves relative roots against the home, keeps absolute roots, fills defaults, sorts by id', async () => {
    const absRoot = await home.manifest(
      'elsewhere/zed',
      v1Manifest('zed-manifest-name', { args: ['x.js'] }, { description: 'from manifest' }),
    );
    await home.manifest('plugins/alpha', v1Manifest('alpha', { command: '${REASONIX_PLUGIN_ROOT}/bin/run' }));
    await home.packages({
      version: 1,
      plugins: [
        { name: 'zed', root: absRoot, version: '9.9.9', enabled: true },
        { name: 'alpha', source: 'git', root: 'plugins/alpha', enabled: true, manifestKind: 'reasonix' },
      ],
    });
    const r = await discoverPlugins({ home: home.dir });
    assert.deepEqual(r.problems, []);
    assert.deepEqual(
      r.plugins.map((p) => p.id),
      ['alpha', 'zed'],
    );
    assert.deepEqual(
      r.entries.map((e) => [e.id, e.status]),
      [
        ['alpha', 'runnable'],
        ['zed', 'runnable'],
      ],
    );
    const [alpha, zed] = r.plugins;
    assert.equal(alpha.root, path.join(home.dir, 'plugins/alpha'));
    assert.equal(alpha.manifestPath, path.join(home.dir, 'plugins/alpha/reasonix-plugin.json'));
    assert.equal(alpha.source, 'installed');
    assert.equal(alpha.version, '1.2.3', 'manifest version when the record has none');
    assert.deepEqual(alpha.runtime, {
      command: '${REASONIX_PLUGIN_ROOT}/bin/run',
      args: [],
      env: {},
      required: false,
      priority: 0,
      intercepts: [],
      replaces: [],
      capabilities: [],
      timeoutMillis: 0,
      tools: [],
    });
    assert.equal(alpha.protocol, 1, 'a v1 manifest picks protocol v1');
    assert.deepEqual([alpha.requires, alpha.provides], [[], []]);
    assert.equal(zed.root, absRoot);
    assert.equal(zed.version, '9.9.9', 'installed version wins');
    assert.equal(zed.displayName, 'zed-manifest-name');
    assert.equal(zed.description, 'from manifest');
    assert.deepEqual(zed.runtime.args, ['x.js']);
  });

  it('falls back to version 0.0.0', async () => {
    const m = v1Manifest('nov');
    delete m.version;
    await home.manifest('plugins/nov', m);
    await home.packages({ version: 1, plugins: [{ name: 'nov', root: 'plugins/nov', enabled: true }] });
    const r = await discoverPlugins({ home: home.dir });
    assert.equal(r.plugins[0].version, '0.0.0');
  });

  it('lists records not enabled as disabled without reading their manifests', async () => {
    await home.manifest('plugins/off', '{ broken');
    await home.packages({
      version: 1,
      plugins: [
        { name: 'off', root: 'plugins/off', enabled: false },
        { name: 'off2', root: 'plugins/off' },
      ],
    });
    const r = await discoverPlugins({ home: home.dir });
    assert.deepEqual(r.plugins, []);
    assert.deepEqual(
      r.entries.map((e) => [e.id, e.status]),
      [
        ['off', 'disabled'],
        ['off2', 'disabled'],
      ],
    );
    assert.match(r.entries[0].reason ?? '', /enabled is not true/);
  });

  it('marks plugins disabled for this folder as disabled, keeping the spec', async () => {
    await home.manifest('plugins/a', v1Manifest('a'));
    await home.manifest('plugins/b', v1Manifest('b'));
    await home.packages({
      version: 1,
      plugins: [
        { name: 'a', root: 'plugins/a', enabled: true },
        { name: 'b', root: 'plugins/b', enabled: true },
      ],
    });
    const r = await discoverPlugins({ home: home.dir, disabled: ['a'] });
    assert.deepEqual(
      r.plugins.map((p) => p.id),
      ['b'],
    );
    assert.equal(r.entries[0].status, 'disabled');
    assert.match(r.entries[0].reason ?? '', /disabled for this workspace folder/);
    assert.equal(r.entries[0].spec?.id, 'a');
  });

  it('refuses invalid and duplicate names, and records without a root', async () => {
    await home.manifest('plugins/ok', v1Manifest('ok'));
    await home.packages({
      version: 1,
      plugins: [
        { name: '-bad', root: 'plugins/ok', enabled: true },
        { name: 'a'.repeat(65), root: 'plugins/ok', enabled: true },
        { name: 'has space', root: 'plugins/ok', enabled: true },
        { name: 42, root: 'plugins/ok', enabled: true },
        { name: 'ok', root: 'plugins/ok', enabled: true },
        { name: 'ok', root: 'plugins/ok', enabled: true },
        { name: 'noroot', enabled: true },
        'not-an-object',
      ],
    });
    const r = await discoverPlugins({ home: home.dir });
    assert.deepEqual(
      r.plugins.map((p) => p.id),
      ['ok'],
    );
    const invalid = r.entries.filter((e) => e.status === 'invalid');
    assert.equal(invalid.length, 6);
    for (const e of invalid) assert.match(e.reason ?? '', /plugin-packages\.json: plugins\[\d\]/);
    assert.ok(invalid.some((e) => /is listed twice/.test(e.reason ?? '')));
    assert.ok(invalid.some((e) => e.id === 'noroot' && /root must be a non-empty path/.test(e.reason ?? '')));
    assert.ok(invalid.some((e) => /name "-bad" is not a valid plugin id/.test(e.reason ?? '')));
    assert.ok(invalid.some((e) => e.id === 'plugins[3]'));
    assert.match(r.problems[0], /plugins\[7\] is not an object/);
  });

  it('accepts a 64-character id with dots, dashes and underscores', async () => {
    const id = 'A0._-' + 'x'.repeat(59);
    await home.manifest('plugins/long', v1Manifest('long'));
    await home.packages({ version: 1, plugins: [{ name: id, root: 'plugins/long', enabled: true }] });
    const r = await discoverPlugins({ home: home.dir });
    assert.deepEqual(
      r.plugins.map((p) => p.id),
      [id],
    );
  });

  it('a broken manifest disables only that plugin', async () => {
    await home.manifest('plugins/good', v1Manifest('good'));
    await home.manifest('plugins/broken', '{"apiVersion": ');
    await fs.mkdir(path.join(home.dir, 'plugins/empty'), { recursive: true });
    await home.packages({
      version: 1,
      plugins: ['broken', 'good', 'empty'].map((name) => ({ name, root: `plugins/${name}`, enabled: true })),
    });
    const r = await discoverPlugins({ home: home.dir });
    assert.deepEqual(
      r.plugins.map((p) => p.id),
      ['good'],
    );
    const byId = Object.fromEntries(r.entries.map((e) => [e.id, e]));
    assert.equal(byId.broken.status, 'invalid');
    assert.match(byId.broken.reason ?? '', /plugins\/broken\/reasonix-plugin\.json is not valid JSON/);
    assert.equal(byId.empty.status, 'invalid');
    assert.match(byId.empty.reason ?? '', /plugins\/empty\/reasonix-plugin\.json does not exist/);
  });
});

describe('plugins: discoverPlugins (linked folders)', () => {
  let home: TempHome;
  beforeEach(async () => {
    home = await makeTempHome();
  });
  afterEach(() => home.remove());

  it('gives a linked folder its manifest name as id and source "linked"', async () => {
    const dir = await home.manifest('dev/mine', v1Manifest('my-dev.plugin', {}, { version: '0.1.0' }));
    const r = await discoverPlugins({ home: home.dir, linked: [dir] });
    assert.equal(r.plugins.length, 1);
    assert.deepEqual(
      [r.plugins[0].id, r.plugins[0].source, r.plugins[0].root, r.plugins[0].version],
      ['my-dev.plugin', 'linked', dir, '0.1.0'],
    );
  });

  it('keeps the installed plugin on an id collision and marks the linked one invalid', async () => {
    await home.manifest('plugins/same', v1Manifest('same'));
    await home.packages({ version: 1, plugins: [{ name: 'same', root: 'plugins/same', enabled: true }] });
    const dir = await home.manifest('dev/same', v1Manifest('same'));
    const r = await discoverPlugins({ home: home.dir, linked: [dir] });
    assert.deepEqual(
      r.plugins.map((p) => [p.id, p.source]),
      [['same', 'installed']],
    );
    const linked = r.entries.find((e) => e.root === dir);
    assert.equal(linked?.status, 'invalid');
    assert.match(linked?.reason ?? '', /already used by another plugin/);
  });

  it('refuses a linked manifest whose name is not a valid id, or a relative folder', async () => {
    const dir = await home.manifest('dev/badname', v1Manifest('bad name!'));
    const noName = v1Manifest('x');
    delete noName.name;
    const dir2 = await home.manifest('dev/noname', noName);
    const r = await discoverPlugins({ home: home.dir, linked: [dir, dir2, 'relative/dir'] });
    assert.deepEqual(r.plugins, []);
    assert.equal(r.entries.length, 3);
    for (const e of r.entries) assert.equal(e.status, 'invalid');
    assert.ok(r.entries.some((e) => /name "bad name!" is not a valid plugin id/.test(e.reason ?? '')));
    assert.ok(r.entries.some((e) => /name null is not a valid plugin id/.test(e.reason ?? '')));
    assert.ok(r.entries.some((e) => /must be an absolute path/.test(e.reason ?? '')));
  });
});
