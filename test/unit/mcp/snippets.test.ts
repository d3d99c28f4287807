// Reasonix: Copy MCP Server Configuration… puts these on the clipboard (src/vscode/mcp/snippets.ts).
// Each snippet is proved by doing what it says: the JSON one is launched as an MCP client would
// launch it (the official SDK client, the command, args and env exactly as written) and serves the
// installed showcase's tools; the shell command's words survive a real shell.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mcpSnippet, shellWord, type McpCommandLine } from '../../../src/vscode/mcp/snippets';
import { CLI, SHOWCASE, tempDir } from '../cli/support';

describe('MCP server configuration snippets (Copy MCP Server Configuration…)', function () {
  this.timeout(30_000);
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir('mcp-snippets')));
  afterEach(() => tmp.cleanup());

  const line = (folder: string): McpCommandLine => ({
    command: process.execPath,
    args: [CLI, 'mcp', '--workspace', folder],
    env: { ELECTRON_RUN_AS_NODE: '1' },
  });

  it('the JSON snippet, launched as written, is a working MCP server over the installed extensions', async () => {
    const home = join(tmp.dir, 'home');
    const folder = join(tmp.dir, 'my project');
    mkdirSync(home);
    mkdirSync(folder);
    writeFileSync(
      join(home, 'plugin-packages.json'),
      JSON.stringify({
        version: 1,
        plugins: [{ name: 'showcase', root: SHOWCASE, version: '0.2.0', manifestKind: 'reasonix', enabled: true }],
      }),
    );
    const doc = JSON.parse(mcpSnippet('json', line(folder))) as {
      mcpServers: { reasonix: { command: string; args: string[]; env: Record<string, string> } };
    };
    const server = doc.mcpServers.reasonix;
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args,
      // The client's own environment plus the snippet's; no window serves this folder.
      env: {
        ...(process.env as Record<string, string>),
        ...server.env,
        REASONIX_HOME: home,
        REASONIX_HOOKS_DIR: join(tmp.dir, 'no-windows'),
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'snippet-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.deepEqual(names, ['ext__showcase__count_words', 'ext__showcase__add_note']);
      const r = await client.callTool({ name: 'ext__showcase__count_words', arguments: { text: 'a b c' } });
      assert.match(JSON.stringify(r.content), /3/);
    } finally {
      await client.close();
    }
  });

  it('the VS Code mcp.json snippet names a stdio server with the same launch', () => {
    const doc = JSON.parse(mcpSnippet('vscode', line('/w'))) as { servers: Record<string, unknown> };
    assert.deepEqual(doc.servers.reasonix, { type: 'stdio', ...line('/w') });
  });

  it("the Claude Code command's words survive a POSIX shell, spaces and quotes included", () => {
    const folder = "/tmp/it's a folder/$HOME";
    const cmd = mcpSnippet('claude', line(folder));
    assert.match(cmd, /^claude mcp add reasonix -e ELECTRON_RUN_AS_NODE=1 -- /);
    const words = cmd.slice(cmd.indexOf(' -- ') + 4);
    const r = spawnSync('sh', ['-c', `printf '%s\\n' ${words}`], { encoding: 'utf8' });
    assert.deepEqual(r.stdout.split('\n').slice(0, -1), [process.execPath, CLI, 'mcp', '--workspace', folder]);
    assert.equal(shellWord('plain/path-1.0'), 'plain/path-1.0');
  });

  it('the Codex snippet is a TOML table whose strings are the launch, escaped', () => {
    const folder = 'C:\\Users\\me\\"proj"';
    const toml = mcpSnippet('codex', line(folder)).split('\n');
    assert.equal(toml[0], '[mcp_servers.reasonix]');
    assert.equal(toml[1], `command = ${JSON.stringify(process.execPath)}`);
    // TOML basic strings and JSON strings escape backslashes and quotes alike.
    const args = JSON.parse(toml[2].replace(/^args = /, '')) as string[];
    assert.deepEqual(args, [CLI, 'mcp', '--workspace', folder]);
    assert.equal(toml[3], 'env = { ELECTRON_RUN_AS_NODE = "1" }');
  });
});
