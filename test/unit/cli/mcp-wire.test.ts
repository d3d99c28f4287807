// Issue 45 item 3: the wire of the MCP server people run, `reasonix-host mcp`, spoken to line by line
// (test/unit/cli/mcpRaw.ts) as no SDK client would: a non-JSON line, params that are not an object,
// ids past 2^53, batches under 2025-03-26, a 64 MiB line, a client that closes our stdout. Each gets
// its documented answer (src/host/mcp/stdioTransport.ts, docs/cli.md) and the session goes on.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { pluginFolderV2 } from '../../support/plugins';
import { RawMcp } from './mcpRaw';
import { REPO, tempDir } from './support';

const TOOLS_JS = join(REPO, 'test', 'fixtures', 'tools', 'tools.js');

describe('reasonix-host mcp: its wire answers what clients get wrong (issue 45 item 3)', function () {
  this.timeout(60_000);
  let tmp: ReturnType<typeof tempDir>;
  let raw: RawMcp | undefined;
  beforeEach(() => (tmp = tempDir('mcp-wire')));
  afterEach(async () => {
    await raw?.close();
    raw = undefined;
    tmp.cleanup();
  });

  const start = async (protocolVersion?: string) => {
    const dir = pluginFolderV2(join(tmp.dir, 'echoer'), 'echoer', {
      command: process.execPath,
      args: [TOOLS_JS],
      capabilities: ['tools'],
      tools: [{ name: 'echo', description: 'echoes', inputSchema: { type: 'object' } }],
    });
    raw = new RawMcp([dir], tmp.dir);
    await raw.initialize(protocolVersion);
    return raw;
  };
  const listTools = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
  const echo = (id: number | string, args: unknown = { a: 1 }) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'ext__echoer__echo', arguments: args },
  });
  const alive = async (r: RawMcp, id: number) => {
    r.send(listTools(id));
    const a = await r.answer(id);
    assert.equal((a.result as { tools: { name: string }[] }).tools[0].name, 'ext__echoer__echo');
  };

  it('a line that is not JSON gets -32700 with id null, and the session goes on', async () => {
    const r = await start();
    const from = r.lines.length;
    r.send('this is not json {');
    const line = await r.next(() => true, from);
    assert.deepEqual(JSON.parse(line), {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the line is not JSON' },
    });
    await alive(r, 1);
  });

  it('a tools/call whose params is not an object is answered with its id: -32600 for a string, -32602 for an array', async () => {
    const r = await start();
    r.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: 'ext__echoer__echo' });
    const a = await r.answer(7);
    assert.equal((a.error as { code: number }).code, -32600);
    assert.match((a.error as { message: string }).message, /params must be an object/);
    r.send({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: ['ext__echoer__echo'] });
    const b = await r.answer(8);
    assert.equal((b.error as { code: number }).code, -32602);
    r.send({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: 5 });
    assert.equal(((await r.answer(9)).error as { code: number }).code, -32600);
    await alive(r, 10);
  });

  it('an integer id past 2^53 is served and answered with the id exactly as written', async () => {
    const r = await start();
    for (const id of ['9007199254740993', '-9223372036854775808', '123456789012345678901234567890']) {
      const from = r.lines.length;
      r.send(
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"ext__echoer__echo","arguments":{"a":1}}}`,
      );
      const line = await r.next((l) => l.startsWith(`{"jsonrpc":"2.0","id":${id},`), from, `the answer to ${id}`);
      assert.deepEqual((JSON.parse(line) as { result: unknown }).result, {
        content: [{ type: 'text', text: '{"a":1}' }],
        isError: false,
      });
    }
    // A fractional id is no JSON-RPC id: refused, not rounded onto another request's.
    const from = r.lines.length;
    r.send('{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}');
    const bad = JSON.parse(await r.next(() => true, from)) as { id: unknown; error: { code: number } };
    assert.deepEqual([bad.id, bad.error.code], [null, -32600]);
  });

  it('batches under 2025-03-26: one array of answers, in any order; none for notifications; -32600 for []', async () => {
    const r = await start('2025-03-26');
    let from = r.lines.length;
    r.send([
      listTools(1),
      echo(2),
      { jsonrpc: '2.0', method: 'notifications/progress', params: {} },
      'junk',
      echo(3, 4),
    ]);
    const line = await r.next(() => true, from, 'the batch answer');
    const answers = JSON.parse(line) as { id: unknown; result?: unknown; error?: { code: number } }[];
    assert.ok(Array.isArray(answers), line);
    const byId = new Map(answers.map((a) => [a.id, a]));
    assert.equal(answers.length, 4, line);
    assert.ok(byId.get(1)?.result);
    assert.deepEqual((byId.get(2)?.result as { content: unknown }).content, [{ type: 'text', text: '{"a":1}' }]);
    assert.ok(byId.get(3)?.error, 'arguments 4 are not an object');
    assert.equal(byId.get(null)?.error?.code, -32600, 'the junk member');
    from = r.lines.length;
    r.send([{ jsonrpc: '2.0', method: 'notifications/progress', params: {} }]);
    r.send([]);
    const empty = JSON.parse(await r.next(() => true, from)) as { id: unknown; error: { code: number } };
    assert.deepEqual([empty.id, empty.error.code], [null, -32600], 'a batch of notifications got no answer line');
    await alive(r, 4);
  });

  it('a 64 MiB line is skipped as it streams in: an error answer with its id, one line on stderr, the session goes on', async () => {
    const r = await start();
    const from = r.lines.length;
    const head =
      '{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"ext__echoer__echo","arguments":{"a":"';
    const chunk = 'x'.repeat(1024 * 1024);
    await new Promise<void>((done) => {
      let i = 0;
      const pump = () => {
        while (i < 64) {
          i++;
          if (!r.child.stdin.write(i === 1 ? head + chunk : chunk)) return void r.child.stdin.once('drain', pump);
        }
        r.child.stdin.write('"}}}\n');
        done();
      };
      pump();
    });
    const a = await r.answer(42, from, 30_000);
    assert.equal((a.error as { code: number }).code, -32600);
    assert.match((a.error as { message: string }).message, /the message is 64\.\d MiB, more than the 8\.0 MiB/);
    assert.match(r.stderr, /reasonix-host mcp: skipped a 64\.\d MiB message from the MCP client \(id 42\)/);
    await alive(r, 43);
  });

  it('a client that closes our stdout: the server stops quietly (exit 0, no trace) and leaves no sidecar', async () => {
    const r = await start();
    r.child.stdout.destroy();
    r.send(listTools(1));
    r.send(listTools(2));
    const exit = await Promise.race([
      r.exited,
      new Promise<'hung'>((done) => setTimeout(() => done('hung'), 15_000).unref()),
    ]);
    assert.deepEqual(exit, { code: 0, signal: null }, r.stderr);
    assert.doesNotMatch(r.stderr, /EPIPE|Error:|at .*\.js:\d+/);
    assert.match(r.stderr, /the MCP client closed the connection it reads answers from; stopping/);
  });

  it('a sidecar answer that names the call but cannot be used fails the MCP call at once, not after 300 s', async () => {
    const dir = pluginFolderV2(join(tmp.dir, 'garbler'), 'garbler', {
      command: process.execPath,
      args: [join(REPO, 'test', 'fixtures', 'tools', 'unusable-answers.js')],
      capabilities: ['tools'],
      tools: ['no-jsonrpc', 'both', 'string-id', 'bad-error'].map((name) => ({
        name,
        description: 'answers badly',
        inputSchema: { type: 'object' },
      })),
      env: { TOOLS_LATE_MS: '30000' },
    });
    raw = new RawMcp([dir], tmp.dir);
    await raw.initialize();
    const problems: Record<string, RegExp> = {
      'no-jsonrpc': /\(not JSON-RPC 2\.0\)/,
      both: /\(both result and error\)/,
      'string-id': /\(a string id\)/,
      'bad-error': /\(a malformed error\)/,
    };
    let id = 100;
    for (const [name, problem] of Object.entries(problems)) {
      const t0 = Date.now();
      raw.send({
        jsonrpc: '2.0',
        id: ++id,
        method: 'tools/call',
        params: { name: `ext__garbler__${name}`, arguments: {} },
      });
      const a = await raw.answer(id, 0, 5_000);
      const err = a.error as { code: number; message: string };
      assert.ok(Date.now() - t0 < 5_000);
      assert.match(err.message, new RegExp(`extension garbler answered tool ${name} with an invalid result`));
      assert.match(err.message, problem);
      assert.match(err.message, /\[protocol_error\]/);
    }
  });
});
