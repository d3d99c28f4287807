// Provider streams against a real fixture sidecar process through the real Sidecar.
import { strict as assert } from 'node:assert';
import { Sidecar } from '../../../src/host/sidecar';
import {
  catalog,
  resolveModel,
  StreamHub,
  streamHandlers,
  type ProviderStream,
  type StreamOutcome,
} from '../../../src/host/streams';
import { fixtureSpec, SESSION } from './real-support';
import { waitFor } from '../../support/wait';

interface Rig {
  sidecar: Sidecar;
  hub: StreamHub;
  open(scenario: string, extra?: Record<string, unknown>): ProviderStream;
}

async function startProvider(mode = 'normal', hubOpts: ConstructorParameters<typeof StreamHub>[1] = {}): Promise<Rig> {
  const ref: { hub?: StreamHub } = {};
  const sidecar = new Sidecar({
    plugin: fixtureSpec('prov', 'providers/provider.js', [mode], ['providers']),
    session: SESSION,
    uiHost: 'headless',
    handlers: streamHandlers(() => ref.hub),
    timeouts: { shutdownRequestMs: 1000, exitGraceMs: 200, reapMs: 2000 },
  });
  const h = new StreamHub(sidecar, { gapMs: 30, ...hubOpts });
  ref.hub = h;
  await sidecar.start();
  return {
    sidecar,
    hub: h,
    open: (scenario, extra = {}) => h.openStream({ providerRef: `plugin/prov/${scenario}/m`, ...extra }),
  };
}

async function drain(s: ProviderStream): Promise<{ texts: string[]; outcome: StreamOutcome }> {
  const texts: string[] = [];
  for await (const c of s) texts.push(c.text ?? c.type);
  return { texts, outcome: await s.outcome };
}

