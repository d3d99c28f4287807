// Provider streams on protocol v2 (HOST_SPEC_V2 §6, cases V2-35..V2-38) against the real fixture
// provider (test/fixtures/providers/provider.js) speaking v2, through the real Sidecar and StreamHub.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Sidecar } from '../../../src/host/sidecar';
import { StreamHub, streamHandlers, type ProviderStream } from '../../../src/host/streams';
import { scriptPlugin } from '../../support/plugins';
import { ROOT } from '../streams/real-support';

describe('conformance: protocol v2 provider streams (HOST_SPEC_V2 §6)', function () {
  this.timeout(15000);
  let sidecar: Sidecar | undefined;
  let hub: StreamHub;
  let dir: string;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rx-v2-streams-'));
    const ref: { hub?: StreamHub } = {};
    sidecar = new Sidecar({
      plugin: scriptPlugin('prov', path.join(ROOT, 'test/fixtures/providers/provider.js'), {
        protocol: 2,
        runtime: {
          capabilities: ['providers'],
          env: { PROVIDER_PROTOCOL: '2', PROVIDER_RECORD: path.join(dir, 'opens') },
        },
      }),
      session: { sessionId: 'boot-5', workspaceRoot: ROOT, generation: 5 },
      uiHost: 'headless',
      handlers: streamHandlers(() => ref.hub),
      timeouts: { shutdownRequestMs: 1000, exitGraceMs: 200, reapMs: 2000 },
    });
    hub = new StreamHub(sidecar, { gapMs: 30 });
    ref.hub = hub;
    await sidecar.start();
  });
  afterEach(async () => {
    await sidecar?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (scenario: string) => hub.openStream({ providerRef: `plugin/prov/${scenario}/m` });
  async function drain(s: ProviderStream): Promise<{ texts: string[]; kind: string }> {
    const texts: string[] = [];
    for await (const c of s) texts.push(c.text ?? c.type);
    return { texts, kind: (await s.outcome).kind };
  }

  it('V2-38: stream/open carries the published generation and no epoch', async () => {
    await drain(open('inorder'));
    const sent = JSON.parse(readFileSync(path.join(dir, 'opens'), 'utf8').trim()) as Record<string, unknown>;
    assert.equal(sent.generation, 5);
    assert.equal('epoch' in sent, false);
  });

  it('V2-35: a chunk of an older generation (params.generation) is dropped silently; the stream goes on', async () => {
    assert.deepEqual(await drain(open('stale-params')), { texts: ['c1', 'c2'], kind: 'completed' });
  });

  it('V2-36: params without a generation but an old chunk.generation is dropped too; 0 is never stale', async () => {
    assert.deepEqual(await drain(open('stale-chunk')), { texts: ['c1', 'c2'], kind: 'completed' });
  });

  it('V2-37: a chunk with no generation at all is processed normally', async () => {
    assert.deepEqual(await drain(open('reorder')), { texts: ['c1', 'c2', 'c3'], kind: 'completed' });
  });
});
