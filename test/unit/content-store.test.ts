import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { serializePayload } from '../../src/host/content/externalize';
import { ContentStore, contentSha256, contentSize, contentText } from '../../src/host/content/store';
import { FrameParts, frameBuffer } from '../../src/host/wire/writer';
import { ProtocolError } from '../../src/protocol';

describe('content store (HOST_SPEC §5)', () => {
  it('serves a 600 KiB object in chunks of 256 KiB, 256 KiB, 88 KiB with nextOffset on the first two only (case 42)', () => {
    const store = new ContentStore();
    const bytes = Buffer.alloc(600 * 1024, 'a');
    const d = store.put('/payload', bytes);
    assert.match(d.contentRef, /^content_[0-9a-f]{24}$/);
    const whole = createHash('sha256').update(bytes).digest('hex');
    const sizes: number[] = [];
    const next: (number | undefined)[] = [];
    for (const offset of [0, 262144, 524288]) {
      const r = store.read({ contentRef: d.contentRef, offset });
      sizes.push(Buffer.from(r.dataBase64, 'base64').length);
      next.push(r.nextOffset);
      assert.equal(r.sha256, whole);
      assert.equal(r.totalBytes, bytes.length);
      assert.equal(r.offset, offset);
      assert.equal(r.encoding, 'utf8');
    }
    assert.deepEqual(sizes, [262144, 262144, 614400 - 524288]);
    assert.deepEqual(next, [262144, 524288, undefined]);
  });

  it('a pre-encoded page is byte for byte the envelope around JSON.stringify of the same page', () => {
    const store = new ContentStore();
    const bytes = Buffer.from('{"text":"h\u00e9llo \u2603 ' + 'x'.repeat(300 * 1024) + '"}', 'utf8');
    const d = store.put('/payload', bytes);
    for (const offset of [0, 262144]) {
      const prefix = '{"jsonrpc":"2.0","id":7,"result":';
      const frame = store.readEncoded({ contentRef: d.contentRef, offset }).frame(prefix, '}\n', 8 * 1024 * 1024);
      // Handed over in parts under V8's 128 KiB large-object size: no one buffer (or string) of the whole page.
      assert.ok(
        frame instanceof FrameParts && frame.parts.length > 1 && frame.parts.every((p) => p.length <= 96 * 1024),
      );
      assert.equal(frame.length, frameBuffer(frame).length);
      assert.equal(
        frameBuffer(frame).toString('utf8'),
        `${prefix}${JSON.stringify(store.read({ contentRef: d.contentRef, offset }))}}\n`,
      );
    }
    assert.throws(
      () => store.readEncoded({ contentRef: d.contentRef, offset: 0 }).frame('', '', 1000),
      (e: unknown) => e instanceof ProtocolError && e.reason === 'frame_too_large',
    );
  });

  it('holds an ASCII JSON string as is and serves, sizes and hashes it exactly like its bytes', () => {
    const text = JSON.stringify({ text: 'ascii only '.repeat(60_000) }); // ~660 KB: three pages
    const bytes = Buffer.from(text, 'utf8');
    const store = new ContentStore();
    const asText = store.put('/payload', { ascii: text });
    const asBytes = store.put('/payload', bytes);
    assert.equal(asText.totalBytes, bytes.length);
    assert.equal(asText.sha256, createHash('sha256').update(bytes).digest('hex'));
    assert.equal(asText.sha256, asBytes.sha256);
    const prefix = '{"jsonrpc":"2.0","id":1,"result":';
    for (const offset of [0, 262144, 524288, bytes.length]) {
      const a = store.read({ contentRef: asText.contentRef, offset });
      const b = store.read({ contentRef: asBytes.contentRef, offset });
      assert.deepEqual({ ...a, contentRef: '' }, { ...b, contentRef: '' });
      assert.ok(
        Buffer.from(a.dataBase64, 'base64').equals(bytes.subarray(offset, Math.min(bytes.length, offset + 262144))),
      );
      const frame = store.readEncoded({ contentRef: asText.contentRef, offset }).frame(prefix, '}\n', 8 * 1024 * 1024);
      assert.equal(frameBuffer(frame).toString('utf8'), `${prefix}${JSON.stringify(a)}}\n`);
    }
    const held = store.get(asText.contentRef);
    assert.ok(held);
    assert.equal(contentSize(held.content), bytes.length);
    assert.equal(contentSha256(held.content), asText.sha256);
    assert.equal(contentText(held.content), text);
  });

  it('answers content_ref_expired for unknown refs and out-of-range offsets (case 43)', () => {
    const store = new ContentStore();
    const d = store.put('/payload', Buffer.from('hello'));
    for (const params of [
      { contentRef: 'content_000000000000000000000000', offset: 0 },
      { contentRef: d.contentRef, offset: 6 },
    ]) {
      assert.throws(
        () => store.read(params),
        (e: unknown) => e instanceof ProtocolError && e.reason === 'content_ref_expired' && e.retryable,
      );
    }
    assert.equal(Buffer.from(store.read({ contentRef: d.contentRef, offset: 5 }).dataBase64, 'base64').length, 0);
  });

  it('evicts the oldest object when the 65th is stored (case 44)', () => {
    const store = new ContentStore();
    const first = store.put('/payload', Buffer.from('first'));
    for (let i = 0; i < 64; i++) store.put('/payload', Buffer.from(`obj ${i}`));
    assert.equal(store.size, 64);
    assert.throws(() => store.read({ contentRef: first.contentRef, offset: 0 }), /expired/);
  });

  it('refuses objects over 8 MiB with frame_too_large', () => {
    const store = new ContentStore({ maxObjectBytes: 10 });
    assert.throws(
      () => store.put('/payload', Buffer.alloc(11)),
      (e: unknown) => e instanceof ProtocolError && e.reason === 'frame_too_large',
    );
  });
});

