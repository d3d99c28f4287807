// One record per wired sidecar (issue 39): a stream goes to the hub of the published generation's
// sidecar, so a reload that fails leaves the running provider's streams working (the stream hub
// used to be kept per plugin id and replaced by the failed build's), with v1 and v2 providers.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { SessionEngine } from '../../../src/host/session';
import { silentLogger } from '../../../src/host/log';
import { testEngine } from '../../support/engine';
import type { Sidecar } from '../../../src/host/sidecar';
import { pluginFolder, pluginFolderV2 } from '../../support/plugins';
import { PluginRecords, type PluginRecord } from '../../../src/host/session/pluginRecord';

const PROVIDER = resolve(__dirname, '../../../../test/fixtures/providers/provider.js');
const INTERCEPTOR = resolve(__dirname, '../../../../test/fixtures/interceptors/interceptor.js');
const DECLARED = [{ ref: 'plugin/p/fake/echo', model: 'echo', displayName: 'Fake echo' }];

describe('session records: one per wired sidecar', function () {
  this.timeout(30000);
  let dir: string;
  let engine: SessionEngine | undefined;

  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rx-records-'))));
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  /** The required plugin `r`: its command works, or (`broken`) does not exist, so a build with it fails. */
  function required(broken: boolean): string {
    return pluginFolder(join(dir, 'r'), 'r', {
      command: broken ? join(dir, 'no-such-node') : process.execPath,
      args: [INTERCEPTOR],
      required: true,
    });
  }

  async function startEngine(linked: string[]): Promise<SessionEngine> {
    engine = testEngine({ base: dir, plugins: linked, logger: silentLogger, options: { sessionId: 'session-1' } });
    await engine.start();
    return engine;
  }

  async function drain(e: SessionEngine): Promise<unknown> {
    const stream = await e.openStream('plugin/p/fake/echo', { messages: [{ role: 'user', content: 'hi' }] });
    for await (const chunk of stream) void chunk;
    return stream.outcome;
  }

  for (const protocol of [1, 2] as const) {
    it(`protocol v${protocol}: after a reload that fails, the running provider still streams`, async () => {
      const runtime = {
        command: process.execPath,
        args: [PROVIDER],
        capabilities: ['providers'],
        env: { PROVIDER_DECLARE: JSON.stringify(DECLARED), PROVIDER_PROTOCOL: String(protocol) },
      };
      const p =
        protocol === 2 ? pluginFolderV2(join(dir, 'p'), 'p', runtime) : pluginFolder(join(dir, 'p'), 'p', runtime);
      const e = await startEngine([p, required(false)]);
      assert.deepEqual(await drain(e), { kind: 'completed' });
      const pid = e.plugins().find((x) => x.pluginId === 'p')?.pid;

      required(true);
      await assert.rejects(e.reload(), /required plugin "r" did not start/);
      const row = e.plugins().find((x) => x.pluginId === 'p');
      assert.equal(row?.state, 'running');
      assert.equal(row?.pid, pid, 'the generation that runs is the one before the failed reload');
      assert.deepEqual(await drain(e), { kind: 'completed' });
    });
  }
});

describe('session records: let go of once, at most two per plugin', () => {
  /** A record of plugin `id` whose stream hub and subscriptions count their disposals. */
  function record(id: string, disposed: string[]): PluginRecord {
    const sidecar = { pluginId: id } as unknown as Sidecar;
    return {
      sidecar,
      streams: { dispose: () => disposed.push(`${id} streams`) },
      subscriptions: [{ dispose: () => disposed.push(`${id} subscription`) }],
      actions: [],
    } as unknown as PluginRecord;
  }

  it('prune keeps the published generation and each plugin’s newest; what it drops is disposed once', () => {
    const disposed: string[] = [];
    const records = new PluginRecords();
    const a1 = record('a', disposed);
    const b1 = record('b', disposed);
    for (const r of [a1, b1]) records.set(r.sidecar, r);
    // A reload stages a2 and b2 and fails: a1 and b1 still run (live), a2 and b2 are each plugin's newest.
    const a2 = record('a', disposed);
    const b2 = record('b', disposed);
    for (const r of [a2, b2]) records.set(r.sidecar, r);
    records.prune(new Set([a1.sidecar, b1.sidecar]));
    assert.deepEqual([...records.values()], [a1, b1, a2, b2]);
    assert.deepEqual(disposed, []);
    // The next reload's a3 is published: a1, b1 (replaced) and a2 (an older failed build) go, b2 stays b's newest.
    const a3 = record('a', disposed);
    records.set(a3.sidecar, a3);
    records.prune(new Set([a3.sidecar]));
    assert.deepEqual([...records.values()], [b2, a3]);
    assert.equal(disposed.length, 6, 'three records, each its stream hub and its subscription once');
    records.prune(new Set([a3.sidecar]));
    assert.equal(disposed.length, 6, 'pruning again disposes nothing twice');
    assert.equal(records.newest('a'), a3);
    records.drop(() => true);
    assert.equal(records.size, 0);
    assert.equal(disposed.length, 10);
  });
});
