#!/usr/bin/env node
// The one sidecar every benchmark talks to, in plain Node with no dependencies. The floor and the
// measured path drive this same code: a raw parent simply sends the same frames without a
// handshake (this sidecar never enforces one), so any difference is the host's.
//
//   extension/initialize              answered at once
//   extension/intercept               `continue`; an externalized payload is first paged in
//                                     through host/content/read and its sha256 checked
//   extension/provider/stream/open    accepted, then `maxTokens` text chunks and an end; model
//                                     "shuffled" permutes each block of 64 seqs (inside the window)
//   extension/resources/changed       paths counted; one stderr line per message
//                                     ("rc <paths in message> <distinct so far>"), and appended
//                                     to $BENCH_RECORD when set
//   extension/shutdown                accepted; the process exits when stdin closes
// BENCH_NOREAD=1: answer the handshake, then never read stdin again (a peer that stops reading).
'use strict';
const fs = require('node:fs');
const crypto = require('node:crypto');
// The fixtures' framing (byte-level line splitting, one decode per line); resolved from this file.
const { readFrames, encode, send, hostCalls, resultOf, text } = require('../../test/fixtures/lib/ndjson');

const noRead = process.env.BENCH_NOREAD === '1';
const record = process.env.BENCH_RECORD || '';
const host = hostCalls();
const seen = new Set();

/** Resolves with the host's result; rejects with its error message. */
function hostRequest(method, params) {
  return host.call(method, params).then(resultOf);
}

// Pages an externalized field in the way examples/showcase/lib/content.js does: the next page is
// requested before the current one is decoded (one page in flight ahead), pages are decoded
// straight into one buffer of totalBytes, and the digest is updated as each page lands.
async function pageIn(field) {
  if (field.totalBytes > 8 * 1024 * 1024) throw new Error('content over 8 MiB');
  const bytes = Buffer.allocUnsafe(field.totalBytes);
  const hash = crypto.createHash('sha256');
  const read = (offset) => hostRequest('host/content/read', { contentRef: field.contentRef, offset });
  let offset = 0;
  let next = read(0);
  for (;;) {
    const r = await next;
    if (r.offset !== offset) throw new Error('content page out of place');
    if (r.nextOffset !== undefined) next = read(r.nextOffset);
    const n = Buffer.byteLength(r.dataBase64, 'base64');
    if (offset + n > bytes.length) throw new Error('content longer than announced');
    bytes.write(r.dataBase64, offset, n, 'base64');
    hash.update(bytes.subarray(offset, offset + n));
    offset += n;
    if (r.nextOffset === undefined) break;
    if (r.nextOffset !== offset) throw new Error('content page out of place');
  }
  if (offset !== field.totalBytes || hash.digest('hex') !== field.sha256) throw new Error('content mismatch');
  return JSON.parse(text(bytes, 0, bytes.length));
}

function intercept(id, params) {
  const field = params.externalized && params.externalized[0];
  if (!field) return send({ jsonrpc: '2.0', id, result: { decision: 'continue' } });
  pageIn(field).then(
    () => send({ jsonrpc: '2.0', id, result: { decision: 'continue' } }),
    (err) => send({ jsonrpc: '2.0', id, error: { code: -32603, message: String(err && err.message) } }),
  );
}

// Deterministic shuffle so every run sends the same order.
function permute(block, seed) {
  let s = seed >>> 0 || 1;
  for (let i = block.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) >>> 0;
    const j = s % (i + 1);
    const t = block[i];
    block[i] = block[j];
    block[j] = t;
  }
  return block;
}

function stream(id, params) {
  send({ jsonrpc: '2.0', id, result: { accepted: true } });
  const total = params.request.maxTokens;
  const shuffled = params.model === 'shuffled';
  const chunk = { type: 'text', text: 'lorem ipsum dolor sit amet, consectetur adipiscing elit sed do' };
  const BLOCK = 64;
  for (let from = 1; from <= total; from += BLOCK) {
    const seqs = [];
    for (let seq = from; seq < from + BLOCK && seq <= total; seq++) seqs.push(seq);
    if (shuffled) permute(seqs, from);
    let out = '';
    for (const seq of seqs) {
      out += encode({ jsonrpc: '2.0', method: 'extension/provider/stream/chunk', params: { streamId: params.streamId, seq, chunk } });
    }
    process.stdout.write(out);
  }
  send({ jsonrpc: '2.0', method: 'extension/provider/stream/end', params: { streamId: params.streamId, lastSeq: total } });
}

function changed(paths) {
  for (const p of paths) seen.add(p);
  if (record) fs.appendFileSync(record, paths.join('\n') + '\n');
  process.stderr.write(`rc ${paths.length} ${seen.size}\n`);
}

function onMessage(msg) {
  if (msg.method === undefined) {
    host.settle(msg);
    return;
  }
  switch (msg.method) {
    case 'extension/intercept':
      return intercept(msg.id, msg.params);
    case 'extension/initialize':
      send({ jsonrpc: '2.0', id: msg.id, result: { name: 'bench', version: '1.0.0', protocolVersion: '1', stateSchemaVersion: 0 } });
      if (noRead) stopReading();
      return;
    case 'extension/provider/stream/open':
      return stream(msg.id, msg.params);
    case 'extension/resources/changed':
      return changed(msg.params.paths);
    case 'extension/shutdown':
      return send({ jsonrpc: '2.0', id: msg.id, result: { accepted: true } });
    default:
      if (msg.id !== undefined) send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'method not found' } });
  }
}

const reader = readFrames(onMessage);
function stopReading() {
  reader.stop();
}

process.stdin.on('end', () => process.exit(0));
