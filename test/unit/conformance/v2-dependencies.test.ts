// Dependencies between a folder's extensions (HOST_SPEC_V2 §11, §2.2 epoch, §2.4; cases V2-17..V2-25)
// against real sidecars: test/fixtures/sidecars/dependent.js writes spawn/init/ready/shutdown lines
// to one shared log, so the order across processes is what the processes themselves saw.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  GenerationError,
  SessionRuntime,
  startGeneration,
  type RuntimeGeneration,
} from '../../../src/host/generations';
import type { CapabilityDecl, PluginSpec, RuntimeBlock } from '../../../src/host/plugins/types';
import { testEngine } from '../../support/engine';
import { pluginFolderV2, scriptPlugin } from '../../support/plugins';
import { liveDescendants } from '../../support/orphans';
import { countingFactory, FAST_TIMEOUTS } from '../generations/helpers';

const FIXTURE = path.resolve(__dirname, '../../../../test/fixtures/sidecars/dependent.js');
const SESSION = { sessionId: 's-deps', workspaceRoot: '/tmp/ws', generation: 1 };

const key = (id: string, extra: Partial<CapabilityDecl> = {}): CapabilityDecl => ({
  namespace: 'plugin/base',
  kind: 'interceptors',
  id,
  ...extra,
});

describe('conformance: dependencies between a folder’s extensions (HOST_SPEC_V2 §11)', function () {
  this.timeout(20000);
  let dir: string;
  let log: string;
  const gens: RuntimeGeneration[] = [];

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rx-deps-'));
    log = path.join(dir, 'order.log');
  });
  afterEach(async () => {
    await Promise.all(gens.splice(0).map((g) => g.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  function plugin(
    id: string,
    o: {
      requires?: CapabilityDecl[];
      provides?: CapabilityDecl[];
      env?: Record<string, string>;
    } & Partial<RuntimeBlock> = {},
  ): PluginSpec {
    const { requires, provides, env, ...runtime } = o;
    return scriptPlugin(id, FIXTURE, {
      protocol: 2,
      requires,
      provides,
      runtime: { env: { FIX_ORDER_LOG: log, ...env }, ...runtime },
    });
  }
  const lines = (): string[] => {
    try {
      return readFileSync(log, 'utf8').trim().split('\n').filter(Boolean);
    } catch {
      return [];
    }
  };
  const spawned = () =>
    lines()
      .filter((l) => l.startsWith('spawn '))
      .map((l) => l.split(' ')[1]);
  const epochOf = (id: string) =>
    lines()
      .find((l) => l.startsWith(`init ${id} `))
      ?.split(' ')[2];
  async function start(plugins: PluginSpec[]): Promise<RuntimeGeneration> {
    const gen = await startGeneration({ plugins, session: SESSION, uiHost: 'headless', timeouts: FAST_TIMEOUTS });
    gens.push(gen);
    return gen;
  }
  const provider = (version: string, extra: Partial<CapabilityDecl> = {}) => [key('default', { version, ...extra })];

  it('V2-17: a provider at 1.4.0 satisfies ">=1.0.0,<2.0.0"; one at 2.0.0 does not and the consumer stays Inactive', async () => {
    const consumer = () => plugin('a', { requires: [key('default', { versionRange: '>=1.0.0,<2.0.0' })] });
    const ok = await start([consumer(), plugin('b', { provides: provider('1.4.0') })]);
    assert.equal(ok.sidecars.get('a')?.state, 'running');
    assert.equal(ok.inactive.size, 0);
    await ok.stop();
    rmSync(log, { force: true });

    const no = await start([consumer(), plugin('b', { provides: provider('2.0.0') })]);
    assert.deepEqual(spawned(), ['b'], 'the consumer was not spawned');
    assert.deepEqual(no.inactive.get('a'), [
      {
        key: 'plugin/base/interceptors/default',
        reason: 'dependency_unsatisfied',
        why: 'b provides version 2.0.0, which is not >=1.0.0,<2.0.0',
      },
    ]);
  });

  it('V2-18: requires version "v1.2.0" is satisfied by a provider at 1.2.0 (the leading v is ignored)', async () => {
    const gen = await start([
      plugin('a', { requires: [key('default', { version: 'v1.2.0' })] }),
      plugin('b', { provides: provider('1.2.0') }),
    ]);
    assert.equal(gen.sidecars.get('a')?.state, 'running');
    assert.equal(epochOf('a'), 'plugin/base/interceptors/default|b|1.2.0|');
  });

  it('V2-19: a missing required dependency leaves the plugin Inactive and unspawned; required:true does not fail the session', async () => {
    const home = path.join(dir, 'home');
    mkdirSync(home);
    const consumer = pluginFolderV2(
      path.join(dir, 'consumer'),
      'consumer',
      { command: process.execPath, args: [FIXTURE], env: { FIX_ORDER_LOG: log }, required: true },
      { requires: [key('default')] },
    );
    const other = pluginFolderV2(path.join(dir, 'other'), 'other', {
      command: process.execPath,
      args: [FIXTURE],
      env: { FIX_ORDER_LOG: log },
    });
    const info: string[] = [];
    const engine = testEngine({
      base: dir,
      plugins: [consumer, other],
      logger: {
        trace() {},
        debug() {},
        info: (m) => info.push(m),
        warn: (m) => info.push(m),
        error: (m) => info.push(m),
      },
      options: { sessionId: 'session-19', home },
      deps: { timeouts: FAST_TIMEOUTS },
    });
    try {
      await engine.start(); // the session starts although a required plugin cannot run
      const status = engine.plugins().find((p) => p.pluginId === 'consumer');
      assert.equal(status?.state, 'inactive');
      assert.deepEqual(status?.inactive, [
        { key: 'plugin/base/interceptors/default', reason: 'dependency_unsatisfied' },
      ]);
      assert.equal(status?.detail, 'missing required capability plugin/base/interceptors/default');
      assert.equal(engine.plugins().find((p) => p.pluginId === 'other')?.state, 'running');
      assert.deepEqual(spawned(), ['other']);
      assert.ok(
        info.some((l) =>
          l.endsWith('[consumer] state=Inactive - missing required capability plugin/base/interceptors/default'),
        ),
        info.join('\n'),
      );
      await assert.rejects(engine.startPlugin('consumer'), /consumer" is inactive: missing required capability/);
    } finally {
      await engine.stop();
    }
  });

  it('V2-20: an optional dependency that is missing never blocks: the plugin starts, with a diagnostic', async () => {
    const info: string[] = [];
    const gen = await startGeneration({
      plugins: [plugin('a', { requires: [key('extra', { optional: true })] })],
      session: SESSION,
      uiHost: 'headless',
      timeouts: FAST_TIMEOUTS,
      logger: { trace() {}, debug() {}, info: (m) => info.push(m), warn() {}, error() {} },
    });
    gens.push(gen);
    assert.equal(gen.sidecars.get('a')?.state, 'running');
    assert.deepEqual(gen.dependencies.notes, [
      'optional dependency unsatisfied: a requires plugin/base/interceptors/extra',
    ]);
    assert.ok(info.includes('optional dependency unsatisfied: a requires plugin/base/interceptors/extra'));
    assert.equal(epochOf('a'), '-', 'no satisfied requirement: no epoch');
  });

  it('V2-21: two providers of a key a third requires fail the build (duplicate_provider, naming both); the old runtime stays', async () => {
    let plugins = [plugin('a', { requires: [key('default')] }), plugin('b', { provides: provider('1.0.0') })];
    const runtime = new SessionRuntime({
      sessionId: 's-21',
      workspaceRoot: dir,
      uiHost: 'headless',
      timeouts: FAST_TIMEOUTS,
      loadPlugins: () => plugins,
    });
    try {
      const first = await runtime.start();
      plugins = [...plugins, plugin('c', { provides: provider('1.1.0') })];
      const r = await runtime.reload();
      assert.equal(r.ok, false);
      if (r.ok) return;
      assert.ok(r.error instanceof GenerationError);
      assert.equal(r.error.kind, 'duplicate_provider');
      assert.equal(r.error.reason, 'duplicate_provider');
      assert.match(r.error.message, /plugin\/base\/interceptors\/default has more than one provider \(b, c\)/);
      assert.equal(runtime.current, first, 'the old generation is still the current one');
      assert.equal(first.sidecars.get('a')?.state, 'running');
      assert.deepEqual(spawned(), ['b', 'a'], 'nothing of the failed build was spawned');
    } finally {
      await runtime.stop();
    }
  });

  it('V2-22: A requires B and B requires A fails the build with dependency_cycle and the path', async () => {
    await assert.rejects(
      start([
        plugin('a', { requires: [key('b')], provides: [key('a', { version: '1.0.0' })] }),
        plugin('b', { requires: [key('a')], provides: [key('b', { version: '1.0.0' })] }),
      ]),
      (err: unknown) => {
        assert.ok(err instanceof GenerationError);
        assert.equal(err.kind, 'dependency_cycle');
        assert.equal(err.reason, 'dependency_cycle');
        assert.match(err.message, /required dependencies form a cycle: a -> b -> a/);
        return true;
      },
    );
    assert.deepEqual(spawned(), [], 'nothing was spawned');
  });

  it('V2-23: a pinned schemaHash sha256:aaa against a provider declaring sha256:bbb leaves the plugin Inactive (schema_mismatch)', async () => {
    const gen = await start([
      plugin('a', { requires: [key('default', { schemaHash: 'sha256:aaa' })] }),
      plugin('b', { provides: provider('1.0.0', { schemaHash: 'sha256:bbb' }) }),
    ]);
    assert.equal(gen.inactive.get('a')?.[0].reason, 'schema_mismatch');
    assert.deepEqual(spawned(), ['b']);
  });

  it('V2-24: provider B starts (handshake done) before consumer A whatever their names; drain runs A then B', async () => {
    const gen = await start([
      plugin('a', { requires: [key('default')], priority: 1000 }),
      plugin('zeta', { provides: provider('1.0.0'), env: { FIX_READY_MS: '250' } }),
    ]);
    const before = lines();
    assert.ok(
      before.indexOf('ready zeta') >= 0 && before.indexOf('ready zeta') < before.indexOf('spawn a'),
      before.join('\n'),
    );
    await gen.stop();
    const after = lines().filter((l) => l.startsWith('shutdown '));
    assert.deepEqual(after, ['shutdown a', 'shutdown zeta']);
  });

  it('V2-25: a plugin that requires reasonix/browser/companion is Inactive on this host', async () => {
    const gen = await start([
      plugin('browser', { requires: [{ namespace: 'reasonix', kind: 'browser', id: 'companion' }] }),
    ]);
    assert.deepEqual(gen.inactive.get('browser'), [
      { key: 'reasonix/browser/companion', reason: 'dependency_unsatisfied' },
    ]);
    assert.deepEqual(spawned(), []);
    assert.equal(gen.sidecars.size, 0);
  });

  it('providers first still means at most 4 handshakes at once under the one budget', async () => {
    const { factory, stats } = countingFactory();
    const consumers = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'].map((id) =>
      plugin(id, { requires: [key('default')], env: { FIX_READY_MS: '60' } }),
    );
    const gen = await startGeneration({
      plugins: [...consumers, plugin('p', { provides: provider('1.0.0'), env: { FIX_READY_MS: '100' } })],
      session: SESSION,
      uiHost: 'headless',
      timeouts: FAST_TIMEOUTS,
      sidecarFactory: factory,
    });
    gens.push(gen);
    assert.equal(gen.sidecars.size, 7);
    assert.equal(stats.created[0], 'p');
    assert.equal(stats.maxInFlight, 4);
    const l = lines();
    for (const c of consumers)
      assert.ok(l.indexOf(`spawn ${c.id}`) > l.indexOf('ready p'), `${c.id} spawned after p was ready`);
  });

  it('a provider that fails to start leaves its consumers Inactive (not fatal even when required); they start once it runs', async () => {
    const gen = await start([
      plugin('a', { requires: [key('default')], required: true }),
      plugin('b', { provides: provider('1.0.0'), env: { FIX_FAIL: '1' } }),
    ]);
    assert.deepEqual(spawned(), ['b']);
    assert.deepEqual(gen.inactive.get('a'), [
      {
        key: 'plugin/base/interceptors/default',
        reason: 'dependency_unsatisfied',
        why: 'its provider b did not start',
      },
    ]);
    await assert.rejects(gen.startPlugin('a', { ...SESSION, generation: 2 }), (err: unknown) => {
      assert.ok(err instanceof GenerationError);
      assert.equal(err.kind, 'dependency_unsatisfied');
      assert.match(err.message, /comes from "b", which is not running\. Start "b" first/);
      return true;
    });
    assert.deepEqual(spawned(), ['b'], 'the refused start spawned nothing');
  });

  it('a required plugin whose dependencies are satisfied and that fails fails the build as activation_failed', async () => {
    await assert.rejects(
      start([
        plugin('a', { requires: [key('default')], required: true, env: { FIX_FAIL: '1' } }),
        plugin('b', { provides: provider('1.0.0') }),
      ]),
      (err: unknown) => {
        assert.ok(err instanceof GenerationError);
        assert.equal(err.reason, 'activation_failed');
        assert.match(err.message, /failed \(activation_failed\): required plugin "a" did not start/);
        return true;
      },
    );
    assert.deepEqual(liveDescendants(), [], 'the provider that did start was stopped');
  });

  it('epoch: a consumer is told its providers’ identity; a reload that changes a provider’s version changes it, v1 plugins get none', async () => {
    let version = '1.0.0';
    const runtime = new SessionRuntime({
      sessionId: 's-epoch',
      workspaceRoot: dir,
      uiHost: 'headless',
      timeouts: FAST_TIMEOUTS,
      loadPlugins: () => [
        plugin('a', { requires: [key('default')] }),
        plugin('b', { provides: provider(version, { schemaHash: 'sha256:1' }) }),
        scriptPlugin('old', FIXTURE, { runtime: { env: { FIX_ORDER_LOG: log, FIX_PROTOCOL: '1' } } }),
      ],
    });
    try {
      await runtime.start();
      assert.equal(epochOf('a'), 'plugin/base/interceptors/default|b|1.0.0|sha256:1');
      assert.equal(epochOf('b'), '-');
      assert.equal(epochOf('old'), '-');
      rmSync(log, { force: true });
      await runtime.reload(); // same dependencies: same epoch
      assert.equal(epochOf('a'), 'plugin/base/interceptors/default|b|1.0.0|sha256:1');
      rmSync(log, { force: true });
      version = '1.1.0';
      await runtime.reload();
      assert.equal(epochOf('a'), 'plugin/base/interceptors/default|b|1.1.0|sha256:1');
      rmSync(log, { force: true });
      await runtime.restartPlugin('a'); // a single restart keeps the epoch
      assert.equal(epochOf('a'), 'plugin/base/interceptors/default|b|1.1.0|sha256:1');
    } finally {
      await runtime.stop();
    }
  });
});
