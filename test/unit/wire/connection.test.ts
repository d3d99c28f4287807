// The validated connection against a scripted in-memory peer: every gate rule, both directions.
import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import { PeerError, ValidatedConnection, type ConnectionEnd, type InboundHandlers } from '../../../src/host/wire';
import { ProtocolError } from '../../../src/protocol';
import { waitFor } from '../../support/wait';
import { readLines } from '../../fixtures/lib/ndjson';

interface Frame {
  jsonrpc?: string;
  id?: unknown;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** A peer on the other end of in-memory pipes: writes raw lines, parses what the host sends. */
class Peer {
  readonly toHost = new PassThrough();
  readonly fromHost = new PassThrough();
  readonly got: Frame[] = [];
  readonly raw: string[] = [];
  constructor() {
    readLines((line) => {
      this.raw.push(line);
      this.got.push(JSON.parse(line) as Frame);
    }, this.fromHost);
  }
  line(s: string): void {
    this.toHost.write(s + '\n');
  }
  send(f: object): void {
    this.line(JSON.stringify(f));
  }
  async next(pred: (f: Frame) => boolean = () => true): Promise<Frame> {
    let found: Frame | undefined;
    await waitFor(() => (found = this.got.find(pred)) !== undefined, {
      timeoutMs: 2000,
      what: 'a frame from the host',
      intervalMs: 2,
    });
    return found as Frame;
  }
}

function setup() {
  const peer = new Peer();
  const seen: { method: string; params: object }[] = [];
  const served = ['host/content/read', 'host/ui/publish', 'extension/provider/stream/chunk'];
  const handlers: InboundHandlers = {
    handler: (method) =>
      served.includes(method)
        ? (params: object) => {
            seen.push({ method, params });
            if (method === 'host/ui/publish') return { accepted: true };
            if (method === 'host/content/read') throw new ProtocolError('content_ref_expired');
            return undefined;
          }
        : undefined,
  };
  const conn = new ValidatedConnection({ input: peer.toHost, output: peer.fromHost, handlers });
  const ends: ConnectionEnd[] = [];
  const barrier: string[] = [];
  conn.onEnd((e) => ends.push(e));
  conn.onBarrierViolation((m) => barrier.push(m));
  return { peer, conn, seen, ends, barrier };
}

const publish = { surfaceId: 's1', sessionId: 'sess', generation: 1, kind: 'status', payload: { text: 'ok' } };
const interceptParams = { event: 'input.receive', seq: 1, payload: { text: 'hi' }, timeoutMillis: 1000 };

describe('wire: ValidatedConnection inbound gate', () => {
  let ctx: ReturnType<typeof setup>;
  beforeEach(() => {
    ctx = setup();
    ctx.conn.markReady();
  });
  afterEach(() => ctx.conn.dispose());

  it('answers a non-JSON line with -32700 and id null; stays up (case 1)', async () => {
    ctx.peer.line('this is not json');
    const f = await ctx.peer.next();
    assert.deepEqual(f, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    ctx.peer.send({ jsonrpc: '2.0', id: 2, method: 'host/ui/publish', params: publish });
    assert.deepEqual((await ctx.peer.next((x) => x.id === 2)).result, { accepted: true });
    assert.equal(ctx.conn.ended, undefined);
  });

  it('answers jsonrpc "1.0" with -32600 echoing the id, no data (case 2)', async () => {
    ctx.peer.line('{"jsonrpc":"1.0","id":1,"method":"host/ui/publish","params":{}}');
    const f = await ctx.peer.next();
    assert.equal(f.id, 1);
    assert.equal(f.error?.code, -32600);
    assert.equal(f.error?.data, undefined);
  });

  it('answers a batch (JSON array) with -32600 and id null (case 3)', async () => {
    ctx.peer.line('[{"jsonrpc":"2.0","id":1,"method":"host/ui/publish","params":{}}]');
    const f = await ctx.peer.next();
    assert.equal(f.id, null);
    assert.equal(f.error?.code, -32600);
  });

  it('answers other bad envelopes with -32600 (request with result, error without code, bad id)', async () => {
    ctx.peer.line('{"jsonrpc":"2.0","id":5,"method":"host/ui/publish","result":1}');
    ctx.peer.line('{"jsonrpc":"2.0","id":6,"error":{"message":"no code"}}');
    ctx.peer.line('{"jsonrpc":"2.0","id":{"x":1},"method":"host/ui/publish","params":{}}');
    ctx.peer.line('{"jsonrpc":"2.0","id":7}');
    await waitFor(() => ctx.peer.got.length === 4, {
      timeoutMs: 2000,
      what: 'ctx.peer.got.length === 4',
      intervalMs: 2,
    });
    assert.deepEqual(
      ctx.peer.got.map((f) => [f.id, f.error?.code, f.error?.data]),
      [
        [5, -32600, undefined],
        [6, -32600, undefined],
        [null, -32600, undefined],
        [7, -32600, undefined],
      ],
    );
  });

  it('answers params:[] with -32602 invalid_params (case 4)', async () => {
    ctx.peer.line('{"jsonrpc":"2.0","id":3,"method":"host/content/read","params":[]}');
    const f = await ctx.peer.next();
    assert.equal(f.error?.code, -32602);
    assert.deepEqual(f.error?.data, { reason: 'invalid_params', retryable: false });
  });

  it('answers an unknown method and a host→extension method from the peer with -32601 unknown_method (case 5)', async () => {
    ctx.peer.send({ jsonrpc: '2.0', id: 1, method: 'host/nope', params: {} });
    ctx.peer.send({ jsonrpc: '2.0', id: 2, method: 'extension/intercept', params: interceptParams });
    ctx.peer.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'host/ui/request',
      params: { ...publish, kind: 'confirm', payload: {} },
    }); // not served here
    await waitFor(() => ctx.peer.got.length === 3, {
      timeoutMs: 2000,
      what: 'ctx.peer.got.length === 3',
      intervalMs: 2,
    });
    for (const f of ctx.peer.got) {
      assert.equal(f.error?.code, -32601);
      assert.deepEqual(f.error?.data, { reason: 'unknown_method', retryable: false });
    }
  });

  it('answers params failing the schema with -32602 and data, and never calls the handler', async () => {
    ctx.peer.send({ jsonrpc: '2.0', id: 9, method: 'host/ui/publish', params: { ...publish, extra: 1 } });
    const f = await ctx.peer.next();
    assert.equal(f.error?.code, -32602);
    assert.deepEqual(f.error?.data, { reason: 'invalid_params', retryable: false });
    assert.match(f.error?.message ?? '', /extra/);
    assert.equal(ctx.seen.length, 0);
  });

  it('drops invalid notifications silently and delivers valid ones in order', async () => {
    ctx.peer.send({
      jsonrpc: '2.0',
      method: 'extension/provider/stream/chunk',
      params: { streamId: 'a', seq: 0, chunk: {} },
    });
    ctx.peer.send({ jsonrpc: '2.0', method: 'extension/provider/stream/chunk', params: [] });
    ctx.peer.send({ jsonrpc: '2.0', method: 'host/nope' });
    for (let i = 1; i <= 5; i++)
      ctx.peer.send({
        jsonrpc: '2.0',
        method: 'extension/provider/stream/chunk',
        params: { streamId: 'a', seq: i, chunk: { type: 'text', text: 't' } },
      });
    await waitFor(() => ctx.seen.length === 5, { timeoutMs: 2000, what: 'ctx.seen.length === 5', intervalMs: 2 });
    assert.deepEqual(
      ctx.seen.map((s) => (s.params as { seq: number }).seq),
      [1, 2, 3, 4, 5],
    );
    assert.equal(ctx.peer.got.length, 0, 'notifications are never answered');
  });

  it('judges a burst of 3,000 frames from one write in order (reading paused and resumed meanwhile), all before the close that followed them', async () => {
    const lines: string[] = [];
    for (let i = 1; i <= 3000; i++)
      lines.push(
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'extension/provider/stream/chunk',
          params: { streamId: 'a', seq: i, chunk: { type: 'text', text: 't' } },
        }),
      );
    let pauses = 0;
    const pause = ctx.peer.toHost.pause.bind(ctx.peer.toHost);
    ctx.peer.toHost.pause = () => {
      pauses++;
      return pause();
    };
    ctx.peer.toHost.end(lines.join('\n') + '\n');
    await waitFor(() => ctx.ends.length === 1, { timeoutMs: 2000, what: 'ctx.ends.length === 1', intervalMs: 2 });
    assert.ok(pauses >= 1, 'reading paused while over 1,024 frames waited');
    const seqs = ctx.seen.map((s) => (s.params as { seq: number }).seq);
    assert.equal(seqs.length, 3000, 'no frame read before the close is lost');
    assert.deepEqual(
      seqs,
      Array.from({ length: 3000 }, (_, i) => i + 1),
    );
    assert.equal(ctx.ends[0].reason, 'provider_interrupted');
  });

  it('judges the frames of one read one per microtask turn: each consumer runs before the next frame', async () => {
    const order: string[] = [];
    const consumer = (seq: number) => () => order.push(`consumed ${seq}`);
    const conn = new ValidatedConnection({
      input: ctx.peer.toHost,
      output: new PassThrough(),
      handlers: {
        handler: (method) =>
          method === 'extension/provider/stream/chunk'
            ? (params: object) => {
                const seq = (params as { seq: number }).seq;
                order.push(`judged ${seq}`);
                void Promise.resolve().then(consumer(seq)); // a `for await` consumer's turn
              }
            : undefined,
      },
    });
    conn.markReady();
    const frame = (seq: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'extension/provider/stream/chunk',
        params: { streamId: 'a', seq, chunk: { type: 'text', text: 't' } },
      });
    try {
      ctx.peer.toHost.write([1, 2, 3].map(frame).join('\n') + '\n'); // one read
      await waitFor(() => order.length === 6, { timeoutMs: 2000, what: 'three frames judged and consumed' });
      assert.deepEqual(order, ['judged 1', 'consumed 1', 'judged 2', 'consumed 2', 'judged 3', 'consumed 3']);
      ctx.peer.toHost.write(frame(4) + '\n'); // a read of one frame, judged at once, and the next read too
      ctx.peer.toHost.write(frame(5) + '\n');
      await waitFor(() => order.length === 10, { timeoutMs: 2000, what: 'two more reads' });
      assert.deepEqual(order.slice(6), ['judged 4', 'consumed 4', 'judged 5', 'consumed 5']);
    } finally {
      conn.dispose();
    }
  });

  it('judges the frames before an oversize line of the same read, then ends with frame_too_large', async () => {
    const frames = [1, 2, 3].map((seq) =>
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'extension/provider/stream/chunk',
        params: { streamId: 'a', seq, chunk: { type: 'text', text: 't' } },
      }),
    );
    ctx.peer.toHost.write(
      Buffer.concat([Buffer.from(frames.join('\n') + '\n'), Buffer.alloc(8 * 1024 * 1024 + 1, 0x61)]),
    );
    await waitFor(() => ctx.ends.length === 1, { timeoutMs: 2000, what: 'the end' });
    assert.deepEqual(
      ctx.seen.map((s) => (s.params as { seq: number }).seq),
      [1, 2, 3],
    );
    assert.equal(ctx.ends[0].reason, 'frame_too_large');
  });

  it('turns a handler ProtocolError into its wire error', async () => {
    ctx.peer.send({ jsonrpc: '2.0', id: 'r1', method: 'host/content/read', params: { contentRef: 'c', offset: 0 } });
    const f = await ctx.peer.next();
    assert.equal(f.id, 'r1');
    assert.equal(f.error?.code, -32000);
    assert.deepEqual(f.error?.data, { reason: 'content_ref_expired', retryable: true });
  });

  it('refuses sidecar requests after shutdown began with -32600', async () => {
    ctx.conn.beginShutdown();
    ctx.peer.send({ jsonrpc: '2.0', id: 4, method: 'host/ui/publish', params: publish });
    const f = await ctx.peer.next();
    assert.equal(f.error?.code, -32600);
  });
});

