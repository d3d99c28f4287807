#!/usr/bin/env node
// The one sidecar every benchmark talks to, in plain Node with no dependencies. The floor and the
// measured path drive this same code: a raw parent simply sends the same frames without a
// handshake (this sidecar never enforces one), so any difference is the host's.
//
//   extension/initialize              answered at once
//   extension/intercept               `continue`; an externalized payload is first paged in
//                                     through host/content/read (each page's base64 decoded from
//                                     the frame's bytes) and its sha256 checked
//   extension/tool/call               (v2) `{"content":"ok"}`; the handshake serves every tool the
//                                     manifest expectation names
//   extension/provider/stream/open    accepted, then `maxTokens` text chunks and an end, written
//                                     with back-pressure; model "shuffled" permutes each block of
//                                     64 seqs (inside the window)
//   extension/resources/changed       paths counted; one stderr line per message
//                                     ("rc <paths in message> <distinct so far>"), and appended
//                                     to $BENCH_RECORD when set
//   extension/shutdown                accepted; the process exits when stdin closes
// BENCH_NOREAD=1: answer the handshake, then never read stdin again (a peer that stops reading).
// BENCH_PAGE_READER=json: JSON.parse whole page frames, as examples/showcase/lib/content.js does.
'use strict';
const fs = require('node:fs');
const crypto = require('node:crypto');
// The fixtures' framing (byte-level line splitting, one decode per line); resolved from this file.
// Lines arrive as bytes so a content page's base64 need not become a string (frameOf).
const { readLineBytes, encode, send, hostCalls, resultOf, text } = require('../../test/fixtures/lib/ndjson');

const noRead = process.env.BENCH_NOREAD === '1';
const record = process.env.BENCH_RECORD || '';
const host = hostCalls();
const seen = new Set();

/** Resolves with the host's result; rejects with its error message. */
function hostRequest(method, params) {
  return host.call(method, params).then(resultOf);
}

// A content page's `dataBase64` kept as the bytes it arrived in: decoding it from there in pieces
// under V8's 128 KiB large-object size makes no 350 KB string per page. Each such string costs
// ~1.5 ms of page faults on this VM (docs/bench.md, "Round 3"), the way Go's encoding/json decodes
// a []byte member straight from the frame instead.
class Base64Bytes {
  constructor(buf, start, end) {
    this.buf = buf;
    this.start = start;
    this.end = end;
  }

  get byteLength() {
    const len = this.end - this.start;
    let pad = 0;
    if (len > 0 && this.buf[this.end - 1] === 0x3d) pad++;
    if (len > 1 && this.buf[this.end - 2] === 0x3d) pad++;
    return (len / 4) * 3 - pad;
  }

  /** Decodes into target at offset; returns the bytes written. */
  decodeInto(target, offset) {
    const PIECE = 96 * 1024; // a multiple of 4 base64 characters
    let written = 0;
    for (let at = this.start; at < this.end; at += PIECE) {
      written += target.write(this.buf.latin1Slice(at, Math.min(this.end, at + PIECE)), offset + written, 'base64');
    }
    return written;
  }
}

const PAGE_KEY = Buffer.from('"dataBase64":"');

/**
 * One frame from its line's bytes. A large line holding a `"dataBase64":"…"` member without
 * escapes is parsed without that member's text, which is attached as Base64Bytes; anything
 * unexpected falls back to parsing the whole line. Returns undefined for a line that is not JSON.
 * BENCH_PAGE_READER=json parses every line whole (the showcase's reader; bench/content.ts).
 */
const jsonPages = process.env.BENCH_PAGE_READER === 'json';

function frameOf(buf, start, end) {
  if (!jsonPages && end - start > 128 * 1024) {
    const at = buf.indexOf(PAGE_KEY, start);
    const from = at + PAGE_KEY.length;
    const to = at === -1 || at >= end ? -1 : buf.indexOf(0x22, from);
    const escape = to === -1 ? -1 : buf.indexOf(0x5c, from);
    if (to !== -1 && to < end && (escape === -1 || escape > to)) {
      try {
        const msg = JSON.parse(text(buf, start, from) + text(buf, to, end));
        if (msg && msg.result && msg.result.dataBase64 === '') {
          msg.result.dataBase64 = new Base64Bytes(buf, from, to);
          return msg;
        }
      } catch {
        // not the shape we looked for: parse it whole below
      }
    }
  }
  try {
    return JSON.parse(text(buf, start, end));
  } catch {
    return undefined;
  }
}

