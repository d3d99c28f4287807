// Extension management against the real Reasonix 1.38.11 (the pinned devDependency), with HOME
// and REASONIX_HOME in a scratch folder: plan, install (and the installed extension running in a
// session), refusals, disable/enable in Reasonix, remove.
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ReasonixCli, ReasonixError, reasonixVersion } from '../../../src/host/reasonix';
import { discoverPlugins } from '../../../src/host/plugins';
import type { SessionEngine } from '../../../src/host/session';
import { silentLogger } from '../../../src/host/log';
import { testEngine } from '../../support/engine';
import { realReasonixBinary, scratchReasonix, type ScratchReasonix } from '../../support/reasonix';

const packagesFile = (s: ScratchReasonix) => path.join(s.reasonixHome, 'plugin-packages.json');
const packages = (s: ScratchReasonix) =>
  JSON.parse(readFileSync(packagesFile(s), 'utf8')) as { plugins: { name: string; enabled: boolean }[] };

/** What Reasonix wrote: nothing at all, or only its own bookkeeping folder. */
function nothingInstalled(s: ScratchReasonix): void {
  assert.equal(existsSync(packagesFile(s)) && packages(s).plugins.length > 0, false, 'no package recorded');
  const plugins = path.join(s.reasonixHome, 'plugins');
  assert.deepEqual(existsSync(plugins) ? readdirSync(plugins) : [], [], 'no package folder');
}

async function rejects(p: Promise<unknown>, step: string, kind: string, said?: RegExp): Promise<ReasonixError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ReasonixError, String(err));
    assert.equal(err.step, step, err.message);
    assert.equal(err.kind, kind, err.message);
    if (said) assert.match(err.said, said);
    return err;
  }
  assert.fail('expected a ReasonixError');
}

