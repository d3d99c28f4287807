// Transport rules through a real sidecar process: HOST_SPEC §12 cases 1–12 and 68.
import { strict as assert } from 'node:assert';
import { contentText } from '../../../src/host/content/store';
import type { FailureInfo } from '../../../src/host/sidecar';
import { PeerError } from '../../../src/host/wire';
import { ProtocolError } from '../../../src/protocol';
import { alive } from '../../support/processes';
import { INTERCEPT, MemoryLogger, pluginFor, useFleet } from './fixtures';
import { waitFor } from '../../support/wait';

interface Frame {
  id?: unknown;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

const publish = { surfaceId: 's1', sessionId: 'sess-1', generation: 3, kind: 'status', payload: { text: 'ok' } };

describe('sidecar transport (real process)', () => {
  const ctx = useFleet();
  const { fleet } = ctx;

  /** Starts well-behaved.js writing `lines` after initialized; resolves once `count` answers were recorded. */
  async function answersTo(lines: string[], count: number, extraEnv: Record<string, string> = {}) {
    const s = fleet.make({
      plugin: pluginFor('well-behaved.js', {
        env: { FIX_RECORD: ctx.scratch.file('rx'), FIX_LINES: JSON.stringify(lines), ...extraEnv },
      }),
      handlers: { 'host/ui/publish': () => ({ accepted: true }) },
    });
    await s.start();
    const answers = () =>
      (ctx.scratch.records('rx') as Frame[]).filter((f) => typeof f === 'object' && f.method === undefined);
    await waitFor(() => answers().length >= count, { timeoutMs: 10_000, what: `${count} answers`, intervalMs: 5 });
    return { s, answers: answers() };
  }

  it('answers garbage with -32700 id null and keeps working (case 1)', async () => {
    const { s, answers } = await answersTo(['definitely { not json'], 1);
    assert.deepEqual(answers[0], { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    assert.deepEqual(await s.request('extension/intercept', INTERCEPT), { decision: 'continue' });
  });

  it('answers envelope, batch, params and method violations with the right codes (cases 2–5)', async () => {
    const lines = [
      '{"jsonrpc":"1.0","id":1,"method":"host/ui/publish","params":{}}',
      '[{"jsonrpc":"2.0","id":2,"method":"host/ui/publish","params":{}}]',
      '{"jsonrpc":"2.0","id":3,"method":"host/content/read","params":[]}',
      '{"jsonrpc":"2.0","id":4,"method":"host/does/not/exist","params":{}}',
      '{"jsonrpc":"2.0","id":5,"method":"extension/intercept","params":{}}',
      JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'host/ui/publish', params: publish }),
    ];
    const { answers } = await answersTo(lines, 6);
    const byId = (id: unknown) => answers.find((a) => a.id === id) as Frame;
    assert.equal(byId(1).error?.code, -32600);
    assert.equal(byId(1).error?.data, undefined);
    assert.equal(answers.find((a) => a.id === null)?.error?.code, -32600, 'batch → -32600 with id null');
    assert.equal(byId(3).error?.code, -32602);
    assert.deepEqual(byId(3).error?.data, { reason: 'invalid_params', retryable: false });
    assert.equal(byId(4).error?.code, -32601);
    assert.deepEqual(byId(4).error?.data, { reason: 'unknown_method', retryable: false });
    assert.equal(byId(5).error?.code, -32601, 'a host→extension method from the sidecar');
    assert.deepEqual(byId(6).result, { accepted: true });
  });

  it("answers a host method absent from the handler map -32601 unknown_method; content/read is always the process's own", async () => {
    const lines = [
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'p',
        method: 'host/ui/request',
        params: { surfaceId: 'q1', sessionId: 'sess-1', generation: 3, kind: 'confirm', payload: { title: 't' } },
      }),
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'c',
        method: 'host/content/read',
        params: { contentRef: 'nope', offset: 0 },
      }),
    ];
    const s = fleet.make({
      plugin: pluginFor('well-behaved.js', {
        env: { FIX_RECORD: ctx.scratch.file('rx'), FIX_LINES: JSON.stringify(lines) },
      }),
      // A map entry cannot replace the per-process content store.
      handlers: {
        'host/content/read': (p) => ({
          contentRef: p.contentRef,
          offset: 0,
          dataBase64: '',
          encoding: 'utf8',
          sha256: '',
          totalBytes: 0,
        }),
      },
    });
    await s.start();
    const answers = () =>
      (ctx.scratch.records('rx') as Frame[]).filter((f) => typeof f === 'object' && f.method === undefined);
    await waitFor(() => answers().length >= 2, { timeoutMs: 10_000, what: '2 answers', intervalMs: 20 });
    const byId = (id: unknown) => answers().find((a) => a.id === id) as Frame;
    assert.equal(byId('p').error?.code, -32601, 'host/ui/request has no handler in the map');
    assert.deepEqual(byId('p').error?.data, { reason: 'unknown_method', retryable: false });
    assert.deepEqual(byId('c').error?.data, { reason: 'content_ref_expired', retryable: true });
  });

  it('serves host/content/read from the per-process content store', async () => {
    const s = fleet.make({ plugin: pluginFor('well-behaved.js') });
    await s.start();
    const ref = s.content.put('/payload', Buffer.from('hello'));
    const s2 = fleet.make({
      plugin: pluginFor('well-behaved.js', {
        env: {
          FIX_RECORD: ctx.scratch.file('rx'),
          FIX_LINES: JSON.stringify([
            JSON.stringify({
              jsonrpc: '2.0',
              id: 'c',
              method: 'host/content/read',
              params: { contentRef: 'nope', offset: 0 },
            }),
          ]),
        },
      }),
    });
    await s2.start();
    await waitFor(() => ctx.scratch.records('rx').some((f) => (f as Frame).id === 'c'), {
      timeoutMs: 10_000,
      what: "ctx.scratch.records('rx').some((f) => (f as Frame).id === 'c')",
      intervalMs: 5,
    });
    const answer = ctx.scratch.records('rx').find((f) => (f as Frame).id === 'c') as Frame;
    assert.deepEqual(answer.error?.data, { reason: 'content_ref_expired', retryable: true });
    assert.equal(ref.totalBytes, 5);
    const held = s.content.get(ref.contentRef);
    assert.ok(held);
    assert.equal(contentText(held.content), 'hello');
  });

  it('tears down on a line of 8 MiB + 1 byte: child killed, crash reported once (case 6)', async () => {
    const s = fleet.make({ plugin: pluginFor('oversize-frame.js') });
    const crashes: FailureInfo[] = [];
    s.onCrash((i) => crashes.push(i));
    await s.start();
    const pid = s.pid;
    await waitFor(() => crashes.length === 1, { timeoutMs: 10_000, what: 'crash', intervalMs: 5 });
    assert.equal(s.state, 'crashed');
    assert.match(crashes[0].message, /exceeds the 8388608-byte limit/);
    assert.equal(alive(pid), false);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(crashes.length, 1);
  });

  it('ignores a response with a string id; no crash (case 7)', async () => {
    const { s } = await answersTo(['{"jsonrpc":"2.0","id":"1","result":{"decision":"block"}}', 'garbage'], 1);
    assert.deepEqual(await s.request('extension/intercept', INTERCEPT), { decision: 'continue' });
    assert.equal(s.state, 'running');
  });

  it('answers a response with both result and error -32600 and keeps the call pending (case 8)', async () => {
    const s = fleet.make({
      plugin: pluginFor('well-behaved.js', {
        env: { FIX_RECORD: ctx.scratch.file('rx'), FIX_INTERCEPT: 'both-then-ok' },
      }),
    });
    await s.start();
    assert.deepEqual(await s.request('extension/intercept', INTERCEPT), { decision: 'continue' });
    await waitFor(() => ctx.scratch.records('rx').some((f) => (f as Frame).error?.code === -32600), {
      timeoutMs: 10_000,
      what: "ctx.scratch.records('rx').some((f) => (f as Frame).error?.code === -32600)",
      intervalMs: 5,
    });
  });

  it('rejects an invalid intercept result with protocol_error; maps sidecar errors with redaction', async () => {
    const bad = fleet.make({ plugin: pluginFor('well-behaved.js', { env: { FIX_INTERCEPT: 'bad-result' } }) });
    await bad.start();
    await assert.rejects(
      bad.request('extension/intercept', INTERCEPT),
      (e: ProtocolError) => e.reason === 'protocol_error',
    );

    const structured = fleet.make({
      plugin: pluginFor('well-behaved.js', { env: { FIX_INTERCEPT: 'error-structured' } }, 'p2'),
    });
    await structured.start();
    await assert.rejects(
      structured.request('extension/intercept', INTERCEPT),
      (e: ProtocolError) => e.reason === 'provider_failed' && e.message === 'upstream failed api_key=[REDACTED]',
    );

    const unstructured = fleet.make({
      plugin: pluginFor('well-behaved.js', { env: { FIX_INTERCEPT: 'error-unstructured' } }, 'p3'),
    });
    await unstructured.start();
    await assert.rejects(
      unstructured.request('extension/intercept', INTERCEPT),
      (e: PeerError) => e instanceof PeerError && e.code === -32001 && e.message === 'odd failure [REDACTED]',
    );
  });

  it('never writes a frame over 8 MiB: that call fails frame_too_large and the sidecar keeps running (case 9, wire part)', async () => {
    const s = fleet.make({ plugin: pluginFor('well-behaved.js') });
    await s.start();
    const huge = { ...INTERCEPT, payload: { text: 'x'.repeat(8 * 1024 * 1024) } };
    await assert.rejects(s.request('extension/intercept', huge), (e: ProtocolError) => e.reason === 'frame_too_large');
    assert.deepEqual(await s.request('extension/intercept', INTERCEPT), { decision: 'continue' });
  });

  it('fails the connection when the sidecar stops reading during a large write, and kills it (case 10)', async () => {
    const s = fleet.make({ plugin: pluginFor('stops-reading.js'), timeouts: { writeStallMs: 200 } });
    const crashes: FailureInfo[] = [];
    s.onCrash((i) => crashes.push(i));
    await s.start();
    const pid = s.pid;
    const started = Date.now();
    const call = s.request('extension/intercept', { ...INTERCEPT, payload: { text: 'y'.repeat(4 * 1024 * 1024) } });
    await assert.rejects(call, (e: ProtocolError) => e.reason === 'provider_interrupted');
    await waitFor(() => crashes.length === 1, { timeoutMs: 10_000, what: 'crashes.length === 1', intervalMs: 5 });
    assert.ok(Date.now() - started >= 190);
    assert.match(crashes[0].message, /no progress for 200 ms/);
    assert.equal(alive(pid), false);
  });

  it('drops events beyond the 16 best-effort slots with one warning; a concurrent intercept is not refused (case 11)', async () => {
    const logger = new MemoryLogger();
    const s = fleet.make({
      plugin: pluginFor('stops-reading.js'),
      logger,
      timeouts: { writeStallMs: 60_000, shutdownRequestMs: 100, exitGraceMs: 50 },
    });
    await s.start();
    // A 4 MiB intercept fills the pipe of the non-reading child and blocks the writer.
    const blocker = s.request('extension/intercept', { ...INTERCEPT, payload: { text: 'b'.repeat(4 * 1024 * 1024) } });
    blocker.catch(() => undefined);
    const results = Array.from({ length: 40 }, () => s.sendEvent({ event: 'tool.after', payload: { n: 1 } }));
    assert.equal(results.filter(Boolean).length, 16);
    assert.deepEqual(results.slice(0, 16), new Array(16).fill(true));
    let settled = false;
    const intercept = s.request('extension/intercept', INTERCEPT, { timeoutMs: 60_000 });
    intercept.then(
      () => (settled = true),
      () => (settled = true),
    );
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(settled, false, 'the intercept was queued, not refused');
    assert.equal(logger.lines.filter((l) => l.startsWith('warn') && l.includes('event queue full')).length, 1);
    await s.stop();
    await assert.rejects(intercept, (e: ProtocolError) => e.reason === 'provider_interrupted');
  });

  it('drains a 10 MiB stderr flood, keeps working, and keeps only the last 16 KiB redacted (case 12)', async () => {
    const s = fleet.make({ plugin: pluginFor('stderr-flood.js') });
    await s.start();
    assert.deepEqual(await s.request('extension/intercept', INTERCEPT), { decision: 'continue' });
    await waitFor(() => s.stderrTail().endsWith('last line\n'), {
      timeoutMs: 10_000,
      what: 'the end of the flood',
      intervalMs: 5,
    });
    const tail = s.stderrTail();
    assert.ok(Buffer.byteLength(tail) <= 16 * 1024, `${Buffer.byteLength(tail)} bytes`);
    assert.ok(Buffer.byteLength(tail) > 15 * 1024);
    assert.ok(tail.endsWith('last line\n'));
    assert.ok(!tail.includes('late-secret-value') && !tail.includes('abcdefghijklmnop1234'));
    assert.ok(tail.includes('api_key=[REDACTED]'));
    assert.ok(!tail.includes('early secret'), 'older output is gone');
  });

  it('logs a stderr line that never ends in 8 KiB pieces as it arrives, holding none of it (issue 45 item 12)', async () => {
    const logger = new MemoryLogger();
    const s = fleet.make({
      plugin: pluginFor('stderr-endless-line.js', { env: { FIX_STDERR_MIB: '16' } }),
      logger,
    });
    await s.start();
    const pieces = () => logger.lines.filter((l) => l.startsWith('debug') && l.includes('stderr: xxxx')).length;
    await waitFor(() => logger.lines.some((l) => l.includes('stderr: flood done')), {
      timeoutMs: 15_000,
      what: 'the end of the flood',
    });
    // 16 MiB in 8 KiB pieces, each cut when it arrived: 2,048 less the few that join the line's
    // last read, which ends at the newline. One piece per read (64 KiB) would leave the rest of
    // every read waiting: about 260 pieces, the whole line held until its newline.
    const n = pieces();
    assert.ok(n >= 2040 && n <= 2048, `${n} pieces`);
    for (const l of logger.lines.filter((x) => x.includes('stderr: xxxx')))
      assert.ok(l.length < 2100, 'each piece is cut');
    assert.deepEqual(await s.request('extension/intercept', INTERCEPT), { decision: 'continue' });
  });

  it('sends only integer, unique request ids and explicit object params on the wire (case 68)', async () => {
    const s = fleet.make({ plugin: pluginFor('well-behaved.js', { env: { FIX_RECORD: ctx.scratch.file('rx') } }) });
    await s.start();
    await Promise.all([1, 2, 3, 4, 5].map((seq) => s.request('extension/intercept', { ...INTERCEPT, seq })));
    await s.request('extension/provider/catalog', {}).catch(() => undefined); // the fixture answers unknown_method
    await s.stop();
    const raw = ctx.scratch
      .rawRecords('rx')
      .filter((l) => l.startsWith('{') && l.includes('"method"') && l.includes('"id"'));
    assert.equal(raw.length, 8); // initialize, 5 intercepts, catalog, shutdown
    const ids = raw.map((l) => {
      const m = /"id":(-?\d+)[,}]/.exec(l);
      assert.ok(m, `id is a bare JSON integer in ${l.slice(0, 80)}`);
      return Number(m[1]);
    });
    assert.equal(new Set(ids).size, ids.length, 'unique');
    assert.deepEqual(ids, [1, 2, 3, 4, 5, 6, 7, 8]);
    for (const l of raw) {
      const f = JSON.parse(l) as Frame;
      assert.ok(
        f.params !== null && typeof f.params === 'object' && !Array.isArray(f.params),
        `params object in ${f.method}`,
      );
    }
    assert.ok(raw[6].includes('"params":{}'), 'empty params are sent as {}');
  });
});
