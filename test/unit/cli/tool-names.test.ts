// Issue 45 item 1: one model-facing name, one tool. Plugin ids and tool names may both contain `__`,
// so plugin `a` with tool `x__y` and plugin `a__x` with tool `y` are both `ext__a__x__y`; a `.` in a
// plugin id or a name past 64 characters is no tool name a model accepts. Such tools are withheld
// (every tool sharing the name, so neither shadows the other), and `check` reports them. Real
// sidecars, driven through `reasonix-host mcp` by the MCP SDK's client and through the CLI.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { pluginFolderV2 } from '../../support/plugins';
import { CLI, REPO, runCli, tempDir } from './support';

const TOOLS_JS = join(REPO, 'test', 'fixtures', 'tools', 'tools.js');
const tool = (name: string) => ({
  name,
  description: `the ${name} tool`,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
});
const LONG_ID = 'p'.repeat(58); // ext__ + 58 + __ + t = 66 characters

describe('model-facing tool names: no tool shadows another (issue 45 item 1)', function () {
  this.timeout(30_000);
  let tmp: ReturnType<typeof tempDir>;
  let client: Client | undefined;
  beforeEach(() => (tmp = tempDir('names')));
  afterEach(async () => {
    await client?.close();
    client = undefined;
    tmp.cleanup();
  });

  const plugin = (id: string, tools: string[]) =>
    pluginFolderV2(join(tmp.dir, id), id, {
      command: process.execPath,
      args: [TOOLS_JS],
      capabilities: ['tools'],
      tools: tools.map(tool),
      env: { REASONIX_PLUGIN_NAME: id },
    });

  const connect = async (plugins: string[]) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', ...plugins.flatMap((p) => ['--plugin', p]), '--workspace', tmp.dir],
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    client = new Client({ name: 'names-test', version: '1.0.0' });
    await client.connect(transport);
    return { c: client, stderr: () => stderr };
  };

  it('withholds both tools of a shared name, a name with a dot and a name past 64 characters; the rest are served', async () => {
    const { c } = await connect([
      plugin('a', ['x__y', 'echo']),
      plugin('a__x', ['y']),
      plugin('dot.ted', ['t']),
      plugin(LONG_ID, ['t']),
    ]);
    const { tools } = await c.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['ext__a__echo'],
    );
    for (const t of tools) assert.match(t.name, /^[A-Za-z0-9_-]{1,64}$/);
    await assert.rejects(c.callTool({ name: 'ext__a__x__y', arguments: {} }), (err: Error) => {
      assert.match(err.message, /extensions a \(tool x__y\) and a__x \(tool y\) both give the name ext__a__x__y/);
      assert.match(err.message, /\[not_offered\]/);
      return true;
    });
    await assert.rejects(
      c.callTool({ name: 'ext__dot.ted__t', arguments: {} }),
      /its name ext__dot\.ted__t \(15 characters\) is not 1 to 64 letters, digits, '_' or '-'/,
    );
    await assert.rejects(
      c.callTool({ name: `ext__${LONG_ID}__t`, arguments: {} }),
      /\(66 characters\) is not 1 to 64 letters/,
    );
    const ok = await c.callTool({ name: 'ext__a__echo', arguments: { text: 'hi' } });
    assert.deepEqual(ok.content, [{ type: 'text', text: '{"text":"hi"}' }]);
  });

  it('the CLI `tool` and `tools` follow the same rule', async () => {
    const a = plugin('a', ['x__y']);
    const ax = plugin('a__x', ['y']);
    const listed = await runCli(['tools', '--plugin', a, '--plugin', ax, '--workspace', tmp.dir, '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual((JSON.parse(listed.stdout) as { tools: unknown[] }).tools, []);
    const called = await runCli(['tool', 'a__x', 'y', '--plugin', a, '--plugin', ax, '--workspace', tmp.dir, '--json']);
    assert.notEqual(called.code, 0);
    assert.match(called.stdout + called.stderr, /both give the name ext__a__x__y/);
  });

  it('`check` reports a tool the folder would withhold, naming both plugins', async () => {
    const a = plugin('a', ['x__y']);
    const ax = plugin('a__x', ['y']);
    const r = await runCli(['check', a, '--with', ax, '--json']);
    assert.equal(r.code, 1, r.stdout);
    const report = JSON.parse(r.stdout) as { ok: boolean; violations: { message: string }[] };
    assert.equal(report.ok, false);
    assert.match(report.violations[0].message, /extensions a \(tool x__y\) and a__x \(tool y\) both give the name/);
    const alone = await runCli(['check', a, '--json']);
    assert.equal(alone.code, 0, alone.stdout);
    const dotted = await runCli(['check', plugin('dot.ted', ['t']), '--json']);
    assert.equal(dotted.code, 1, dotted.stdout);
    assert.match(dotted.stdout, /its name ext__dot\.ted__t \(15 characters\) is not 1 to 64/);
  });
});
