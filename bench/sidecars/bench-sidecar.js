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
// Node 18.15+; without it every line is decoded as UTF-8.
const isAscii = require('node:buffer').isAscii || (() => false);

const noRead = process.env.BENCH_NOREAD === '1';
const record = process.env.BENCH_RECORD || '';
const pending = new Map();
const seen = new Set();
let nextId = 1;

function send(frame) {
  process.stdout.write(JSON.stringify(frame) + '\n');
}

function hostRequest(method, params) {
  const id = nextId++;
  send({ jsonrpc: '2.0', id, method, params });
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
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

// UTF-8 text of buf[start, end). ASCII bytes are the same characters in latin1, which Node copies
// without decoding, and from about 1 MiB up into memory outside V8's heap that malloc reuses; a
// UTF-8 decode always takes fresh V8 heap memory for a large string (its page faults are most of
// the cost of an 8 MiB string on a small VM). Any other byte: decoded as UTF-8.
function text(buf, start, end) {
  return isAscii(buf.subarray(start, end)) ? buf.latin1Slice(start, end) : buf.utf8Slice(start, end);
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
      out += JSON.stringify({ jsonrpc: '2.0', method: 'extension/provider/stream/chunk', params: { streamId: params.streamId, seq, chunk } }) + '\n';
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
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.error) p.reject(new Error(msg.error.message));
    else p.resolve(msg.result);
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

// Byte-level line splitting: a large frame arrives in many chunks and is decoded once (see text()).
let parts = [];
function onData(chunk) {
  let start = 0;
  for (;;) {
    const nl = chunk.indexOf(10, start);
    if (nl === -1) break;
    let line;
    if (parts.length) {
      parts.push(chunk.subarray(start, nl));
      const whole = Buffer.concat(parts);
      line = text(whole, 0, whole.length);
      parts = [];
    } else {
      line = text(chunk, start, nl);
    }
    start = nl + 1;
    if (line.trim()) onMessage(JSON.parse(line));
    if (stopped) return;
  }
  if (start < chunk.length) parts.push(chunk.subarray(start));
}

let stopped = false;
function stopReading() {
  stopped = true;
  process.stdin.off('data', onData);
  process.stdin.pause();
}

process.stdin.on('data', onData);
process.stdin.on('end', () => process.exit(0));
