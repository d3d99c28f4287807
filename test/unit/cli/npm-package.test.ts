// The CLI as its own npm package (scripts/pack-cli.mjs, `npx reasonix-host …`): what the tarball
// holds, and that the CLI runs from it when installed into an empty folder with no dev
// dependencies (it has none at all: dist/cli.js carries the engine and the MCP SDK).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, SHOWCASE, tempDir } from './support';

describe('the reasonix-host npm package', function () {
  this.timeout(120_000);
  let tmp: ReturnType<typeof tempDir>;
  let tgz: string;
  before(() => {
    tmp = tempDir('npm-package');
    const r = spawnSync(process.execPath, [join(REPO, 'scripts', 'pack-cli.mjs')], { cwd: REPO, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    tgz = join(REPO, 'out', 'npm', `reasonix-host-${version}.tgz`);
    assert.ok(readdirSync(join(REPO, 'out', 'npm')).includes(`reasonix-host-${version}.tgz`), r.stdout);
  });
  after(() => tmp.cleanup());

  it('holds the bundled CLI, its README, the licence and a manifest without dependencies', () => {
    const r = spawnSync('tar', ['-tzf', tgz], { encoding: 'utf8' });
    assert.deepEqual(r.stdout.trim().split('\n').sort(), [
      'package/LICENSE',
      'package/README.md',
      'package/cli.js',
      'package/mcp-app.html',
      'package/package.json',
    ]);
    const manifest = JSON.parse(
      spawnSync('tar', ['-xzOf', tgz, 'package/package.json'], { encoding: 'utf8' }).stdout,
    ) as Record<string, unknown>;
    assert.equal(manifest.name, 'reasonix-host');
    assert.deepEqual(manifest.bin, { 'reasonix-host': 'cli.js' });
    assert.equal(manifest.dependencies, undefined);
    assert.equal(manifest.private, undefined, 'publishable');
  });

  it('installed into an empty folder, npx reasonix-host checks a sidecar and serves MCP help', () => {
    const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--omit=dev', tgz], {
      cwd: tmp.dir,
      encoding: 'utf8',
    });
    assert.equal(install.status, 0, install.stderr);
    const npx = (...args: string[]) =>
      spawnSync('npx', ['--no-install', 'reasonix-host', ...args], { cwd: tmp.dir, encoding: 'utf8', timeout: 60_000 });
    const check = npx('check', SHOWCASE, '--json');
    assert.equal(check.status, 0, check.stderr);
    const report = JSON.parse(check.stdout) as { ok: boolean; plugin: string };
    assert.deepEqual([report.ok, report.plugin], [true, 'showcase']);
    const help = npx('mcp', '--help');
    assert.equal(help.status, 0);
    assert.match(help.stdout, /Usage: reasonix-host mcp/);
    assert.deepEqual(
      readdirSync(join(tmp.dir, 'node_modules')).filter((d) => !d.startsWith('.')),
      ['reasonix-host'],
    );
  });
});