describe('streams: real provider sidecar', function () {
  this.timeout(15000);
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.sidecar.stop();
    rig = undefined;
  });

  it('delivers in order, reorders 2,1,3 and de-duplicates (cases 46, 47)', async () => {
    rig = await startProvider();
    for (const scenario of ['inorder', 'reorder', 'dup']) {
      const r = await drain(rig.open(scenario));
      assert.deepEqual(r.texts, ['c1', 'c2', 'c3'], scenario);
      assert.deepEqual(r.outcome, { kind: 'completed' }, scenario);
    }
    const five = await drain(rig.open('five'));
    assert.deepEqual(five.texts, ['c1', 'c2', 'c3', 'c4', 'c5']);
    assert.equal(rig.hub.openCount, 0);
  });

  it('chunk params failing the schema are dropped by the connection; the stream goes on', async () => {
    rig = await startProvider();
    const r = await drain(rig.open('malformed'));
    assert.deepEqual(r.texts, ['c1']);
    assert.deepEqual(r.outcome, { kind: 'completed' });
  });

  it('an end whose lastSeq is below the chunks already delivered completes cleanly, like the reference', async () => {
    rig = await startProvider();
    const r = await drain(rig.open('short-end'));
    assert.deepEqual(r.texts, ['c1', 'c2', 'c3']);
    assert.deepEqual(r.outcome, { kind: 'completed' });
    assert.equal(rig.hub.openCount, 0);
  });

  it('1,000 chunks in one write reach an async consumer in order without overflowing its 256-chunk queue', async () => {
    rig = await startProvider();
    const r = await drain(rig.open('burst'));
    assert.deepEqual(r.outcome, { kind: 'completed' });
    assert.deepEqual(
      r.texts,
      Array.from({ length: 1000 }, (_, i) => `c${i + 1}`),
    );
  });

  it('a gap after the end fails "missing chunk 2 of 3"; seq 300 fails the window (cases 48, 49)', async () => {
    rig = await startProvider();
    const gap = await drain(rig.open('gap'));
    assert.deepEqual(gap.texts, ['c1']);
    assert.deepEqual(gap.outcome, { kind: 'interrupted', reason: 'stream_gap', message: 'missing chunk 2 of 3' });
    const win = await drain(rig.open('window'));
    assert.equal(win.outcome.kind === 'interrupted' && win.outcome.reason, 'stream_gap');
  });

  it('end.error is a redacted provider failure; end.interrupted an interruption (case 50)', async () => {
    rig = await startProvider();
    const err = await drain(rig.open('error'));
    assert.equal(err.outcome.kind, 'failed');
    assert.ok(
      err.outcome.kind === 'failed' &&
        /^boom api_key=/.test(err.outcome.message) &&
        !err.outcome.message.includes('abcdef0123456789'),
    );
    const intr = await drain(rig.open('interrupted'));
    assert.deepEqual(intr.texts, ['c1']);
    assert.equal(intr.outcome.kind === 'interrupted' && intr.outcome.reason, 'provider_interrupted');
  });

  it('a 5-chunk stream cancelled after its first chunk ends interrupted, the sidecar gets stream/cancel, late chunks are dropped (case 51)', async () => {
    rig = await startProvider();
    const s = rig.open('cancel');
    const it = s[Symbol.asyncIterator]();
    assert.equal((await it.next()).value?.text, 'c1');
    s.cancel();
    assert.equal((await it.next()).done, true);
    const outcome = await s.outcome;
    assert.equal(outcome.kind === 'interrupted' && outcome.reason, 'stream_cancelled');
    const sidecar = rig.sidecar;
    await waitFor(() => sidecar.stderrTail().includes(`cancel ${s.streamId}`), {
      timeoutMs: 5000,
      what: 'the sidecar to receive stream/cancel',
      intervalMs: 5,
    });
    assert.equal(rig.hub.openCount, 0, 'the late chunk and the SDK-style end found no stream');
    // the connection is still healthy
    assert.deepEqual((await drain(rig.open('inorder'))).outcome, { kind: 'completed' });
  });

  it('accepted:false fails the turn and sends a cancel, no other model is tried (case 52)', async () => {
    rig = await startProvider();
    const s = rig.open('decline');
    const o = await s.outcome;
    assert.equal(o.kind, 'failed');
    const sidecar = rig.sidecar;
    await waitFor(() => sidecar.stderrTail().includes(`cancel ${s.streamId}`), {
      timeoutMs: 5000,
      what: 'the cancel after a declined open',
      intervalMs: 5,
    });
    assert.equal(
      sidecar
        .stderrTail()
        .split('\n')
        .filter((l) => l.startsWith('open ')).length,
      1,
    );
  });

  it('an idle bound (our option) interrupts and cancels; none by default (case 53)', async () => {
    rig = await startProvider('normal', { idleMs: 40 });
    const s = rig.open('silent');
    const o = await s.outcome;
    assert.match(o.kind === 'interrupted' ? o.message : '', /no stream traffic/);
    const sidecar = rig.sidecar;
    await waitFor(() => sidecar.stderrTail().includes(`cancel ${s.streamId}`), {
      timeoutMs: 5000,
      what: 'the cancel after the idle bound',
      intervalMs: 5,
    });
  });

  it('open params carry seqBase 1, arrays and no stream/generation/epoch (case 55)', async () => {
    rig = await startProvider();
    const r = await drain(rig.open('echo', { effort: 'low', request: { maxTokens: 64 } }));
    const params = JSON.parse(r.texts[0]) as Record<string, unknown>;
    assert.deepEqual(Object.keys(params).sort(), ['effort', 'providerRef', 'request', 'seqBase', 'streamId']);
    assert.equal(params.seqBase, 1);
    assert.deepEqual(params.request, { messages: [], tools: [], maxTokens: 64 });
    assert.match(String(params.streamId), /^es_[0-9a-f]{24}$/);
  });

  it('catalog drops foreign refs; resolveModel routes to the running plugin (case 54)', async () => {
    rig = await startProvider('foreign-catalog');
    const c = await catalog(rig.sidecar);
    assert.deepEqual(
      c.providers.map((d) => d.ref),
      ['plugin/prov/inorder/m', 'plugin/prov/reorder/m', 'plugin/prov/five/m'],
    );
    assert.match(c.warnings.join('\n'), /plugin\/other\/x\/y/);
    const resolved = resolveModel('plugin/prov/five/m', [
      { pluginId: 'prov', running: rig.sidecar.state === 'running', providers: c.providers },
    ]);
    const r = await drain(rig.hub.openStream({ providerRef: resolved.providerRef }));
    assert.equal(r.texts.length, 5);
    assert.throws(
      () => resolveModel('plugin/other/x/y', [{ pluginId: 'prov', running: true, providers: c.providers }]),
      /unknown model/,
    );
  });

  it('a catalog result failing the schema offers no models and says why (checked once, by the connection)', async () => {
    rig = await startProvider('malformed-catalog');
    const c = await catalog(rig.sidecar);
    assert.deepEqual(c.providers, []);
    assert.equal(c.ok, false);
    assert.match(
      c.warnings[0],
      /^provider catalog of prov failed, it offers no models this time: invalid extension\/provider\/catalog result/,
    );
  });

  it('a catalog slower than its bound offers no models this time (case 54)', async () => {
    rig = await startProvider('slow-catalog');
    const c = await catalog(rig.sidecar, { timeoutMs: 50 });
    assert.deepEqual(c.providers, []);
    assert.equal(c.ok, false);
    assert.match(c.warnings[0], /no models this time/);
  });

  it('a crash interrupts open streams; a stop does too', async () => {
    rig = await startProvider();
    const s = rig.open('silent');
    await waitFor(() => rig!.sidecar.stderrTail().includes(s.streamId), {
      timeoutMs: 5000,
      what: 'the open to arrive',
      intervalMs: 5,
    });
    process.kill(rig.sidecar.pid!, 'SIGKILL');
    const o = await s.outcome;
    assert.equal(o.kind === 'interrupted' && o.reason, 'provider_interrupted');
    await waitFor(() => rig!.sidecar.state === 'crashed', { timeoutMs: 5000, what: 'crashed state', intervalMs: 5 });
    const after = await rig.open('inorder').outcome;
    assert.equal(after.kind === 'interrupted' && after.reason, 'provider_interrupted');

    const again = await startProvider();
    const t = again.open('silent');
    await again.sidecar.stop();
    assert.equal(((await t.outcome) as { reason: string }).reason, 'provider_interrupted');
  });
});
