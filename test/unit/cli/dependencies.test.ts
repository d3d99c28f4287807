// Issue 45 items 5 and 10: `check` (alone and --with) and `run` say the same thing about a v2
// plugin's requirements. Inactive (a required capability nothing provides) is no error: `check`
// conforms and says Inactive in its headline, `run` prints the plugin Inactive with its reason and
// exits 0 beside a healthy plugin. A cycle of required capabilities is a refusal for both: `check
// --with` fails with dependency_cycle, `run` refuses the generation, exits 1, and with --json
// prints the reason on stdout as well.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { pluginFolderV2 } from '../../support/plugins';
import { HELLO, parseJson, parseLines, runCli, SIDECARS, tempDir } from './support';

const DEPENDENT = join(SIDECARS, 'dependent.js');
const cap = (id: string) => ({ namespace: 'acme', kind: 'index', id });
const need = (id: string) => ({ ...cap(id), versionRange: '>=1.0.0,<2.0.0' });
const offer = (id: string) => ({ ...cap(id), version: '1.4.0' });

describe('reasonix-host check and run agree on dependencies (issue 45 items 5, 10)', function () {
  this.timeout(40_000);
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir('deps')));
  afterEach(() => tmp.cleanup());

  const plugin = (name: string, extra: Record<string, unknown>) =>
    pluginFolderV2(join(tmp.dir, name), name, { command: process.execPath, args: [DEPENDENT] }, extra);

  it('Inactive beside a healthy plugin: run exits 0 and prints why; check conforms and says Inactive', async () => {
    const consumer = plugin('consumer', { requires: [need('search')] });
    const run = await runCli(['run', consumer, HELLO, '--for', '1', '--json', '--workspace', tmp.dir]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const plugins = parseLines(run.stdout).filter((e) => e.type === 'plugin');
    const byId = new Map(plugins.map((p) => [p.pluginId, p]));
    assert.equal(byId.get('hello')?.state, 'running');
    assert.equal(byId.get('consumer')?.state, 'inactive');
    assert.deepEqual(
      (byId.get('consumer')?.inactive as { key: string; reason: string }[]).map((u) => [u.key, u.reason]),
      [['acme/index/search', 'dependency_unsatisfied']],
    );
    const text = await runCli(['run', consumer, HELLO, '--for', '1', '--workspace', tmp.dir]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /plugin consumer: inactive — .*acme\/index\/search/);

    const check = await runCli(['check', consumer, '--json']);
    assert.equal(check.code, 0, check.stdout);
    const report = parseJson<{ ok: boolean; message: string; dependencies: { state: string } }>(check.stdout);
    assert.equal(report.dependencies.state, 'inactive');
    assert.match(report.message, /conforms.*Inactive — missing required capability acme\/index\/search/);
  });

  it('a cycle: check --with fails with dependency_cycle; run refuses, exits 1 and prints the reason with --json', async () => {
    const a = plugin('a', { requires: [need('x')], provides: [offer('y')] });
    const b = plugin('b', { requires: [need('y')], provides: [offer('x')] });
    const check = await runCli(['check', a, '--with', b, '--json']);
    assert.equal(check.code, 1, check.stdout);
    const report = parseJson<{ ok: boolean; reason: string; message: string; dependencies: { state: string } }>(
      check.stdout,
    );
    assert.equal(report.ok, false);
    assert.equal(report.reason, 'dependency_cycle');
    assert.equal(report.dependencies.state, 'refused');
    assert.match(report.message, /dependency_cycle/);
    const text = await runCli(['check', a, '--with', b]);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /^✖ .*Refused — dependency_cycle/);

    const run = await runCli(['run', a, b, '--for', '1', '--json', '--workspace', tmp.dir]);
    assert.equal(run.code, 1);
    const failed = parseLines(run.stdout).find((e) => e.type === 'start-failed');
    assert.ok(failed, `a start-failed line on stdout: ${run.stdout}`);
    assert.equal(failed.reason, 'dependency_cycle');
    assert.equal(failed.kind, 'dependency_cycle');
    assert.match(String(failed.message), /dependency_cycle/);
  });
});