describe('serialized payloads (externalization input)', () => {
  it('encodes to exactly the UTF-8 bytes, ASCII or not, and hashes them', () => {
    for (const value of [
      { text: 'plain ascii' },
      { text: 'h\u00e9llo' },
      { text: 'snow \u2603 and \u{1F600}' },
      { text: 'lone \ud800 surrogate' },
    ]) {
      const p = serializePayload(value);
      const expected = Buffer.from(JSON.stringify(value), 'utf8');
      assert.ok(p.utf8().equals(expected), JSON.stringify(value));
      assert.equal(p.bytes, expected.length);
      assert.equal(p.sha256(), createHash('sha256').update(expected).digest('hex'));
    }
  });

  it('is held by a store as its own string when ASCII and as its UTF-8 bytes otherwise', () => {
    const ascii = serializePayload({ text: 'plain' });
    assert.deepEqual(ascii.content(), { ascii: ascii.json });
    const wide = serializePayload({ text: 'h\u00e9llo \u2603' });
    const held = wide.content();
    assert.ok(Buffer.isBuffer(held) && held.equals(Buffer.from(wide.json, 'utf8')));
    for (const p of [ascii, wide])
      assert.equal(p.sha256(), createHash('sha256').update(Buffer.from(p.json, 'utf8')).digest('hex'));
  });

  it('decides "over the limit" by UTF-8 size at the boundary, from the length alone away from it', () => {
    const at = (json: string) => serializePayload(JSON.parse(json) as unknown);
    assert.equal(at('"' + 'x'.repeat(8) + '"').exceeds(10), false); // 10 bytes
    assert.equal(at('"' + 'x'.repeat(9) + '"').exceeds(10), true); // 11 bytes
    assert.equal(at('"' + '\u00e9'.repeat(4) + '"').exceeds(10), false); // 6 units, 10 bytes
    assert.equal(at('"' + '\u00e9'.repeat(5) + '"').exceeds(10), true); // 7 units, 12 bytes
  });
});
