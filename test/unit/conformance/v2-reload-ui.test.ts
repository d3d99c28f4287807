// UI during a reload (HOST_SPEC_V2 §2.4 stage → ready → commit, case V2-49), against real sidecars
// in a composed session: test/fixtures/sidecars/dependent.js publishes a status right after
// extension/initialized (while its generation is staged) and again on session.start (after the
// commit), and logs what the host answered. A slow second plugin keeps the build staged long
// enough to look at what is shown meanwhile.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { SessionEngine } from '../../../src/host/session';
import { SurfaceStore } from '../../../src/host/ui';
import { testEngine } from '../../support/engine';
import { pluginFolder, pluginFolderV2 } from '../../support/plugins';
import { waitFor } from '../../support/wait';
import { FAST_TIMEOUTS } from '../generations/helpers';

const FIXTURE = path.resolve(__dirname, '../../../../test/fixtures/sidecars/dependent.js');

describe('conformance: UI of a staged generation during reload (HOST_SPEC_V2 §2.4)', function () {
  this.timeout(20000);
  let dir: string;
  let log: string;
  let store: SurfaceStore;
  let engine: SessionEngine | undefined;
  let linked: string[];

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rx-stage-'));
    log = path.join(dir, 'order.log');
    store = new SurfaceStore();
  });
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const runtime = (env: Record<string, string>, extra: Record<string, unknown> = {}) => ({
    command: process.execPath,
    args: [FIXTURE],
    capabilities: ['ui'],
    intercepts: ['session.start'],
    env: { FIX_ORDER_LOG: log, ...env },
    ...extra,
  });
  const publishes = (generation: number) =>
    (existsSync(log) ? readFileSync(log, 'utf8') : '')
      .split('\n')
      .filter((l) => l.startsWith('publish pub ') && l.split(' ')[2] === String(generation))
      .map((l) => l.split(' ')[3]);
  const shown = () => store.get(dir, 'pub', 'dep');
  const until = (probe: () => boolean, what: string) =>
    waitFor(() => probe(), { timeoutMs: 8000, intervalMs: 10, what });

  async function startEngine(): Promise<SessionEngine> {
    const e = createEngine();
    await e.start();
    return e;
  }

  function createEngine(): SessionEngine {
    engine = testEngine({
      base: dir,
      plugins: () => linked,
      logger: silent,
      options: { sessionId: 'session-49' },
      deps: { store, timeouts: FAST_TIMEOUTS },
    });
    return engine;
  }

  it('V2-49: a staged generation’s publish gets {accepted:false} and nothing is rendered; after commit the same publish is accepted', async () => {
    linked = [
      pluginFolderV2(path.join(dir, 'pub'), 'pub', runtime({ FIX_PUBLISH: '1' })),
      pluginFolderV2(path.join(dir, 'slow'), 'slow', runtime({ FIX_READY_MS: '400' })),
    ];
    const e = await startEngine();
    await until(() => publishes(1).length === 2, 'both publishes of the first generation');
    assert.deepEqual(
      publishes(1),
      ['true', 'true'],
      'at boot (nothing published yet) a staged publish is held, not refused',
    );
    assert.equal(shown()?.generation, 1);

    const reload = e.reload();
    await until(() => publishes(2).length > 0, 'the staged publish of generation 2');
    assert.deepEqual(publishes(2), ['false']);
    assert.equal(shown()?.generation, 1, 'the published generation keeps its surface while the next one is staged');
    assert.equal(shown()?.stale, false);
    await reload;
    await until(() => publishes(2).includes('true'), 'the publish after commit');
    assert.deepEqual(publishes(2), ['false', 'true']);
    assert.equal(shown()?.generation, 2);
  });

  it('at boot a staged publish is held and shown only at commit, for v2 as for v1 (our policy: no older UI to protect)', async () => {
    linked = [
      pluginFolderV2(path.join(dir, 'pub'), 'pub', runtime({ FIX_PUBLISH: '1' })),
      pluginFolderV2(path.join(dir, 'slow'), 'slow', runtime({ FIX_READY_MS: '600' })),
    ];
    const e = createEngine();
    const started = e.start();
    await until(() => publishes(1).length > 0, 'the publish made while the first build is staged');
    assert.deepEqual(publishes(1), ['true'], 'accepted while staged at boot');
    assert.equal(shown(), undefined, 'not shown before the build is published');
    await started;
    assert.equal(shown()?.generation, 1, 'shown at commit');
    assert.equal(shown()?.stale, false);
  });

  it('a plugin that published while the first build was staged and crashed before it was published: its surface is shown stale, not lost', async () => {
    linked = [
      pluginFolderV2(path.join(dir, 'pub'), 'pub', runtime({ FIX_PUBLISH: '1', FIX_CRASH_AFTER_PUBLISH: '1' })),
      pluginFolderV2(path.join(dir, 'slow'), 'slow', runtime({ FIX_READY_MS: '600' })),
    ];
    const e = createEngine();
    const started = e.start();
    await until(() => publishes(1).length > 0, 'the publish made while the first build is staged');
    // Gone while the build is staged (counted as a failed start until the build is published).
    await until(() => e.plugins().some((p) => p.pluginId === 'pub' && p.state === 'failed'), 'pub gone');
    assert.equal(shown(), undefined, 'not shown before the build is published');
    await started;
    assert.equal(shown()?.generation, 1, 'shown at commit');
    assert.equal(shown()?.stale, true, 'as the surface of an extension that has crashed');
  });

  it('v1 differs on purpose: a staged publish is accepted and shown at commit (the v1 reference gave each build its own hub)', async () => {
    linked = [
      pluginFolder(path.join(dir, 'pub'), 'pub', runtime({ FIX_PUBLISH: '1', FIX_PROTOCOL: '1' })),
      pluginFolder(path.join(dir, 'slow'), 'slow', runtime({ FIX_READY_MS: '400', FIX_PROTOCOL: '1' })),
    ];
    const e = await startEngine();
    const reload = e.reload();
    await until(() => publishes(2).length > 0, 'the staged publish of generation 2');
    assert.deepEqual(publishes(2), ['true'], 'accepted while staged');
    assert.equal(shown()?.generation, 1, 'but not shown before the commit');
    await reload;
    assert.equal(shown()?.generation, 2, 'shown at commit');
    assert.equal(shown()?.stale, false);
  });

  it('a reload that fails drops what the staged generation published; the old generation keeps its UI', async () => {
    linked = [pluginFolder(path.join(dir, 'pub'), 'pub', runtime({ FIX_PUBLISH: '1', FIX_PROTOCOL: '1' }))];
    const e = await startEngine();
    await until(() => publishes(1).length === 2, 'both publishes of generation 1');
    linked = [
      ...linked,
      pluginFolder(
        path.join(dir, 'broken'),
        'broken',
        runtime({ FIX_PROTOCOL: '1', FIX_READY_MS: '300', FIX_FAIL: '1' }, { required: true }),
      ),
    ];
    await assert.rejects(e.reload(), /required plugin "broken" did not start/);
    assert.deepEqual(publishes(2), ['true'], 'the staged v1 publish was accepted');
    assert.equal(shown()?.generation, 1, 'and dropped with its build');
    assert.equal(shown()?.stale, false, 'the running generation’s surface stays live');
    await e.dispatch('session.start', { phase: 'start' });
    await until(() => publishes(1).length === 3, 'a publish of the old generation after the failed reload');
    assert.deepEqual(publishes(1), ['true', 'true', 'true'], 'the old generation is still bound');
  });
});

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