// Pages an externalized field in the way examples/showcase/lib/content.js does: the next page is
// requested before the current one is decoded (one page in flight ahead), pages are decoded
// straight into one buffer of totalBytes, and the digest is updated as each page lands. Unlike
// the showcase, a page's base64 arrives as Base64Bytes (see frameOf).
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
    const data = r.dataBase64;
    const n = typeof data === 'string' ? Buffer.byteLength(data, 'base64') : data.byteLength;
    if (n > 256 * 1024 || offset + n > bytes.length) throw new Error('content longer than announced');
    const wrote = typeof data === 'string' ? bytes.write(data, offset, n, 'base64') : data.decodeInto(bytes, offset);
    if (wrote !== n) throw new Error('content page is not base64');
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

// Writes the chunks in blocks of 64 frames and, like a sidecar with a blocking stdout (the Go
// SDK's), waits for 'drain' whenever stdout's buffer is full instead of queueing the whole stream
// in its own memory: a reader slightly slower than this loop would otherwise make it hold
// megabytes of pending writes and pay for them in GC, a cost that lands on whichever path reads
// slower, not on the reader (docs/bench.md, "Round 3").
function stream(id, params) {
  send({ jsonrpc: '2.0', id, result: { accepted: true } });
  const total = params.request.maxTokens;
  const shuffled = params.model === 'shuffled';
  const chunk = { type: 'text', text: 'lorem ipsum dolor sit amet, consectetur adipiscing elit sed do' };
  const BLOCK = 64;
  let from = 1;
  const more = () => {
    while (from <= total) {
      const seqs = [];
      for (let seq = from; seq < from + BLOCK && seq <= total; seq++) seqs.push(seq);
      if (shuffled) permute(seqs, from);
      from += BLOCK;
      let out = '';
      for (const seq of seqs) {
        out += encode({
          jsonrpc: '2.0',
          method: 'extension/provider/stream/chunk',
          params: { streamId: params.streamId, seq, chunk },
        });
      }
      if (!process.stdout.write(out)) return void process.stdout.once('drain', more);
    }
    send({
      jsonrpc: '2.0',
      method: 'extension/provider/stream/end',
      params: { streamId: params.streamId, lastSeq: total },
    });
  };
  more();
}

function changed(paths) {
  for (const p of paths) seen.add(p);
  if (record) fs.appendFileSync(record, paths.join('\n') + '\n');
  process.stderr.write(`rc ${paths.length} ${seen.size}\n`);
}

function initializeResult(params) {
  const v2 = params && params.protocolVersion === '2';
  const result = { name: 'bench', version: '1.0.0', protocolVersion: v2 ? '2' : '1', stateSchemaVersion: 0 };
  const tools = v2 && params.manifest && params.manifest.tools;
  if (tools && tools.length) result.tools = tools;
  return result;
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
      send({
        jsonrpc: '2.0',
        id: msg.id,
        // Answers in the protocol it is asked in (v1 or v2): the same sidecar code measures both contracts.
        result: initializeResult(msg.params),
      });
      if (noRead) stopReading();
      return;
    case 'extension/provider/stream/open':
      return stream(msg.id, msg.params);
    case 'extension/tool/call':
      return send({ jsonrpc: '2.0', id: msg.id, result: { content: 'ok' } });
    case 'extension/resources/changed':
      return changed(msg.params.paths);
    case 'extension/shutdown':
      return send({ jsonrpc: '2.0', id: msg.id, result: { accepted: true } });
    default:
      if (msg.id !== undefined)
        send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'method not found' } });
  }
}

const reader = readLineBytes((buf, start, end) => {
  const msg = frameOf(buf, start, end);
  if (msg !== undefined) onMessage(msg);
});
function stopReading() {
  reader.stop();
}

process.stdin.on('end', () => process.exit(0));
