'use strict';
// JSON-RPC 2.0 over NDJSON on stdin/stdout: the whole wire side of a Reasonix v2 sidecar.
//
// Copy this file into your own extension. It does what the Reasonix SDK's transport does:
//   * one compact JSON object per line, in both directions (stdout carries nothing else);
//   * strict envelopes: bad JSON → -32700, anything that is not a valid request,
//     notification or response → -32600, params that are not an object → -32600;
//   * requests to methods nobody registered → -32601 with data {reason:"unknown_method"};
//   * the lifecycle barrier: until `extension/initialized` arrives only `extension/initialize`
//     and `extension/shutdown` are served;
//   * our own requests to the host use integer ids counting from 1;
//   * stdin EOF ends the process with exit code 0.

const { checkParams } = require('./params');

const PROTOCOL_ID = 'reasonix.extension.v2';
const PROTOCOL_MAJOR = 2;
/** Per-line limit in both directions, trailing newline included. */
const FRAME_BYTES = 8 * 1024 * 1024;

/** The frozen v2 error table (reason → JSON-RPC code, retryable, generic message): v1's 14 and six more. */
const ERRORS = {
  activation_failed: [-32000, false, 'Component activation failed; the new generation was not published.'],
  cleanup_failed: [-32000, true, 'Component cleanup failed while disposing scoped effects.'],
  dependency_cycle: [-32000, false, 'The dependency graph contains a required cycle.'],
  dependency_unsatisfied: [-32000, false, 'A required dependency is missing or not version-compatible.'],
  schema_mismatch: [-32000, false, 'A capability schema hash does not match the expected pin.'],
  stale_generation: [-32000, false, 'The message belongs to a superseded runtime generation.'],
  capability_not_declared: [-32000, false, 'The extension used a capability its manifest did not declare.'],
  content_ref_expired: [-32000, true, 'The referenced content has expired.'],
  frame_too_large: [-32000, false, 'The frame exceeds the frozen protocol size limit.'],
  intercept_timeout: [-32000, true, 'The extension did not answer an intercept within its timeout.'],
  internal: [-32603, true, 'An internal extension protocol error occurred.'],
  invalid_params: [-32602, false, 'The params do not match the registered method schema.'],
  protocol_error: [-32600, false, 'The extension protocol frame or envelope is invalid.'],
  provider_failed: [-32000, true, 'The extension provider stream failed.'],
  provider_interrupted: [-32000, true, 'The extension provider stream was interrupted.'],
  shutdown_timeout: [-32000, true, 'The extension did not shut down within the requested timeout.'],
  stream_cancelled: [-32000, false, 'The provider stream was cancelled.'],
  stream_gap: [-32000, true, 'A provider stream chunk is missing from the ordered sequence.'],
  unknown_method: [-32601, false, 'The method is not registered in Extension Protocol v2.'],
  unsupported_version: [-32000, false, "The peer's extension protocol version is not supported."],
};

/** Throw one of these from a handler to answer with a structured protocol error. */
class RpcError extends Error {
  constructor(reason, message) {
    const entry = ERRORS[reason] || ERRORS.internal;
    super(message || entry[2]);
    this.reason = ERRORS[reason] ? reason : 'internal';
    this.code = entry[0];
    this.retryable = entry[1];
  }

  toWire() {
    return { code: this.code, message: this.message, data: { reason: this.reason, retryable: this.retryable } };
  }
}

/** Methods served before `extension/initialized` (the SDK's half of the barrier). */
const BEFORE_READY = new Set(['extension/initialize', 'extension/shutdown']);

