// Issue 11 item 6: JSON-RPC envelope edges answered as the reference host, against the real
// well-behaved fixture sidecar writing raw lines after extension/initialized.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { topLevelMemberText } from '../../../src/host/wire/envelope';
import { INTERCEPT, pluginFor, useFleet } from '../sidecar/fixtures';
import { waitFor } from '../../support/wait';

interface Frame {
  id?: unknown;
  method?: string;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

const publish = { surfaceId: 's1', sessionId: 'sess-1', generation: 3, kind: 'status', payload: { text: 'ok' } };

describe('conformance: envelope edges as the reference host (issue 11 item 6)', function () {
  this.timeout(20000);
  const ctx = useFleet();

  async function answersTo(lines: string[], count: number) {
    const published: unknown[] = [];
    const s = ctx.fleet.make({
      plugin: pluginFor('well-behaved.js', {
        env: { FIX_RECORD: ctx.scratch.file('rx'), FIX_LINES: JSON.stringify(lines) },
      }),
      handlers: { 'host/ui/publish': (p: unknown) => (published.push(p), { accepted: true }) },
    });
    await s.start();
    const answers = () =>
      (ctx.scratch.records('rx') as Frame[]).filter((f) => typeof f === 'object' && f.method === undefined);
    await waitFor(() => answers().length >= count, { timeoutMs: 10_000, what: `${count} answers`, intervalMs: 5 });
    return { s, answers: answers(), published };
  }

  it('params null or a string and method "" are invalid requests echoing the id; the answers use the reference wording, no data', async () => {
    const { answers, published } = await answersTo(
      [
        '{"jsonrpc":"2.0","id":1,"method":"host/ui/publish","params":null}',
        '{"jsonrpc":"2.0","id":2,"method":"host/ui/publish","params":"x"}',
        '{"jsonrpc":"2.0","id":3,"method":"","params":{}}',
        'not json at all',
      ],
      4,
    );
    for (const id of [1, 2, 3]) {
      assert.deepEqual(
        answers.find((a) => a.id === id)?.error,
        { code: -32600, message: 'invalid request' },
        `id ${id}`,
      );
    }
    assert.deepEqual(answers.find((a) => a.id === null)?.error, { code: -32700, message: 'parse error' });
    assert.deepEqual(published, []);
  });

  it('a request with id null is served and answered with id null', async () => {
    const { answers, published, s } = await answersTo(
      [JSON.stringify({ jsonrpc: '2.0', id: null, method: 'host/ui/publish', params: publish })],
      1,
    );
    assert.deepEqual(answers, [{ jsonrpc: '2.0', id: null, result: { accepted: true } }]);
    assert.equal(published.length, 1);
    assert.deepEqual(
      await s.request('extension/intercept', INTERCEPT),
      { decision: 'continue' },
      'the connection is unaffected',
    );
  });

  it('a non-integer id (1.5, 1e2, 1.0) or a method of the wrong type is an invalid request answered with id null; nothing is served', async () => {
    const body = JSON.stringify(publish);
    const { answers, published } = await answersTo(
      [
        `{"jsonrpc":"2.0","id":1.5,"method":"host/ui/publish","params":${body}}`,
        `{"jsonrpc":"2.0","id":1e2,"method":"host/ui/publish","params":${body}}`,
        `{"jsonrpc":"2.0","id":1.0,"method":"host/ui/publish","params":${body}}`,
        '{"jsonrpc":"2.0","id":7,"method":42,"params":{}}',
        '{"jsonrpc":"2.0","method":"extension/provider/stream/chunk","params":null}',
      ],
      5,
    );
    assert.equal(answers.length, 5);
    for (const a of answers)
      assert.deepEqual(a, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } });
    assert.deepEqual(published, []);
  });

  it('an integer id past 2^53 is echoed byte for byte (HOST_SPEC §1), also on an error answer; the request is served', async () => {
    const body = JSON.stringify(publish);
    const { answers, published, s } = await answersTo(
      [
        `{"jsonrpc":"2.0","id":9223372036854775807,"method":"host/ui/publish","params":${body}}`,
        `{"jsonrpc":"2.0","id":-9007199254740993,"method":"host/ui/publish","params":null}`,
        `{"params":${body},"method":"host/ui/publish","id":12345678901234567890123,"jsonrpc":"2.0"}`,
      ],
      3,
    );
    assert.equal(answers.length, 3);
    const raw = readFileSync(ctx.scratch.file('rx'), 'utf8');
    assert.ok(raw.includes('{"jsonrpc":"2.0","id":9223372036854775807,"result":{"accepted":true}}'), raw);
    assert.ok(
      raw.includes('{"jsonrpc":"2.0","id":-9007199254740993,"error":{"code":-32600,"message":"invalid request"}}'),
      raw,
    );
    assert.ok(raw.includes('{"jsonrpc":"2.0","id":12345678901234567890123,"result":{"accepted":true}}'), raw);
    assert.equal(published.length, 2);
    assert.deepEqual(await s.request('extension/intercept', INTERCEPT), { decision: 'continue' });
  });

  it('reads how an id was written from the frame text, top level only', () => {
    assert.equal(topLevelMemberText('{"jsonrpc":"2.0","id":1e2,"method":"m"}', 'id'), '1e2');
    assert.equal(topLevelMemberText('{"params":{"id":1.5},"id":7}', 'id'), '7');
    assert.equal(topLevelMemberText('{"x":"\\"id\\":3","id" : -4 }', 'id'), '-4');
    assert.equal(topLevelMemberText('{"\\u0069d":12}', 'id'), '12');
    assert.equal(topLevelMemberText('{"params":[{"id":1}]}', 'id'), undefined);
  });
});
