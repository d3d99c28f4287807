import { strict as assert } from 'node:assert';
import { catalog, resolveModel, UnknownModelError } from '../../../src/host/streams';
import { FakeClient } from './fake-client';

describe('streams: catalog and model routing (in-process)', () => {
  it('sends {} with the 10 s bound by default and drops foreign refs with a warning (case 54)', async () => {
    const client = new FakeClient('p1');
    client.responders.set('extension/provider/catalog', () => ({
      providers: [{ ref: 'plugin/p1/a/m' }, { ref: 'plugin/other/x/y' }, { ref: 'plugin/p1x/z' }],
    }));
    const warnings: string[] = [];
    const logger = { trace() {}, debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
    const r = await catalog(client, { logger });
    assert.deepEqual(client.calls[0].params, {});
    assert.equal(client.calls[0].opts?.timeoutMs, 10_000);
    assert.deepEqual(
      r.providers.map((d) => d.ref),
      ['plugin/p1/a/m'],
    );
    assert.equal(r.ok, true);
    assert.equal(r.warnings.length, 2);
    assert.equal(warnings.length, 2);
  });

  it('coalesces concurrent first reads and caches success until the process restarts', async () => {
    const client = new FakeClient('p1');
    let n = 0;
    client.responders.set('extension/provider/catalog', () => ({ providers: [{ ref: `plugin/p1/a/${++n}` }] }));
    const [a, b] = await Promise.all([catalog(client), catalog(client)]);
    assert.equal(a, b);
    assert.equal((await catalog(client)).providers[0].ref, 'plugin/p1/a/1');
    assert.equal(client.callsOf('extension/provider/catalog').length, 1);
    client.setState('stopped');
    client.setState('starting');
    client.setState('running');
    assert.equal((await catalog(client)).providers[0].ref, 'plugin/p1/a/2');
  });

  it('a failure yields no models and a warning and is not cached', async () => {
    const client = new FakeClient('p1');
    client.responders.set('extension/provider/catalog', () => {
      throw new Error('timed out');
    });
    const r = await catalog(client, { timeoutMs: 30 });
    assert.deepEqual(r.providers, []);
    assert.equal(r.ok, false);
    assert.match(r.warnings[0], /offers no models this time/);
    client.responders.set('extension/provider/catalog', () => ({ providers: [{ ref: 'plugin/p1/a/m' }] }));
    assert.equal((await catalog(client)).providers.length, 1);
  });

  it('a malformed catalog result is a failure', async () => {
    const client = new FakeClient('p1');
    client.responders.set('extension/provider/catalog', () => ({ providers: null }));
    const r = await catalog(client);
    assert.equal(r.ok, false);
  });

  it('resolveModel routes only to the named plugin and never falls back', () => {
    const catalogs = [
      {
        pluginId: 'p1',
        running: true,
        providers: [{ ref: 'plugin/p1/prov/m1' }, { ref: 'plugin/p1/other', model: 'big' }],
      },
      { pluginId: 'p2', running: false, providers: [{ ref: 'plugin/p2/prov/m' }] },
    ];
    assert.deepEqual(resolveModel('plugin/p1/prov/m1', catalogs), {
      pluginId: 'p1',
      providerRef: 'plugin/p1/prov/m1',
      descriptor: catalogs[0].providers[0],
    });
    const viaModel = resolveModel('plugin/p1/other/big', catalogs);
    assert.equal(viaModel.providerRef, 'plugin/p1/other');
    assert.equal(viaModel.model, 'big');
    const viaPrefix = resolveModel('plugin/p1/prov', catalogs);
    assert.equal(viaPrefix.providerRef, 'plugin/p1/prov/m1');
    assert.throws(
      () => resolveModel('plugin/p2/prov/m', catalogs),
      (e: unknown) => e instanceof UnknownModelError && /not running/.test(e.message),
    );
    assert.throws(() => resolveModel('plugin/p1/prov/nope', catalogs), /unknown model/);
    assert.throws(() => resolveModel('plugin/p3/prov/m', catalogs), /unknown model/);
    assert.throws(() => resolveModel('deepseek-chat', catalogs), /unknown model/);
  });
});