function isPlainObject(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Creates the connection. Register handlers, then call `start()`.
 *
 *   const rpc = createConnection({ log });
 *   rpc.onRequest('extension/ui/action', async (params, ctx) => ({ accepted: true }));
 *   rpc.onNotification('extension/resources/changed', (params) => { ... });
 *   rpc.start();
 *   const answer = await rpc.request('host/ui/publish', {...});
 */
function createConnection(options = {}) {
  const input = options.input || process.stdin;
  const output = options.output || process.stdout;
  const log = options.log || ((msg) => process.stderr.write(`${msg}\n`));
  const onClose = options.onClose || (() => process.exit(0));

  const requestHandlers = new Map();
  const notificationHandlers = new Map();
  const pending = new Map(); // our request id → {resolve, reject, method}
  let nextId = 1;
  let ready = false;
  let closed = false;

  function write(message) {
    if (closed) return false;
    const line = JSON.stringify(message) + '\n';
    if (Buffer.byteLength(line) > FRAME_BYTES) {
      throw new RpcError('frame_too_large', `outgoing frame is over ${FRAME_BYTES} bytes`);
    }
    output.write(line);
    return true;
  }

  function reply(id, result) {
    try {
      write({ jsonrpc: '2.0', id, result });
    } catch (err) {
      // A result we cannot send must still answer the call.
      write({ jsonrpc: '2.0', id, error: new RpcError('internal').toWire() });
      log(`reply to ${id} dropped: ${err.message}`);
    }
  }

  function replyError(id, error) {
    write({ jsonrpc: '2.0', id, error });
  }

  async function serveRequest(msg) {
    const { id, method } = msg;
    const handler = requestHandlers.get(method);
    if (!handler) {
      replyError(id, new RpcError('unknown_method', `method not found: ${method}`).toWire());
      return;
    }
    if (!ready && !BEFORE_READY.has(method)) {
      replyError(id, new RpcError('protocol_error', `${method} before extension/initialized`).toWire());
      return;
    }
    const problem = checkParams(method, msg.params);
    if (problem) {
      replyError(id, new RpcError('invalid_params', `${method}: ${problem}`).toWire());
      return;
    }
    const after = [];
    const ctx = { afterReply: (fn) => after.push(fn) };
    try {
      const result = await handler(msg.params, ctx);
      reply(id, result);
    } catch (err) {
      if (err instanceof RpcError) {
        replyError(id, err.toWire());
      } else {
        // Internals never go on the wire; the details stay in our stderr.
        log(`${method} failed: ${err && err.stack ? err.stack : err}`);
        replyError(id, new RpcError('internal').toWire());
      }
    }
    for (const fn of after) fn();
  }

  function serveNotification(msg) {
    const { method } = msg;
    const problem = checkParams(method, msg.params);
    if (problem) {
      // Notifications have nobody to answer: a malformed one is dropped.
      log(`dropped ${method}: ${problem}`);
      return;
    }
    if (method === 'extension/initialized') ready = true;
    else if (!ready) {
      log(`dropped ${method}: not initialized yet`);
      return;
    }
    const handler = notificationHandlers.get(method);
    if (!handler) {
      if (method !== 'extension/initialized') log(`ignored notification ${method}`);
      return;
    }
    Promise.resolve()
      .then(() => handler(msg.params))
      .catch((err) => log(`${method} handler failed: ${err && err.stack ? err.stack : err}`));
  }

  function settle(msg) {
    const entry = typeof msg.id === 'number' ? pending.get(msg.id) : undefined;
    if (!entry) {
      log(`response to unknown id ${JSON.stringify(msg.id)} ignored`);
      return;
    }
    pending.delete(msg.id);
    if ('error' in msg) {
      const e = msg.error || {};
      const err = new Error(`${entry.method}: ${e.message || 'error'} (${e.code})`);
      err.code = e.code;
      err.data = e.data;
      entry.reject(err);
    } else {
      entry.resolve(msg.result);
    }
  }

  function handleLine(line) {
    if (line.trim() === '') return;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      replyError(null, { code: -32700, message: 'parse error' });
      return;
    }
    if (!isPlainObject(msg) || msg.jsonrpc !== '2.0') {
      const id = isPlainObject(msg) && (Number.isInteger(msg.id) || msg.id === null) ? msg.id : null;
      replyError(id, { code: -32600, message: 'invalid request' });
      return;
    }
    const hasId = 'id' in msg;
    const isResponse = hasId && !('method' in msg);
    if (isResponse) {
      // A response carries exactly one of result/error.
      if ('result' in msg === 'error' in msg || 'params' in msg) {
        replyError(null, { code: -32600, message: 'invalid response' });
        return;
      }
      settle(msg);
      return;
    }
    if (typeof msg.method !== 'string' || 'result' in msg || 'error' in msg) {
      replyError(hasId && Number.isInteger(msg.id) ? msg.id : null, { code: -32600, message: 'invalid request' });
      return;
    }
    // Like the SDK, accept only integer (or null) request ids and object params.
    if (hasId && !(Number.isInteger(msg.id) || msg.id === null)) {
      replyError(null, { code: -32600, message: 'request id must be an integer' });
      return;
    }
    if ('params' in msg && !isPlainObject(msg.params)) {
      replyError(hasId ? msg.id : null, { code: -32600, message: 'params must be an object' });
      return;
    }
    if (!('params' in msg)) msg.params = {};
    if (hasId) serveRequest(msg);
    else serveNotification(msg);
  }

  function close(reason) {
    if (closed) return;
    closed = true;
    for (const [, entry] of pending) entry.reject(new Error(`connection closed (${reason})`));
    pending.clear();
    onClose(reason);
  }

  function start() {
    // Only newly arrived text is searched for the newline, and a line that spans chunks is joined
    // once: no rescan (and re-flattening) of the text already searched, no byte count of it again.
    let head = ''; // the current line's text received so far
    let headBytes = 0; // its UTF-8 size
    input.setEncoding('utf8');
    input.on('data', (text) => {
      let start = 0;
      let nl;
      while ((nl = text.indexOf('\n', start)) !== -1) {
        let line = head + text.slice(start, nl);
        if (line.endsWith('\r')) line = line.slice(0, -1);
        head = '';
        headBytes = 0;
        start = nl + 1;
        handleLine(line);
      }
      if (start < text.length) {
        const rest = start === 0 ? text : text.slice(start);
        head += rest;
        headBytes += Buffer.byteLength(rest);
      }
      if (headBytes >= FRAME_BYTES) {
        // The SDK stops serving on an oversized line; so do we.
        log('incoming frame over the 8 MiB limit; closing');
        close('frame_too_large');
      }
    });
    input.on('end', () => close('eof'));
    input.on('error', (err) => close(`stdin error: ${err.message}`));
  }

  return {
    PROTOCOL_ID,
    PROTOCOL_MAJOR,
    start,
    onRequest(method, handler) {
      requestHandlers.set(method, handler);
    },
    onNotification(method, handler) {
      notificationHandlers.set(method, handler);
    },
    /** Calls the host; resolves with its result, rejects with its error. */
    request(method, params) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject, method });
        try {
          if (!write({ jsonrpc: '2.0', id, method, params })) throw new Error('connection closed');
        } catch (err) {
          pending.delete(id);
          reject(err);
        }
      });
    },
    notify(method, params) {
      write({ jsonrpc: '2.0', method, params });
    },
    get ready() {
      return ready;
    },
    /** Ends the process once everything written so far has reached the pipe. */
    exit(code = 0) {
      closed = true;
      output.write('', () => process.exit(code));
    },
  };
}

module.exports = { createConnection, RpcError, PROTOCOL_ID, PROTOCOL_MAJOR, FRAME_BYTES };
