'use strict';
// Rehydrating externalized payloads. When an intercept or event payload is over 64 KiB the host
// sends `payload: null` plus a descriptor `{jsonPointer:"/payload", contentRef, totalBytes, sha256}`
// and we page the bytes with `host/content/read` (at most 256 KiB per call).

const crypto = require('node:crypto');

const CHUNK_BYTES = 256 * 1024;
const OBJECT_BYTES = 8 * 1024 * 1024;

/** Reads one externalized object and returns its parsed JSON value. */
async function readExternalized(rpc, descriptor) {
  if (descriptor.totalBytes > OBJECT_BYTES) throw new Error('externalized object over 8 MiB');
  const parts = [];
  let offset = 0;
  for (;;) {
    const r = await rpc.request('host/content/read', { contentRef: descriptor.contentRef, offset });
    const bytes = Buffer.from(r.dataBase64, 'base64');
    if (r.contentRef !== descriptor.contentRef || r.offset !== offset || r.encoding !== 'utf8' || bytes.length > CHUNK_BYTES) {
      throw new Error('host/content/read answered an inconsistent chunk');
    }
    parts.push(bytes);
    if (r.nextOffset === undefined) break;
    if (r.nextOffset <= offset) throw new Error('host/content/read did not advance');
    offset = r.nextOffset;
  }
  const whole = Buffer.concat(parts);
  const sha256 = crypto.createHash('sha256').update(whole).digest('hex');
  if (whole.length !== descriptor.totalBytes || sha256 !== descriptor.sha256) {
    throw new Error('externalized content does not match its descriptor');
  }
  return JSON.parse(whole.toString('utf8'));
}

/** The payload of an intercept/event, fetched from the host when it was externalized. */
async function resolvePayload(rpc, params) {
  const moved = (params.externalized || []).find((d) => d.jsonPointer === '/payload');
  return moved ? readExternalized(rpc, moved) : params.payload;
}

module.exports = { readExternalized, resolvePayload };
