// NDJSON reader: framing properties under arbitrary chunking, line endings and UTF-8.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { ProtocolError } from '../../../src/protocol';
import { cut, readAll } from './streams';

const MiB = 1024 * 1024;
const text = fc.string({ unit: 'grapheme', maxLength: 40 }); // includes astral characters
const jsonish = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: text, params: fc.dictionary(text, text, { maxKeys: 4 }) }),
);

describe('wire: NdjsonMessageReader', () => {
  it('delivers every value with its byte length whatever the chunk boundaries, line endings and blank lines (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(jsonish, fc.boolean(), fc.nat(2)), { maxLength: 20 }),
        fc.array(fc.nat(4000), { maxLength: 30 }),
        async (items, points) => {
          let wire = '';
          for (const [value, crlf, blanks] of items) {
            wire += JSON.stringify(value) + (crlf ? '\r\n' : '\n');
            wire += (crlf ? '\r\n' : '\n').repeat(blanks);
          }
          const buf = Buffer.from(wire, 'utf8');
          const out = await readAll(
            cut(
              buf,
              points.map((p) => p % (buf.length + 1)),
            ),
          );
          assert.deepEqual(
            out.values,
            items.map(([v]) => JSON.parse(JSON.stringify(v))),
          );
          // Each value comes with its frame's size in bytes, so nobody re-serialises it to measure it.
          assert.deepEqual(
            out.bytes,
            items.map(([v]) => Buffer.byteLength(JSON.stringify(v))),
          );
          assert.equal(out.unparsable.length, 0);
          assert.equal(out.errors.length, 0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reassembles a multi-byte character split across chunks at every byte (astral chars)', async () => {
    const s = { a: '😀𝄞ä€' };
    const buf = Buffer.from(JSON.stringify(s) + '\n');
    for (let i = 1; i < buf.length; i++) {
      const out = await readAll([buf.subarray(0, i), buf.subarray(i)]);
      assert.deepEqual(out.values, [s]);
    }
  });

  it('reports a non-JSON line and keeps reading', async () => {
    const out = await readAll([Buffer.from('not json\n{"a":1}\n  \n\r\n{"b":2}')]);
    assert.deepEqual(out.unparsable, ['not json']);
    assert.deepEqual(out.values, [{ a: 1 }]);
  });

  it('accepts a final line without a newline at end of stream only if terminated', async () => {
    const out = await readAll([Buffer.from('{"a":1}\n{"b":')]);
    assert.deepEqual(out.values, [{ a: 1 }]);
  });

  it('enforces the cap counting the newline, near the boundary (property, small cap)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 32, max: 400 }),
        fc.integer({ min: -3, max: 3 }),
        fc.boolean(),
        fc.nat(500),
        async (cap, delta, crlf, point) => {
          // A JSON string line whose frame (line + "\n") is cap + delta bytes.
          const frameLen = cap + delta;
          const lineLen = frameLen - 1;
          const body = 'x'.repeat(lineLen - 2 - (crlf ? 1 : 0));
          const buf = Buffer.from(`"${body}"${crlf ? '\r' : ''}\n{"after":true}\n`);
          const out = await readAll(cut(buf, [point % buf.length]), { maxFrameBytes: cap });
          if (frameLen <= cap) {
            assert.deepEqual(out.values, [body, { after: true }]);
            assert.equal(out.errors.length, 0);
          } else {
            assert.deepEqual(out.values, [], 'reading stops at the oversize frame');
            assert.equal(out.errors.length, 1);
            assert.ok(out.errors[0] instanceof ProtocolError);
            assert.equal((out.errors[0] as ProtocolError).reason, 'frame_too_large');
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('accepts a frame of exactly 8 MiB and rejects 8 MiB + 1 (newline counted)', async () => {
    const ok = Buffer.from(`"${'a'.repeat(8 * MiB - 3)}"\n`);
    assert.equal(ok.length, 8 * MiB);
    const good = await readAll(cut(ok, [1000, 4 * MiB, 8 * MiB - 1]));
    assert.equal(good.values.length, 1);
    assert.equal(good.errors.length, 0);

    const big = Buffer.from(`"${'a'.repeat(8 * MiB - 2)}"\n{"never":1}\n`);
    const bad = await readAll(cut(big, [65536, 5 * MiB]));
    assert.equal(bad.values.length, 0);
    assert.equal((bad.errors[0] as ProtocolError).reason, 'frame_too_large');
  });

  it('fails an endless line as soon as it passes the cap, without waiting for a newline', async () => {
    const out = await readAll([Buffer.alloc(300, 0x61), Buffer.alloc(300, 0x61)], { maxFrameBytes: 512 });
    assert.equal((out.errors[0] as ProtocolError).reason, 'frame_too_large');
  });
});
