// Issue 45 item 1 on VS Code's own path: VS Code names an MCP tool `mcp_<label>_<name>` cut at 64
// characters, so two long model-facing names can read alike to it. The agent hook then cannot tell
// which tool the agent means: it rules on neither (it never hands one tool's interceptor ruling to
// the other), and the MCP call, which carries the exact name, runs the whole chain for that tool.
// Real processes: the hook bridge, the CLI relay, the window's sidecar, the audit interceptor.
import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { pluginFolderV2 } from '../../support/plugins';
import { CLI_JS, REPO, runHook, scratch, TestWindow } from './support';

const ID = 'p'.repeat(40);
const ONE = `ext__${ID}__alpha_one`;
const TWO = `ext__${ID}__alpha_two`;
/** What VS Code calls either of them: the cut leaves only `ext__ppp…p_`. */
const VSCODE_NAME = `mcp_reasonix_${ONE}`.slice(0, 64);

describe('a VS Code name that fits two tools: the hook rules on neither, the MCP call runs the chain (issue 45 item 1)', function () {
  this.timeout(40_000);
  let root: string;
  let dir: string;
  let win: TestWindow | undefined;
  let client: Client | undefined;

  afterEach(async () => {
    await client?.close();
    client = undefined;
    await win?.close();
    win = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  it('no interceptor hears one tool’s name for the other’s call', async () => {
    ({ root, dir } = scratch());
    assert.equal(`mcp_reasonix_${TWO}`.slice(0, 64), VSCODE_NAME);
    const plugin = pluginFolderV2(join(root, ID), ID, {
      command: process.execPath,
      args: [join(REPO, 'test', 'fixtures', 'tools', 'tools.js')],
      capabilities: ['tools'],
      tools: ['alpha_one', 'alpha_two'].map((name) => ({ name, description: name, inputSchema: { type: 'object' } })),
    });
    win = await TestWindow.open(
      dir,
      join(root, 'ws'),
      [{ name: 'audit', intercepts: ['tool.before', 'permission.decision', 'tool.after'], points: {} }],
      [dir],
      { plugins: [plugin], mcp: true },
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_JS, 'mcp', '--workspace', join(root, 'ws')],
      env: { ...(process.env as Record<string, string>), REASONIX_HOOKS_DIR: dir },
      stderr: 'pipe',
    });
    client = new Client({ name: 'names-window-test', version: '1.0.0' });
    await client.connect(transport);
    const input = { cwd: win.folder, tool_name: VSCODE_NAME, tool_input: { text: 'x' }, tool_use_id: 'call_1' };
    const pre = await runHook(dir, 'PreToolUse', { ...input, hook_event_name: 'PreToolUse' });
    assert.equal(pre.code, 0, pre.stderr);
    const r = await client.callTool({ name: TWO, arguments: { text: 'x' } });
    assert.deepEqual(r.content, [{ type: 'text', text: '{"text":"x"}' }]);
    const asked = win
      .received()
      .filter((x) => x.kind === 'intercept')
      .map((x) => `${x.event} ${String(x.payload.name)}`);
    assert.ok(!asked.some((a) => a.endsWith(ONE)), `alpha_one was never named: ${asked.join(', ')}`);
    assert.deepEqual(
      asked.filter((a) => a.endsWith(TWO)),
      [`tool.before ${TWO}`, `permission.decision ${TWO}`, `tool.after ${TWO}`],
      'the MCP call ran the whole chain under its exact name',
    );
    assert.equal(win.mcpCalls[0].ruledByHook, false);
  });
});