describe('the real Reasonix 1.38.11: plugin management', function () {
  this.timeout(30000);
  let s: ScratchReasonix;
  let cli: ReasonixCli;
  let engine: SessionEngine | undefined;

  beforeEach(() => {
    s = scratchReasonix();
    cli = new ReasonixCli({ bin: realReasonixBinary(), home: s.reasonixHome, cwd: s.workspace, env: s.env });
  });
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
    s.remove();
  });

  it('reports its version', async () => {
    assert.equal(await reasonixVersion(realReasonixBinary(), s.workspace, s.env), '1.38.11');
  });

  it('plans a v2 folder without writing anything: risk reasons, runtime, hook points, capabilities, compatibility', async () => {
    const src = s.extension();
    const plan = await cli.plan(src);
    assert.match(plan.planId, /^hmac-v1:[0-9a-f]{64}$/);
    assert.equal(plan.applied, false);
    assert.equal(plan.actions.length, 1);
    const a = plan.actions[0];
    assert.equal(a.name, 'greeter');
    assert.equal(a.version, '1.0.0');
    assert.equal(a.mode, 'copy');
    assert.equal(a.riskLevel, 'high');
    assert.ok(
      a.riskReasons.some((r) => r.startsWith('FULL TRUST: declares a runtime process')),
      a.riskReasons.join('|'),
    );
    assert.deepEqual(a.runtime, {
      command: '${REASONIX_PLUGIN_ROOT}/bin/greeter',
      args: [],
      intercepts: ['tool.before'],
      capabilities: ['ui', 'interceptors'],
      fullTrust: true,
    });
    assert.equal(a.compatibility, 'full');
    assert.equal(a.target, path.join(s.reasonixHome, 'plugins', 'greeter'));
    nothingInstalled(s);
  });

  for (const link of [false, true]) {
    it(`installs exactly the agreed plan (${link ? 'linked' : 'copied'}); the package is listed and runs in a session`, async () => {
      const src = s.extension();
      const plan = await cli.plan(src, { link });
      const applied = await cli.install(src, { link }, plan);
      assert.equal(applied.planId, plan.planId);
      assert.equal(applied.status, 'done');
      assert.deepEqual(
        (await cli.list()).map((p) => [p.name, p.state, p.version]),
        [['greeter', 'enabled', '1.0.0']],
      );
      assert.deepEqual(
        packages(s).plugins.map((p) => [p.name, p.enabled]),
        [['greeter', true]],
      );
      const found = await discoverPlugins({ home: s.reasonixHome });
      assert.deepEqual(
        found.plugins.map((p) => [p.id, p.protocol, p.source]),
        [['greeter', 2, 'installed']],
      );
      engine = testEngine({
        base: s.workspace,
        plugins: [],
        logger: silentLogger,
        options: { sessionId: 'session-1', folderName: 'workspace', home: s.reasonixHome },
        deps: { timeouts: undefined }, // the engine's own shutdown timeouts, as the faces run it
      });
      await engine.start();
      assert.equal(engine.plugins().find((p) => p.pluginId === 'greeter')?.state, 'running');
    });
  }

  it('a plan that changed after it was shown is not applied (step plan, mismatch); nothing written', async () => {
    const src = s.extension();
    const plan = await cli.plan(src);
    const file = path.join(src, 'reasonix-plugin.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"1.0.0"', '"1.0.1"'));
    await rejects(cli.install(src, {}, plan), 'plan', 'mismatch');
    nothingInstalled(s);
  });

  it('refusals carry Reasonix’s reason verbatim: a v1 manifest, runtime.tools, an unreadable source; nothing written', async () => {
    await rejects(
      cli.plan(s.extension('../../../examples/hello', 'hello')),
      'plan',
      'refused',
      /unsupported apiVersion "reasonix.io\/plugin\/v1"/,
    );
    await rejects(
      cli.plan(s.extension('../../../examples/showcase', 'showcase')),
      'plan',
      'refused',
      /unknown field \\?"tools\\?"/,
    );
    await rejects(cli.plan(path.join(s.workspace, 'nowhere')), 'plan', 'refused', /not a readable local path/);
    nothingInstalled(s);
  });

  it('a failing apply (already installed, no --replace) is an install error with the reason, and changes nothing', async () => {
    const src = s.extension();
    await cli.install(src, {}, await cli.plan(src));
    const before = readFileSync(packagesFile(s), 'utf8');
    const again = await cli.plan(src);
    await rejects(cli.install(src, {}, again), 'install', 'refused', /already exists/);
    assert.equal(readFileSync(packagesFile(s), 'utf8'), before);
  });

  it('disables and enables a package in Reasonix, then removes it', async () => {
    const src = s.extension();
    await cli.install(src, {}, await cli.plan(src));
    await cli.setEnabled('greeter', false);
    assert.equal((await cli.list())[0].state, 'disabled');
    assert.equal(packages(s).plugins[0].enabled, false);
    const off = await discoverPlugins({ home: s.reasonixHome });
    assert.deepEqual(
      off.entries.map((e) => [e.id, e.status, e.disabledBy, e.origin]),
      [['greeter', 'disabled', 'reasonix', 'installed']],
    );
    await cli.setEnabled('greeter', true);
    assert.equal((await cli.list())[0].state, 'enabled');
    assert.match(await cli.show('greeter'), /^name: greeter$/m);
    assert.match(await cli.doctor('greeter'), /^ok: greeter /m);
    await cli.remove('greeter');
    assert.deepEqual(await cli.list(), []);
    assert.deepEqual(packages(s).plugins, []);
    await rejects(cli.setEnabled('greeter', true), 'enable', 'exit', /plugin "greeter" is not installed/);
  });

  it('Migrate to v2: Reasonix 1.38.11 refuses a v1 manifest and says why', async () => {
    const hello = s.extension('../../../examples/hello', 'hello');
    writeFileSync(
      packagesFile(s),
      JSON.stringify({
        version: 1,
        plugins: [
          { name: 'hello', source: hello, root: hello, version: '0.1.0', manifestKind: 'reasonix', enabled: true },
        ],
      }),
    );
    await rejects(cli.migrate('hello'), 'migrate', 'exit', /migrate parse: .*unsupported apiVersion/);
  });
});
