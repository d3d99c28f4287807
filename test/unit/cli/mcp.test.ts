// `reasonix-host mcp` against the official MCP SDK client as an independent peer (issue 24): the
// client spawns the CLI over stdio; the tools are the showcase's and the tool fixtures' (real
// sidecars): list, call, a tool error, a refusal, a protocol error, a cancelled call, a crash
// mid-call with the list change, 100 concurrent calls.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { pluginFolderV2 } from '../../support/plugins';
import { waitFor } from '../../support/wait';
import { CLI, REPO, SHOWCASE, tempDir } from './support';

const FIXTURES = join(REPO, 'test', 'fixtures', 'tools');
const tool = (name: string, readOnly = false) => ({
  name,
  description: `the ${name} tool`,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  readOnly,
});

describe('reasonix-host mcp: the MCP SDK client as the peer', function () {
  this.timeout(30_000);
  let tmp: ReturnType<typeof tempDir>;
  let client: Client | undefined;
  let stderr = '';
  beforeEach(() => (tmp = tempDir('mcp')));
  afterEach(async () => {
    await client?.close();
    client = undefined;
    stderr = '';
    tmp.cleanup();
  });

  const fixture = (name: string, script: string, tools: ReturnType<typeof tool>[], env: Record<string, string> = {}) =>
    pluginFolderV2(join(tmp.dir, name), name, {
      command: process.execPath,
      args: [join(FIXTURES, script)],
      capabilities: ['tools'],
      tools,
      env: { TOOLS_RECORD: join(tmp.dir, 'calls.jsonl'), ...env },
    });

  const connect = async (plugins: string[]) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', ...plugins.flatMap((p) => ['--plugin', p]), '--workspace', tmp.dir],
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    client = new Client({ name: 'mcp-test', version: '1.0.0' });
    await client.connect(transport);
    return client;
  };
  const calls = () =>
    existsSync(join(tmp.dir, 'calls.jsonl'))
      ? readFileSync(join(tmp.dir, 'calls.jsonl'), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { kind: string; inFlight?: number; params?: unknown })
      : [];

  it('lists each tool as ext__<plugin>__<tool> with its description, schema and read-only hint; a call returns the text', async () => {
    const c = await connect([SHOWCASE]);
    assert.equal(c.getServerVersion()?.name, 'reasonix');
    const { tools } = await c.listTools();
    assert.deepEqual(
      tools.map((t) => [t.name, t.annotations?.readOnlyHint]),
      [
        ['ext__showcase__count_words', true],
        ['ext__showcase__add_note', false],
      ],
    );
    assert.match(String(tools[0].description), /^Count the words in a text/);
    assert.deepEqual(tools[0].inputSchema.required, ['text']);
    const r = await c.callTool({ name: 'ext__showcase__count_words', arguments: { text: 'one two' } });
    assert.deepEqual(r.content, [{ type: 'text', text: '2 words; the longest is "one"' }]);
    assert.equal(r.isError, false);
  });

  it('a tool’s own failure and an interceptor’s refusal are tool errors; a call that cannot run is an MCP error naming the extension', async () => {
    const c = await connect([SHOWCASE, fixture('counter', 'tools.js', [tool('fails'), tool('refuses'), tool('echo')])]);
    const own = await c.callTool({ name: 'ext__counter__fails', arguments: {} });
    assert.deepEqual([own.isError, own.content], [true, [{ type: 'text', text: 'no key' }]]);
    // The showcase's tool.before refuses any tool whose arguments carry its marker.
    const refused = await c.callTool({ name: 'ext__counter__echo', arguments: { text: '[showcase:block-tool]' } });
    assert.equal(refused.isError, true);
    assert.match(
      (refused.content as { text: string }[])[0].text,
      /Reasonix extension "showcase" blocked ext__counter__echo: .*\[showcase:block-tool\]/,
    );
    await assert.rejects(
      c.callTool({ name: 'ext__counter__refuses', arguments: {} }),
      (err: Error & { code?: number }) => {
        assert.match(
          err.message,
          /extension counter could not run tool refuses \(JSON-RPC error -32601\).*\[extension_error\]/,
        );
        assert.equal(err.code, -32603);
        return true;
      },
    );
    await assert.rejects(c.callTool({ name: 'ext__nobody__x', arguments: {} }), /not_offered/);
    assert.equal(calls().filter((x) => x.kind === 'tool/call').length, 2, 'the refused call never reached the tool');
  });

  it('a call the client cancels is abandoned (its late answer ignored); a crash mid-call fails the call and the list changes', async () => {
    const c = await connect([
      fixture('slowpoke', 'never-answers.js', [tool('wait')], { TOOLS_LATE_MS: '600' }),
      fixture('fragile', 'crashes-mid-call.js', [tool('boom')]),
    ]);
    let changed = 0;
    c.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 150);
    const t0 = Date.now();
    await assert.rejects(c.callTool({ name: 'ext__slowpoke__wait', arguments: {} }, undefined, { signal: ac.signal }));
    assert.ok(Date.now() - t0 < 2_000);
    await waitFor(() => calls().some((x) => x.kind === 'late answer'), { timeoutMs: 5_000, what: 'the late answer' });
    await assert.rejects(c.callTool({ name: 'ext__fragile__boom', arguments: {} }), /provider_interrupted/);
    await waitFor(() => changed > 0, { timeoutMs: 5_000, what: 'tools/list_changed' });
    const { tools } = await c.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['ext__slowpoke__wait'],
    );
    assert.doesNotMatch(stderr, /unhandled|TypeError/i);
  });

  it('100 concurrent calls all complete, at most 8 in flight at the sidecar', async () => {
    const c = await connect([fixture('busy', 'slow.js', [tool('echo')], { TOOLS_DELAY_MS: '20' })]);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => c.callTool({ name: 'ext__busy__echo', arguments: { i } })),
    );
    results.forEach((r, i) => assert.deepEqual(r.content, [{ type: 'text', text: JSON.stringify({ i }) }]));
    const starts = calls().filter((x) => x.kind === 'start');
    assert.equal(starts.length, 100);
    assert.equal(Math.max(...starts.map((s) => Number(s.inFlight))), 8);
  });
});