describe('wire: ValidatedConnection traffic barrier', () => {
  it('answers an early request -32600 protocol_error, drops an early notification, and reports both', async () => {
    const { peer, conn, barrier, seen } = setup();
    peer.send({ jsonrpc: '2.0', id: 'e1', method: 'host/ui/publish', params: publish });
    peer.send({
      jsonrpc: '2.0',
      method: 'extension/provider/stream/chunk',
      params: { streamId: 'a', seq: 1, chunk: {} },
    });
    const f = await peer.next();
    assert.equal(f.id, 'e1');
    assert.equal(f.error?.code, -32600);
    assert.deepEqual(f.error?.data, { reason: 'protocol_error', retryable: false });
    await waitFor(() => barrier.length === 2, { timeoutMs: 2000, what: 'barrier.length === 2', intervalMs: 2 });
    assert.deepEqual(barrier, ['host/ui/publish', 'extension/provider/stream/chunk']);
    assert.equal(seen.length, 0);
    conn.dispose();
  });
});

describe('wire: ValidatedConnection outbound', () => {
  let ctx: ReturnType<typeof setup>;
  beforeEach(() => (ctx = setup()));
  afterEach(() => ctx.conn.dispose());

  it('uses unique integer ids from 1 and always sends an object params (case 68)', async () => {
    const calls = [
      ctx.conn.request('extension/provider/catalog', {}),
      ctx.conn.request('extension/intercept', interceptParams),
      ctx.conn.request('extension/provider/catalog', {}),
    ];
    await waitFor(() => ctx.peer.raw.length === 3, {
      timeoutMs: 2000,
      what: 'ctx.peer.raw.length === 3',
      intervalMs: 2,
    });
    const ids = ctx.peer.raw.map((l) => /"id":(\d+)[,}]/.exec(l)?.[1]);
    assert.deepEqual(ids, ['1', '2', '3'], 'ids are bare JSON integers on the wire');
    for (const f of ctx.peer.got) assert.equal(typeof f.params, 'object');
    assert.ok(ctx.peer.raw[0].includes('"params":{}'));
    for (const f of ctx.peer.got) {
      ctx.peer.send({
        jsonrpc: '2.0',
        id: f.id,
        result: f.method === 'extension/intercept' ? { decision: 'continue' } : { providers: [] },
      });
    }
    assert.deepEqual(await Promise.all(calls), [{ providers: [] }, { decision: 'continue' }, { providers: [] }]);
  });

  it('rejects a result failing the result schema with protocol_error', async () => {
    const call = ctx.conn.request('extension/intercept', interceptParams);
    const f = await ctx.peer.next();
    ctx.peer.send({ jsonrpc: '2.0', id: f.id, result: { decision: 'perhaps' } });
    await assert.rejects(
      call,
      (e: ProtocolError) => e.reason === 'protocol_error' && /invalid extension\/intercept result/.test(e.message),
    );
  });

  it('ignores a response whose id matches nothing (string id) without ending the connection (case 7)', async () => {
    const call = ctx.conn.request('extension/intercept', interceptParams);
    const f = await ctx.peer.next();
    ctx.peer.send({ jsonrpc: '2.0', id: String(f.id), result: { decision: 'block' } });
    ctx.peer.send({ jsonrpc: '2.0', id: 999, result: { decision: 'block' } });
    ctx.peer.send({ jsonrpc: '2.0', id: f.id, result: { decision: 'continue' } });
    assert.deepEqual(await call, { decision: 'continue' });
    assert.equal(ctx.conn.ended, undefined);
    assert.equal(ctx.peer.got.length, 1, 'nothing was answered');
  });

  it('answers a response with both result and error -32600 and leaves the pending call untouched (case 8)', async () => {
    const call = ctx.conn.request('extension/intercept', interceptParams);
    const f = await ctx.peer.next();
    ctx.peer.send({ jsonrpc: '2.0', id: f.id, result: { decision: 'block' }, error: { code: 1, message: 'x' } });
    const answer = await ctx.peer.next((x) => x.error !== undefined);
    assert.equal(answer.id, f.id);
    assert.equal(answer.error?.code, -32600);
    ctx.peer.send({ jsonrpc: '2.0', id: f.id, result: { decision: 'continue' } });
    assert.deepEqual(await call, { decision: 'continue' });
  });

  it('keeps a structured peer error reason and redacts its message; unstructured keeps the code', async () => {
    const a = ctx.conn.request('extension/intercept', interceptParams);
    const b = ctx.conn.request('extension/intercept', interceptParams);
    await waitFor(() => ctx.peer.got.length === 2, {
      timeoutMs: 2000,
      what: 'ctx.peer.got.length === 2',
      intervalMs: 2,
    });
    const [fa, fb] = ctx.peer.got;
    ctx.peer.send({
      jsonrpc: '2.0',
      id: fa.id,
      error: { code: -32000, message: 'bad token=abc', data: { reason: 'intercept_timeout', retryable: true } },
    });
    ctx.peer.send({
      jsonrpc: '2.0',
      id: fb.id,
      error: {
        code: -32042,
        message: 'sk-ant-0123456789abcdefghij',
        data: { reason: 'intercept_timeout', retryable: false },
      },
    });
    await assert.rejects(
      a,
      (e: ProtocolError) =>
        e instanceof ProtocolError && e.reason === 'intercept_timeout' && e.message === 'bad token=[REDACTED]',
    );
    await assert.rejects(
      b,
      (e: PeerError) => e instanceof PeerError && e.code === -32042 && e.message === '[REDACTED]',
    );
  });

  it('refuses to send invalid params: nothing is written (our bug)', async () => {
    await assert.rejects(
      ctx.conn.request('extension/intercept', { event: 'nope' }),
      (e: ProtocolError) => e.reason === 'internal',
    );
    assert.throws(
      () => ctx.conn.notify('extension/resources/changed', {}),
      (e: ProtocolError) => e.reason === 'internal',
    );
    assert.throws(() => ctx.conn.sendEvent({ event: 'input.receive' } as never));
    await assert.rejects(ctx.conn.request('host/ui/publish', publish), 'not a host→extension request');
    await new Promise((r) => setImmediate(r));
    assert.equal(ctx.peer.raw.length, 0);
  });

  it('fails one oversize request with frame_too_large and keeps the connection', async () => {
    const huge = { ...interceptParams, payload: { text: 'x'.repeat(8 * 1024 * 1024) } };
    await assert.rejects(
      ctx.conn.request('extension/intercept', huge),
      (e: ProtocolError) => e.reason === 'frame_too_large',
    );
    const ok = ctx.conn.request('extension/intercept', interceptParams);
    const f = await ctx.peer.next();
    ctx.peer.send({ jsonrpc: '2.0', id: f.id, result: { decision: 'continue' } });
    assert.deepEqual(await ok, { decision: 'continue' });
  });

  it('applies a per-call timeout with the given reason', async () => {
    await assert.rejects(
      ctx.conn.request('extension/intercept', interceptParams, { timeoutMs: 20, timeoutReason: 'intercept_timeout' }),
      (e: ProtocolError) => e.reason === 'intercept_timeout',
    );
  });

  it('fails pending and later calls with provider_interrupted when the peer closes (EOF)', async () => {
    const call = ctx.conn.request('extension/intercept', interceptParams);
    await ctx.peer.next();
    ctx.peer.toHost.end();
    await assert.rejects(call, (e: ProtocolError) => e.reason === 'provider_interrupted');
    await waitFor(() => ctx.ends.length === 1, { timeoutMs: 2000, what: 'ctx.ends.length === 1', intervalMs: 2 });
    assert.equal(ctx.ends[0].local, false);
    await assert.rejects(
      ctx.conn.request('extension/provider/catalog', {}),
      (e: ProtocolError) => e.reason === 'provider_interrupted',
    );
  });

  it('ends with frame_too_large when the peer sends an oversize line', async () => {
    ctx.peer.toHost.write(Buffer.alloc(8 * 1024 * 1024 + 1, 0x61));
    await waitFor(() => ctx.ends.length === 1, { timeoutMs: 2000, what: 'ctx.ends.length === 1', intervalMs: 2 });
    assert.equal(ctx.ends[0].reason, 'frame_too_large');
  });

  it('sends best-effort events and notifications as notifications', async () => {
    assert.equal(ctx.conn.sendEvent({ event: 'session.start', payload: { a: 1 } }), true);
    ctx.conn.notify('extension/resources/changed', { paths: ['a.ts'] });
    await waitFor(() => ctx.peer.got.length === 2, {
      timeoutMs: 2000,
      what: 'ctx.peer.got.length === 2',
      intervalMs: 2,
    });
    assert.deepEqual(ctx.peer.got, [
      { jsonrpc: '2.0', method: 'extension/event', params: { event: 'session.start', payload: { a: 1 } } },
      { jsonrpc: '2.0', method: 'extension/resources/changed', params: { paths: ['a.ts'] } },
    ]);
  });
});

describe('wire: ValidatedConnection end listeners', () => {
  it('fire once in registration order; a later one is called at once; a disposed or throwing one never blocks the rest', () => {
    const { conn, ends } = setup();
    const order: string[] = [];
    conn.onEnd(() => {
      order.push('throws');
      throw new Error('a listener bug');
    });
    conn.onEnd((e) => order.push(`second:${e.local}`)).dispose();
    conn.onEnd((e) => order.push(`third:${e.reason}`));
    conn.dispose('closing on purpose');
    conn.dispose('a second close is not a second end');
    assert.deepEqual(order, ['throws', 'third:provider_interrupted']);
    assert.equal(ends.length, 1, 'the setup listener, registered first, also fired once');
    assert.equal(ends[0].message, 'closing on purpose');
    const late: ConnectionEnd[] = [];
    conn.onEnd((e) => late.push(e));
    assert.deepEqual(late, [ends[0]], 'a listener added after the end gets the same end at once');
  });
});
