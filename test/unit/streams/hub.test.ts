import { strict as assert } from 'node:assert';
import { StreamHub, type ProviderChunk, type ProviderStream } from '../../../src/host/streams';
import { FakeClient } from './fake-client';

const text = (t: string): ProviderChunk => ({ type: 'text', text: t });

async function collect(stream: ProviderStream): Promise<string[]> {
  const out: string[] = [];
  for await (const c of stream) out.push(c.text ?? c.type);
  return out;
}

function setup(opts: ConstructorParameters<typeof StreamHub>[1] = {}) {
  const client = new FakeClient();
  const hub = new StreamHub(client, { gapMs: 20, ...opts });
  const stream = hub.openStream({ providerRef: 'plugin/prov/p/m' });
  const id = stream.streamId;
  const chunk = (seq: number, t = `c${seq}`): void => hub.handleChunk({ streamId: id, seq, chunk: text(t) });
  const end = (lastSeq: number, extra: { error?: string; interrupted?: boolean } = {}): void =>
    hub.handleEnd({ streamId: id, lastSeq, ...extra });
  return { client, hub, stream, id, chunk, end };
}

describe('streams: StreamHub reassembly (in-process)', () => {
  it('mints es_ + 24 hex ids and sends open with seqBase 1, array messages/tools and no v2/fork members (case 55)', async () => {
    const { client, stream } = setup();
    assert.match(stream.streamId, /^es_[0-9a-f]{24}$/);
    const open = await client.waitForCall('extension/provider/stream/open');
    assert.deepEqual(open.params, {
      streamId: stream.streamId,
      providerRef: 'plugin/prov/p/m',
      request: { messages: [], tools: [], maxTokens: 0 },
      seqBase: 1,
    });
    for (const k of ['stream', 'generation', 'epoch']) {
      assert.equal(k in open.params, false);
      assert.equal(k in (open.params.request as object), false);
    }
    stream.cancel();
  });

  it('strips unknown request members and passes model/effort', async () => {
    const client = new FakeClient();
    const hub = new StreamHub(client);
    const request = {
      messages: [{ role: 'user' as const, content: 'hi' }],
      tools: null,
      maxTokens: 5,
      stream: true,
      generation: 3,
    };
    const s = hub.openStream({ providerRef: 'plugin/prov/p', model: 'm', effort: 'high', request });
    const open = await client.waitForCall('extension/provider/stream/open');
    assert.deepEqual(open.params.request, { messages: [{ role: 'user', content: 'hi' }], tools: [], maxTokens: 5 });
    assert.equal(open.params.model, 'm');
    assert.equal(open.params.effort, 'high');
    s.cancel();
  });

  it('reorders 2,1,3 and completes cleanly (case 46)', async () => {
    const { stream, chunk, end } = setup();
    chunk(2);
    chunk(1);
    chunk(3);
    end(3);
    assert.deepEqual(await collect(stream), ['c1', 'c2', 'c3']);
    assert.deepEqual(await stream.outcome, { kind: 'completed' });
  });

  it('delivers a duplicated chunk once (case 47)', async () => {
    const { stream, chunk, end } = setup();
    chunk(1);
    chunk(2);
    chunk(2, 'dup');
    chunk(1, 'dup');
    chunk(3);
    end(3);
    assert.deepEqual(await collect(stream), ['c1', 'c2', 'c3']);
    assert.equal((await stream.outcome).kind, 'completed');
  });

  it('fails interrupted "missing chunk 2 of 3" when the gap outlives the gap timer (case 48)', async () => {
    const { stream, chunk, end } = setup({ gapMs: 15 });
    chunk(1);
    chunk(3);
    end(3);
    const outcome = await stream.outcome;
    assert.deepEqual(outcome, { kind: 'interrupted', reason: 'stream_gap', message: 'missing chunk 2 of 3' });
    assert.deepEqual(await collect(stream), ['c1']);
  });

  it('a straggler inside the gap timer still completes the stream', async () => {
    const { stream, chunk, end } = setup({ gapMs: 5000 });
    chunk(1);
    chunk(3);
    end(3);
    chunk(2);
    assert.deepEqual(await collect(stream), ['c1', 'c2', 'c3']);
    assert.equal((await stream.outcome).kind, 'completed');
  });

  it('fails interrupted on seq 300 while expecting 1 (case 49)', async () => {
    const { stream, chunk } = setup();
    chunk(300);
    const o = await stream.outcome;
    assert.equal(o.kind, 'interrupted');
    assert.equal(o.kind === 'interrupted' && o.reason, 'stream_gap');
    chunk(256); // the window is next+255 at most; but the stream is over already
    assert.deepEqual(await collect(stream), []);
  });

  it('accepts seq next+255 (inside the window)', async () => {
    const { stream, chunk, end } = setup();
    chunk(256);
    for (let i = 1; i < 256; i++) chunk(i);
    end(256);
    assert.equal((await collect(stream)).length, 256);
    assert.equal((await stream.outcome).kind, 'completed');
  });

  it('end with an error is a provider failure with the message redacted (case 50)', async () => {
    const { stream, chunk, end } = setup();
    chunk(1);
    end(1, { error: 'boom api_key=sk-live-abcdef0123456789XYZ' });
    const o = await stream.outcome;
    assert.equal(o.kind, 'failed');
    assert.ok(o.kind === 'failed' && o.reason === 'provider_failed');
    assert.ok(o.kind === 'failed' && o.message.startsWith('boom api_key='));
    assert.ok(o.kind === 'failed' && !o.message.includes('abcdef0123456789'), o.kind === 'failed' ? o.message : '');
    assert.deepEqual(await collect(stream), ['c1']);
  });

  it('end interrupted:true is an interruption after delivery', async () => {
    const { stream, chunk, end } = setup();
    chunk(1);
    end(1, { interrupted: true });
    const o = await stream.outcome;
    assert.equal(o.kind === 'interrupted' && o.reason, 'provider_interrupted');
    assert.deepEqual(await collect(stream), ['c1']);
  });

  it('ignores an identical duplicate end, fails on a conflicting one', async () => {
    const a = setup({ gapMs: 5000 });
    a.chunk(1);
    a.end(2);
    a.end(2);
    assert.equal(a.stream.settled, undefined);
    a.end(3);
    assert.equal((await a.stream.outcome).kind, 'interrupted');
  });

  it('a chunk beyond lastSeq after the end fails the stream', async () => {
    const { stream, chunk, end } = setup({ gapMs: 5000 });
    chunk(1);
    end(2);
    chunk(3);
    const o = await stream.outcome;
    assert.equal(o.kind, 'interrupted');
  });

  it('lastSeq 0 with no chunks completes', async () => {
    const { stream, end } = setup();
    end(0);
    assert.deepEqual(await stream.outcome, { kind: 'completed' });
  });

  it('overflowing the delivery queue interrupts the stream', async () => {
    const { stream, chunk } = setup({ queueCapacity: 3 });
    for (let i = 1; i <= 4; i++) chunk(i);
    const o = await stream.outcome;
    assert.equal(o.kind === 'interrupted' && o.reason, 'provider_interrupted');
    assert.match(o.kind === 'interrupted' ? o.message : '', /overflow/);
  });

  // Malformed chunk params never reach the hub: the connection drops them (real.test.ts).
  it('drops chunks for unknown ids', async () => {
    const { hub, stream, chunk, end } = setup();
    hub.handleChunk({ streamId: 'es_unknown', seq: 1, chunk: text('x') });
    chunk(1);
    end(1);
    assert.deepEqual(await collect(stream), ['c1']);
  });

  it('cancel stops delivery, finishes stream_cancelled, sends stream/cancel within the bound, drops late chunks (case 51)', async () => {
    const { client, hub, stream, id, chunk } = setup({ cancelTimeoutMs: 2000 });
    chunk(1);
    chunk(2);
    const it = stream[Symbol.asyncIterator]();
    assert.deepEqual((await it.next()).value, text('c1'));
    stream.cancel();
    const o = await stream.outcome;
    assert.equal(o.kind === 'interrupted' && o.reason, 'stream_cancelled');
    const cancel = await client.waitForCall('extension/provider/stream/cancel');
    assert.deepEqual(cancel.params, { streamId: id });
    assert.equal(cancel.opts?.timeoutMs, 2000);
    chunk(3);
    assert.equal((await it.next()).done, true, 'queued and late chunks are not delivered after cancel');
    assert.equal(hub.openCount, 0);
  });

  it('an AbortSignal cancels like cancel()', async () => {
    const client = new FakeClient();
    const hub = new StreamHub(client);
    const ac = new AbortController();
    const s = hub.openStream({ providerRef: 'plugin/prov/p/m', signal: ac.signal });
    ac.abort();
    assert.equal(
      (await s.outcome).kind === 'interrupted' && ((await s.outcome) as { reason: string }).reason,
      'stream_cancelled',
    );
    await client.waitForCall('extension/provider/stream/cancel');
  });

  it('accepted:false fails the stream as a provider failure and sends a cancel (case 52)', async () => {
    const client = new FakeClient();
    client.responders.set('extension/provider/stream/open', () => ({ accepted: false }));
    const hub = new StreamHub(client);
    const s = hub.openStream({ providerRef: 'plugin/prov/p/m' });
    const o = await s.outcome;
    assert.equal(o.kind, 'failed');
    await client.waitForCall('extension/provider/stream/cancel');
    assert.equal(client.callsOf('extension/provider/stream/open').length, 1, 'no second model is tried');
  });

  it('an open error fails the stream with a redacted message and sends a cancel', async () => {
    const client = new FakeClient();
    client.responders.set('extension/provider/stream/open', () => {
      throw new Error('upstream refused token=abcdefghijklmnop1234');
    });
    const hub = new StreamHub(client);
    const s = hub.openStream({ providerRef: 'plugin/prov/p/m' });
    const o = await s.outcome;
    assert.equal(o.kind, 'failed');
    assert.ok(o.kind === 'failed' && !o.message.includes('abcdefghijklmnop1234'));
    await client.waitForCall('extension/provider/stream/cancel');
  });

  it('opening on a client that is not running is interrupted without any wire call', async () => {
    const client = new FakeClient();
    client.state = 'crashed';
    const s = new StreamHub(client).openStream({ providerRef: 'plugin/prov/p/m' });
    assert.equal(((await s.outcome) as { reason: string }).reason, 'provider_interrupted');
    assert.equal(client.calls.length, 0);
  });

  it('a crash interrupts every open stream after draining delivered chunks', async () => {
    const client = new FakeClient();
    const hub = new StreamHub(client);
    const a = hub.openStream({ providerRef: 'plugin/prov/p/m' });
    const b = hub.openStream({ providerRef: 'plugin/prov/p/m' });
    hub.handleChunk({ streamId: a.streamId, seq: 1, chunk: text('a1') });
    hub.handleChunk({ streamId: a.streamId, seq: 3, chunk: text('a3') });
    client.setState('crashed');
    for (const s of [a, b]) assert.equal(((await s.outcome) as { reason: string }).reason, 'provider_interrupted');
    assert.deepEqual(await collect(a), ['a1']);
    assert.equal(hub.openCount, 0);
  });

  it('has no idle bound by default; an idle option interrupts and sends cancel (case 53)', async () => {
    const quiet = setup({ gapMs: 5000 });
    const idle = setup({ idleMs: 20 });
    const o = await idle.stream.outcome;
    assert.equal(o.kind === 'interrupted' && o.reason, 'provider_interrupted');
    assert.match(o.kind === 'interrupted' ? o.message : '', /no stream traffic for 20 ms/);
    await idle.client.waitForCall('extension/provider/stream/cancel');
    assert.equal(quiet.stream.settled, undefined, 'the stream without an idle bound is still open');
    quiet.stream.cancel();
  });

  it('breaking out of for-await cancels the stream', async () => {
    const { client, stream, chunk } = setup();
    chunk(1);
    chunk(2);
    for await (const c of stream) {
      assert.equal(c.text, 'c1');
      break;
    }
    assert.equal(((await stream.outcome) as { reason: string }).reason, 'stream_cancelled');
    await client.waitForCall('extension/provider/stream/cancel');
  });
});
