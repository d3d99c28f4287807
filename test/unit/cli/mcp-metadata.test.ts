// Issue 45 items 8 and 9 through `reasonix-host mcp`, spoken to by the MCP SDK's client (real
// sidecars). Item 8: what the host authors or relays as metadata to MCP clients (tool descriptions,
// titles, the input schema's descriptions, our error texts) shows ESC, C1, bidi and zero-width
// characters visibly; a result's content is the tool's answer and passes unchanged (docs/cli.md).
// Item 9: one rule for credentials: text that reports a failure is redacted whatever its shape (a
// JSON-RPC error or an `isError: true` result); a successful result is product data, unchanged.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { pluginFolderV2 } from '../../support/plugins';
import { CLI, REPO, tempDir } from './support';

const TOOLS_JS = join(REPO, 'test', 'fixtures', 'tools', 'tools.js');
// eslint-disable-next-line no-control-regex -- the characters under test
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/;
const HOSTILE = 'Counts\u001b[2J words\u009b31m,\u202e reversed\u200b and\u2066 isolated\ufeff.\nSecond line.';

describe('reasonix-host mcp: metadata shown safely, one rule for secrets (issue 45 items 8, 9)', function () {
  this.timeout(30_000);
  let tmp: ReturnType<typeof tempDir>;
  let client: Client | undefined;
  beforeEach(() => (tmp = tempDir('mcp-meta')));
  afterEach(async () => {
    await client?.close();
    client = undefined;
    tmp.cleanup();
  });

  const connect = async () => {
    const dir = pluginFolderV2(join(tmp.dir, 'loud'), 'loud', {
      command: process.execPath,
      args: [TOOLS_JS],
      capabilities: ['tools'],
      tools: [
        {
          name: 'hostile',
          description: HOSTILE,
          inputSchema: {
            type: 'object',
            properties: { text: { type: 'string', description: 'the\u001b]0;pwned\u0007 text', pattern: '^\u200b?' } },
          },
        },
        { name: 'leaks', description: 'leaks', inputSchema: { type: 'object' } },
        { name: 'refuses', description: 'fails with a JSON-RPC error', inputSchema: { type: 'object' } },
      ],
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--plugin', dir, '--workspace', tmp.dir],
      stderr: 'pipe',
    });
    client = new Client({ name: 'meta-test', version: '1.0.0' });
    await client.connect(transport);
    return client;
  };

  it('descriptions, titles and schema descriptions show unsafe characters visibly; newlines and schema patterns stay', async () => {
    const c = await connect();
    const { tools } = await c.listTools();
    const t = tools.find((x) => x.name === 'ext__loud__hostile')!;
    assert.equal(
      t.description,
      'Counts\\u001b[2J words\\u009b31m,\\u202e reversed\\u200b and\\u2066 isolated\\ufeff.\nSecond line.',
    );
    for (const x of tools) {
      assert.doesNotMatch(String(x.description), UNSAFE);
      assert.doesNotMatch(String(x.annotations?.title), UNSAFE);
    }
    const prop = (t.inputSchema.properties as Record<string, { description: string; pattern: string }>).text;
    assert.equal(prop.description, 'the\\u001b]0;pwned\\u0007 text');
    assert.equal(prop.pattern, '^\u200b?', 'what arguments are checked against is not changed');
  });

  it('our error texts show them visibly; a result’s content passes unchanged', async () => {
    const c = await connect();
    await assert.rejects(c.callTool({ name: 'ext__loud__hostile', arguments: {} }), (err: Error) => {
      assert.match(err.message, /extension loud could not run tool hostile \(JSON-RPC error -32000\)/);
      assert.match(err.message, /red\\u001b\[31m text\\u009b2J \\u202eevil\\u200b/);
      assert.doesNotMatch(err.message, UNSAFE);
      return true;
    });
    const ok = await c.callTool({ name: 'ext__loud__leaks', arguments: {} });
    assert.deepEqual(ok.content, [{ type: 'text', text: 'config api_key=sk-live-abcdef0123456789XYZ \u001b[2J' }]);
  });

  it('a secret is redacted in every failure shape (JSON-RPC error, isError result) and left in a successful result', async () => {
    const c = await connect();
    const failed = await c.callTool({ name: 'ext__loud__leaks', arguments: { isError: true } });
    assert.equal(failed.isError, true);
    assert.deepEqual(failed.content, [{ type: 'text', text: 'config api_key=[REDACTED] \u001b[2J' }]);
    const ok = await c.callTool({ name: 'ext__loud__leaks', arguments: { isError: false } });
    assert.match((ok.content as { text: string }[])[0].text, /sk-live-abcdef0123456789XYZ/);
    await assert.rejects(c.callTool({ name: 'ext__loud__refuses', arguments: {} }), (err: Error) => {
      assert.match(err.message, /no such tool here api_key=\[REDACTED\]/);
      assert.doesNotMatch(err.message, /sk-live/);
      return true;
    });
  });
});
