'use strict';
// Rehydrating externalized payloads. When an intercept or event payload is over 64 KiB the host
// sends `payload: null` plus a descriptor `{jsonPointer:"/payload", contentRef, totalBytes, sha256}`
// and we page the bytes with `host/content/read` (at most 256 KiB per call).

const crypto = require('node:crypto');
// Node 18.15+; without it the text is decoded as UTF-8.
const isAscii = require('node:buffer').isAscii || (() => false);

const CHUNK_BYTES = 256 * 1024;
const OBJECT_BYTES = 8 * 1024 * 1024;

/**
 * Reads one externalized object and returns its parsed JSON value. The next page is requested
 * before the current one is decoded (one page in flight ahead), pages are decoded straight into
 * one buffer of `totalBytes`, and the sha256 is updated as each page lands.
 */
async function readExternalized(rpc, descriptor) {
  if (descriptor.totalBytes > OBJECT_BYTES) throw new Error('externalized object over 8 MiB');
  const bytes = Buffer.allocUnsafe(descriptor.totalBytes);
  const hash = crypto.createHash('sha256');
  const read = (offset) => rpc.request('host/content/read', { contentRef: descriptor.contentRef, offset });
  let offset = 0;
  let pending = read(0);
  try {
    for (;;) {
      const r = await pending;
      pending = undefined;
      if (r.contentRef !== descriptor.contentRef || r.offset !== offset || r.encoding !== 'utf8') {
        throw new Error('host/content/read answered an inconsistent chunk');
      }
      if (r.nextOffset !== undefined) pending = read(r.nextOffset);
      const n = Buffer.byteLength(r.dataBase64, 'base64');
      if (n > CHUNK_BYTES || offset + n > bytes.length)
        throw new Error('host/content/read answered an inconsistent chunk');
      bytes.write(r.dataBase64, offset, n, 'base64');
      hash.update(bytes.subarray(offset, offset + n));
      offset += n;
      if (r.nextOffset === undefined) break;
      if (r.nextOffset !== offset) throw new Error('host/content/read did not advance');
    }
  } finally {
    // A page still in flight when we give up is not awaited; keep its failure from going unhandled.
    if (pending) pending.catch(() => undefined);
  }
  if (offset !== descriptor.totalBytes || hash.digest('hex') !== descriptor.sha256) {
    throw new Error('externalized content does not match its descriptor');
  }
  // ASCII bytes are the same characters in latin1, which Node copies without decoding (and, from
  // about 1 MiB up, into memory outside V8's heap that malloc reuses); anything else is UTF-8.
  return JSON.parse(isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8'));
}

/** The payload of an intercept/event, fetched from the host when it was externalized. */
async function resolvePayload(rpc, params) {
  const moved = (params.externalized || []).find((d) => d.jsonPointer === '/payload');
  return moved ? readExternalized(rpc, moved) : params.payload;
}

module.exports = { readExternalized, resolvePayload };
