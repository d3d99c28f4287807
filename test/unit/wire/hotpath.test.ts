// The intercept hot path's shortcuts keep the protocol identical: the payload JSON spliced into the
// frame gives exactly the bytes JSON.stringify would, the frame cap still applies, one shared
// deadline timer fails each call at its own deadline, and a result validated once (by the
// connection) is still refused when invalid.
import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { encode, readLines } from '../../fixtures/lib/ndjson';
import { ContentStore } from '../../../src/host/content/store';
import { buildHookPayload, createDispatcher, type InterceptClient } from '../../../src/host/intercepts';
import { ValidatedConnection } from '../../../src/host/wire';
import { ProtocolError } from '../../../src/protocol';

/** The sidecar end of in-memory pipes: records each line and answers through `answer`. */
function harness(answer: (id: number, line: string) => object | undefined, maxFrameBytes?: number) {
  const toHost = new PassThrough();
  const fromHost = new PassThrough();
  const lines: string[] = [];
  readLines((line) => {
    lines.push(line);
    const id = (JSON.parse(line) as { id: number }).id;
    const result = answer(id, line);
    if (result) toHost.write(encode({ jsonrpc: '2.0', id, result }));
  }, fromHost);
  const conn = new ValidatedConnection({
    input: toHost,
    output: fromHost,
    maxFrameBytes,
    handlers: { handler: () => undefined },
  });
  conn.markReady();
  let seq = 0;
  const client: InterceptClient = {
    pluginId: 'p',
    registration: 0,
    runtime: { intercepts: ['input.receive'], replaces: [], priority: 0, required: false, timeoutMillis: 0 },
    content: new ContentStore(),
    isLive: () => conn.ended === undefined,
    nextInterceptSeq: () => ++seq,
    request: (method, params, opts) => conn.request(method, params, opts),
    sendEvent: (params) => conn.sendEvent(params),
  };
  return { conn, lines, client, toHost };
}

describe('intercept hot path', () => {
  it('splices the payload JSON into a frame byte-identical to JSON.stringify of the whole request', async () => {
    const h = harness(() => ({ decision: 'continue' }));
    const d = createDispatcher([h.client]);
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(fc.string(), fc.jsonValue()),
          fc.string({ unit: 'grapheme' }),
          async (extra, text) => {
            const payload = { ...extra, text: `"\u2028\\${text}` };
            const before = h.lines.length;
            const out = await d.dispatch('input.receive', payload);
            assert.equal(out.decision, 'continue');
            const line = h.lines[before];
            const sent = JSON.parse(line) as { id: number; params: { seq: number } };
            const expected = JSON.stringify({
              jsonrpc: '2.0',
              id: sent.id,
              method: 'extension/intercept',
              params: {
                event: 'input.receive',
                seq: sent.params.seq,
                payload: buildHookPayload('input.receive', payload),
                timeoutMillis: 5000,
              },
            });
            assert.equal(line, expected);
          },
        ),
        { numRuns: 150 },
      );
    } finally {
      h.conn.dispose();
    }
  });

  it('still refuses a spliced frame over the cap with frame_too_large and keeps the connection', async () => {
    const h = harness(() => ({ decision: 'continue' }), 600);
    try {
      const params = { event: 'input.receive', seq: 1, payload: { text: 'x'.repeat(1000) }, timeoutMillis: 1000 };
      await assert.rejects(
        h.conn.request('extension/intercept', params, { paramsJson: JSON.stringify(params) }),
        (e: ProtocolError) => e.reason === 'frame_too_large',
      );
      const small = { event: 'input.receive', seq: 2, payload: { text: 'ok' }, timeoutMillis: 1000 };
      assert.deepEqual(await h.conn.request('extension/intercept', small, { paramsJson: JSON.stringify(small) }), {
        decision: 'continue',
      });
      assert.equal(h.lines.length, 1);
    } finally {
      h.conn.dispose();
    }
  });

  it('fails each call at its own deadline with one shared timer; answered calls are unaffected', async () => {
    // Only the call with a 1 s budget is answered, after the two short ones have timed out.
    const h = harness(() => undefined);
    try {
      const params = { event: 'input.receive', seq: 1, payload: { text: 'a' }, timeoutMillis: 1000 };
      const t0 = Date.now();
      const settled: string[] = [];
      const track = (name: string, p: Promise<unknown>) =>
        p.then(
          () => settled.push(`${name}:ok`),
          (e: ProtocolError) =>
            settled.push(
              `${name}:${e.reason}@${Date.now() - t0 >= (name === 'slow' ? 80 : 30) ? 'late-enough' : 'early'}`,
            ),
        );
      const long = track(
        'long',
        h.conn.request('extension/intercept', params, { timeoutMs: 1000, timeoutReason: 'intercept_timeout' }),
      );
      const slow = track(
        'slow',
        h.conn.request('extension/intercept', params, { timeoutMs: 80, timeoutReason: 'intercept_timeout' }),
      );
      const fast = track(
        'fast',
        h.conn.request('extension/intercept', params, { timeoutMs: 30, timeoutReason: 'intercept_timeout' }),
      );
      await Promise.all([fast, slow]);
      const first = JSON.parse(h.lines[0]) as { id: number };
      h.toHost.write(encode({ jsonrpc: '2.0', id: first.id, result: { decision: 'continue' } }));
      await long;
      assert.deepEqual(settled, [
        'fast:intercept_timeout@late-enough',
        'slow:intercept_timeout@late-enough',
        'long:ok',
      ]);
    } finally {
      h.conn.dispose();
    }
  });

  it('an invalid result is refused once, by the connection, and the optional plugin is skipped with a warning', async () => {
    const h = harness(() => ({ decision: 'maybe' }));
    try {
      const out = await createDispatcher([h.client]).dispatch('input.receive', { text: 'hi' });
      assert.equal(out.decision, 'continue');
      assert.equal(out.warnings.length, 1);
      assert.match(out.warnings[0], /protocol_error.*invalid extension\/intercept result/);
    } finally {
      h.conn.dispose();
    }
  });
});
