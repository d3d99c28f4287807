// Issue 45 item 7: a tool call's arguments are checked against the tool's inputSchema before they
// reach the sidecar (ajv, compiled once per schema), the model reads a clear error naming the tool
// and the first problems, and arguments nested past MAX_TOOL_ARGUMENT_DEPTH are refused with a clear
// error instead of "Maximum call stack size exceeded". Every caller: MCP (the SDK's client, and raw
// lines for what it cannot send), the CLI's `tool`. Real sidecars; the recorder proves the sidecar
// never saw a refused call.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MAX_TOOL_ARGUMENT_DEPTH } from '../../../src/host/tools';
import { pluginFolderV2 } from '../../support/plugins';
import { RawMcp } from './mcpRaw';
import { CLI, REPO, runCli, tempDir } from './support';

const TOOLS_JS = join(REPO, 'test', 'fixtures', 'tools', 'tools.js');
const STRICT = {
  type: 'object',
  properties: { text: { type: 'string' }, n: { type: 'integer', minimum: 1 }, tags: { type: 'array' } },
  required: ['text'],
  additionalProperties: false,
};
/** ajv cannot resolve a remote $ref offline: the schema does not compile. */
const UNCOMPILABLE = { type: 'object', properties: { a: { $ref: 'https://schemas.example.com/a.json' } } };

const nested = (levels: number): Record<string, unknown> => {
  let v: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) v = { v };
  return v;
};

describe('tool arguments against the input schema and the depth limit (issue 45 item 7)', function () {
  this.timeout(30_000);
  let tmp: ReturnType<typeof tempDir>;
  let client: Client | undefined;
  let raw: RawMcp | undefined;
  let stderr = '';
  beforeEach(() => (tmp = tempDir('args')));
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await raw?.close();
    raw = undefined;
    stderr = '';
    tmp.cleanup();
  });

  const plugin = () =>
    pluginFolderV2(join(tmp.dir, 'strict'), 'strict', {
      command: process.execPath,
      args: [TOOLS_JS],
      capabilities: ['tools'],
      tools: [
        { name: 'echo', description: 'echoes', inputSchema: STRICT },
        { name: 'loose', description: 'echoes', inputSchema: UNCOMPILABLE },
        { name: 'any', description: 'echoes', inputSchema: { type: 'object' } },
      ],
      env: { TOOLS_RECORD: join(tmp.dir, 'calls.jsonl'), REASONIX_PLUGIN_NAME: 'strict' },
    });
  const received = () =>
    existsSync(join(tmp.dir, 'calls.jsonl'))
      ? readFileSync(join(tmp.dir, 'calls.jsonl'), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => (JSON.parse(l) as { params: { name: string; arguments: unknown } }).params)
      : [];

  const connect = async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--plugin', plugin(), '--workspace', tmp.dir],
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    client = new Client({ name: 'args-test', version: '1.0.0' });
    await client.connect(transport);
    return client;
  };

  it('refuses wrong types, a missing required member and an extra member, naming the tool and the problems; the sidecar never sees them', async () => {
    const c = await connect();
    const refused = async (args: Record<string, unknown>, problem: RegExp) =>
      assert.rejects(c.callTool({ name: 'ext__strict__echo', arguments: args }), (err: Error & { code?: number }) => {
        assert.equal(err.code, -32602);
        assert.match(err.message, /the arguments of ext__strict__echo do not match its input schema: /);
        assert.match(err.message, problem);
        assert.match(err.message, /\[invalid_params\]/);
        return true;
      });
    await refused({ text: 5 }, /arguments\/text: must be string/);
    await refused({ n: 2 }, /arguments: missing required member "text"/);
    await refused({ text: 'a', extra: true }, /arguments: member "extra" is not allowed/);
    await refused({ text: 'a', n: 0 }, /arguments\/n: must be >= 1/);
    // Every problem is counted, the first three are named.
    await refused({ text: 1, n: 'x', tags: {}, a: 1, b: 2 }, /; and \d+ more/);
    assert.deepEqual(received(), [], 'no refused call reached the sidecar');
    const ok = await c.callTool({ name: 'ext__strict__echo', arguments: { text: 'a b', n: 2 } });
    assert.deepEqual(ok.content, [{ type: 'text', text: '{"text":"a b","n":2}' }]);
    assert.equal(received().length, 1);
  });

  it('a schema ajv cannot compile: the arguments go unchecked, the log says so once, and check warns', async () => {
    const c = await connect();
    for (let i = 0; i < 2; i++) {
      const r = await c.callTool({ name: 'ext__strict__loose', arguments: { a: i } });
      assert.deepEqual(r.content, [{ type: 'text', text: JSON.stringify({ a: i }) }]);
    }
    const notes = stderr.match(/the input schema of tool ext__strict__loose \(extension strict\) cannot be compiled/g);
    assert.equal(notes?.length, 1, stderr);
    assert.match(stderr, /its arguments go to the extension unchecked/);
    const check = await runCli(['check', join(tmp.dir, 'strict'), '--json']);
    const report = JSON.parse(check.stdout) as { ok: boolean; warnings: { message: string }[] };
    assert.equal(report.ok, true, check.stdout);
    assert.match(report.warnings.map((w) => w.message).join('\n'), /the input schema of tool loose cannot be compiled/);
  });

  it(`arguments nested past ${MAX_TOOL_ARGUMENT_DEPTH} levels are refused with a clear error, also 100,000 levels deep`, async () => {
    raw = new RawMcp([plugin()], tmp.dir);
    await raw.initialize();
    const call = (id: number, args: unknown) =>
      raw!.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ext__strict__any', arguments: args } });
    call(1, nested(MAX_TOOL_ARGUMENT_DEPTH));
    const fits = await raw.answer(1);
    assert.equal((fits.result as { isError: boolean }).isError, false, JSON.stringify(fits));
    // Built as text: JSON.stringify itself overflows on such a value.
    for (const [id, levels] of [
      [2, MAX_TOOL_ARGUMENT_DEPTH + 1],
      [3, 100_000],
    ]) {
      raw.send(
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"ext__strict__any","arguments":${'{"v":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}}}`,
      );
      const deep = await raw.answer(id);
      const err = deep.error as { code: number; message: string };
      assert.equal(err.code, -32602, JSON.stringify(deep));
      assert.match(
        err.message,
        new RegExp(`the arguments of ext__strict__any nest more than ${MAX_TOOL_ARGUMENT_DEPTH} levels`),
      );
    }
    assert.doesNotMatch(raw.stderr, /Maximum call stack|RangeError/);
    assert.equal(received().length, 1, 'only the call within the limit reached the sidecar');
  });

  it('the CLI `tool` checks the same way', async () => {
    const dir = plugin();
    const bad = await runCli([
      'tool',
      'strict',
      'echo',
      '--args',
      '{"text":5}',
      '--plugin',
      dir,
      '--workspace',
      tmp.dir,
    ]);
    assert.notEqual(bad.code, 0);
    assert.match(
      bad.stdout + bad.stderr,
      /the arguments of ext__strict__echo do not match its input schema: arguments\/text: must be string/,
    );
    const deep = await runCli([
      'tool',
      'strict',
      'any',
      '--args',
      JSON.stringify(nested(MAX_TOOL_ARGUMENT_DEPTH + 1)),
      '--plugin',
      dir,
      '--workspace',
      tmp.dir,
    ]);
    assert.notEqual(deep.code, 0);
    assert.match(deep.stdout + deep.stderr, /nest more than 64 levels/);
    assert.deepEqual(received(), []);
  });
});
