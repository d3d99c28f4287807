#!/usr/bin/env node
// {{name}}: a Reasonix extension (protocol v2). It speaks JSON-RPC 2.0 with the host, one JSON
// object per line on stdin and stdout; anything for people goes to stderr (the host logs it).
// It publishes one card when the host says it is ready and serves one tool, `greet`.
'use strict';
const readline = require('node:readline');

const NAME = '{{name}}';
const VERSION = '0.1.0';
const TOOLS = ['greet'];

const log = (msg) => process.stderr.write(`[${NAME}] ${msg}\n`);
const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const fail = (id, code, message, reason) =>
  send({ jsonrpc: '2.0', id, error: { code, message, data: { reason, retryable: false } } });

let session; // {sessionId, workspaceRoot, generation}: echoed on every call to the host
let nextId = 1; // our own request ids

/** host/ui/publish, a request to the host; its answer arrives as a response line. */
function publishCard() {
  const { sessionId, generation } = session;
  const payload = {
    title: NAME,
    markdown: 'Hello from **{{name}}**. Edit `sidecar.js` and save: the host restarts it.',
    fields: [{ key: 'Generation', value: String(generation) }],
  };
  send({
    jsonrpc: '2.0',
    id: nextId++,
    method: 'host/ui/publish',
    params: { surfaceId: 'hello', sessionId, generation, kind: 'card', payload },
  });
}

const tools = {
  greet(args) {
    if (typeof args.name !== 'string' || !args.name.trim()) return { content: 'greet needs a name', isError: true };
    return { content: `Hello, ${args.name.trim()}!` };
  },
};

const requests = {
  'extension/initialize'(params) {
    session = params.session;
    // Serve the tools the manifest declares that this sidecar implements.
    const declared = (params.manifest && params.manifest.tools) || [];
    return {
      name: NAME,
      version: VERSION,
      protocolVersion: '2',
      stateSchemaVersion: 0,
      tools: declared.filter((t) => TOOLS.includes(t)),
    };
  },
  'extension/tool/call'(params) {
    const tool = tools[params.name];
    if (!tool)
      throw Object.assign(new Error(`unknown tool ${params.name}`), { code: -32601, reason: 'unknown_method' });
    return tool(params.arguments || {});
  },
  'extension/shutdown'() {
    setImmediate(() => process.stdout.write('', () => process.exit(0)));
    return { accepted: true };
  },
};

const notifications = {
  'extension/initialized'() {
    log('ready');
    publishCard();
  },
};

readline.createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  if (!line.trim()) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return log(`not JSON: ${line.slice(0, 80)}`);
  }
  if (!msg || typeof msg !== 'object' || !('method' in msg)) return; // an answer to our publish
  const params = msg.params && typeof msg.params === 'object' ? msg.params : {};
  if (!('id' in msg)) return notifications[msg.method] && notifications[msg.method](params);
  const handler = requests[msg.method];
  if (!handler) return fail(msg.id, -32601, `method not found: ${msg.method}`, 'unknown_method');
  try {
    send({ jsonrpc: '2.0', id: msg.id, result: handler(params) });
  } catch (err) {
    fail(msg.id, err.code || -32603, err.message, err.reason || 'internal');
  }
});
process.stdin.on('end', () => process.exit(0));
