// Extension tools served to MCP clients by a VS Code window (issue 24): `reasonix-host mcp` finds
// the window whose folder holds its workspace and relays its stdio to the window's endpoint, where
// the window's running session answers; the official MCP SDK client is the independent peer. And
// exactly once: an agent's call of such a tool reaches us as hooks (PreToolUse, PostToolUse) and as
// the MCP call; every interceptor sees it once (src/host/tools/callLedger.ts).
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { listWindows, MAX_REQUEST_BYTES, openChannel } from '../../../src/host/endpoint';
import { countWordsPlugin } from '../../support/plugins';
import { waitFor } from '../../support/wait';
import { CLI_JS, runHook, scratch, TestWindow, hookOutput } from './support';

/** How VS Code names the tool `count_words` of the extension `tools` served by our MCP server. */
const VSCODE_NAME = 'mcp_reasonix_ext__tools__count_words';
const MODEL_NAME = 'ext__tools__count_words';

describe('extension tools from a VS Code window over MCP (reasonix-host mcp relays to the window)', function () {
  this.timeout(40_000);
  let root: string;
  let dir: string;
  let win: TestWindow | undefined;
  let client: Client | undefined;
  let stderr = '';

  const open = async (auditPoints: Record<string, unknown> = {}, lazy = false) => {
    ({ root, dir } = scratch());
    const tools = countWordsPlugin(join(root, 'tools-plugin'), { TOOLS_RECORD: join(root, 'calls.jsonl') });
    win = await TestWindow.open(
      dir,
      join(root, 'ws'),
      [{ name: 'audit', intercepts: ['tool.before', 'permission.decision', 'tool.after'], points: auditPoints }],
      [dir],
      { plugins: [tools], mcp: true, lazy },
    );
    return win;
  };

  const connect = async (args: string[] = []) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_JS, 'mcp', '--workspace', join(root, 'ws', 'src'), ...args],
      env: { ...(process.env as Record<string, string>), REASONIX_HOOKS_DIR: dir },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    client = new Client({ name: 'mcp-window-test', version: '1.0.0' });
    await client.connect(transport);
    return client;
  };

  /** What the audit interceptor was asked, per point, for the tool. */
  const asked = () =>
    win!
      .received()
      .filter((r) => r.kind === 'intercept')
      .map((r) => `${r.event} ${String(r.payload.name)}`);
  const sidecarCalls = () =>
    existsSync(join(root, 'calls.jsonl'))
      ? readFileSync(join(root, 'calls.jsonl'), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { pid: number; name: string })
      : [];

  afterEach(async () => {
    await client?.close();
    client = undefined;
    stderr = '';
    await win?.close();
    win = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  it("lists the window's tools and calls them in the window's own sidecar (nothing started twice)", async () => {
    const w = await open();
    const c = await connect();
    const { tools } = await c.listTools();
    assert.deepEqual(
      tools.map((t) => [t.name, t.annotations?.readOnlyHint]),
      [[MODEL_NAME, true]],
    );
    const r = await c.callTool({ name: MODEL_NAME, arguments: { text: 'a b c' } });
    assert.deepEqual(r.content, [{ type: 'text', text: '3' }]);
    assert.equal(r.isError, false);
    const pid = w.engine.plugins().find((p) => p.pluginId === 'tools')?.pid;
    assert.deepEqual(
      sidecarCalls().map((x) => x.pid),
      [pid],
      'the session sidecar served it',
    );
    assert.match(stderr, /serving the tools of .* from the VS Code window \(pid \d+\)/);
    assert.equal(w.mcpCalls.length, 1);
    assert.equal(w.mcpCalls[0].ruledByHook, false);
  });

  it('a folder waiting for its first use lists its tools from the manifests with nothing started; the first call starts it (issue 43)', async () => {
    const w = await open({}, true);
    const c = await connect();
    const { tools } = await c.listTools();
    assert.deepEqual(
      tools.map((t) => [t.name, t.description, t.annotations?.readOnlyHint]),
      [[MODEL_NAME, 'Count words', true]],
    );
    assert.deepEqual(w.uses, [], 'listing started nothing');
    assert.ok(
      w.engine.plugins().every((p) => p.pid === undefined),
      'no sidecar runs',
    );
    const r = await c.callTool({ name: MODEL_NAME, arguments: { text: 'a b c d' } });
    assert.deepEqual(r.content, [{ type: 'text', text: '4' }]);
    assert.deepEqual(w.uses, ['mcp'], 'the call started the folder, as an MCP use');
    const pid = w.engine.plugins().find((p) => p.pluginId === 'tools')?.pid;
    assert.deepEqual(
      sidecarCalls().map((x) => x.pid),
      [pid],
    );
    assert.deepEqual(
      asked(),
      [`tool.before ${MODEL_NAME}`, `permission.decision ${MODEL_NAME}`, `tool.after ${MODEL_NAME}`],
      "the started folder's interceptors ruled on the call",
    );
  });

  it('exactly once: a call PreToolUse ruled on runs only tool.after in the window, and PostToolUse asks nobody', async () => {
    const w = await open();
    const c = await connect();
    const input = { cwd: w.folder, tool_name: VSCODE_NAME, tool_input: { text: 'one two' }, tool_use_id: 'call_1' };
    const pre = await runHook(dir, 'PreToolUse', { ...input, hook_event_name: 'PreToolUse' });
    assert.equal(pre.code, 0, pre.stderr);
    assert.equal(pre.stdout, '', 'no ruling: VS Code asks as usual');
    // VS Code then calls the tool with the same input (keys in any order).
    const r = await c.callTool({ name: MODEL_NAME, arguments: { text: 'one two' } });
    assert.deepEqual(r.content, [{ type: 'text', text: '2' }]);
    const post = await runHook(dir, 'PostToolUse', { ...input, hook_event_name: 'PostToolUse', tool_response: '2' });
    assert.equal(post.stdout, '');
    assert.deepEqual(asked(), [
      `tool.before ${MODEL_NAME}`,
      `permission.decision ${MODEL_NAME}`,
      `tool.after ${MODEL_NAME}`,
    ]);
    assert.equal(w.mcpCalls[0].ruledByHook, true);
    const perm = w.received().find((x) => x.event === 'permission.decision');
    assert.equal(
      perm?.payload.readOnly,
      true,
      'permission.decision carries the tool readOnly hint, as Reasonix sends it',
    );
    assert.match(String(w.decisions.at(-1)?.record.note), /tool\.after ran with the call, in the Reasonix MCP server/);
    // The PreToolUse record names the agent's call (issue 41: compared with a card's toolCallId).
    const preRecord = w.decisions.find((d) => d.record.event === 'PreToolUse')?.record;
    assert.equal(preRecord?.toolUseId, 'call_1');
  });

  it('a call no hook ruled on (hooks off, another MCP client) passes the whole chain once; PostToolUse leaves tool.after alone', async () => {
    const w = await open();
    const c = await connect();
    const r = await c.callTool({ name: MODEL_NAME, arguments: { text: 'x' } });
    assert.deepEqual(r.content, [{ type: 'text', text: '1' }]);
    const post = await runHook(dir, 'PostToolUse', {
      cwd: w.folder,
      hook_event_name: 'PostToolUse',
      tool_name: VSCODE_NAME,
      tool_input: { text: 'x' },
      tool_response: '1',
    });
    assert.equal(post.stdout, '');
    assert.deepEqual(asked(), [
      `tool.before ${MODEL_NAME}`,
      `permission.decision ${MODEL_NAME}`,
      `tool.after ${MODEL_NAME}`,
    ]);
    // A second, identical call is its own call: its chain runs again.
    await c.callTool({ name: MODEL_NAME, arguments: { text: 'x' } });
    assert.equal(asked().length, 6);
  });

  it('a tool an interceptor blocks is denied at PreToolUse with its reason, and refused over MCP the same way', async () => {
    const w = await open({ 'tool.before': { decision: 'block', reason: 'not today' } });
    const c = await connect();
    const pre = await runHook(dir, 'PreToolUse', {
      cwd: w.folder,
      hook_event_name: 'PreToolUse',
      tool_name: VSCODE_NAME,
      tool_input: { text: 'a' },
    });
    const out = hookOutput(pre.answer);
    assert.equal(out.permissionDecision, 'deny');
    assert.match(String(out.permissionDecisionReason), /Reasonix extension "audit" blocked this: not today/);
    const r = await c.callTool({ name: MODEL_NAME, arguments: { text: 'a' } });
    assert.equal(r.isError, true);
    assert.match(
      JSON.stringify(r.content),
      /Reasonix extension \\"audit\\" blocked ext__tools__count_words: not today/,
    );
    assert.deepEqual(sidecarCalls(), [], 'the sidecar never saw the call');
  });

  it('through the relay: 100 concurrent calls on one connection all answer, each with its own result', async () => {
    const w = await open();
    const c = await connect();
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        c.callTool({ name: MODEL_NAME, arguments: { text: Array.from({ length: i + 1 }, () => 'w').join(' ') } }),
      ),
    );
    results.forEach((r, i) => assert.deepEqual(r.content, [{ type: 'text', text: String(i + 1) }]));
    assert.equal(w.mcpCalls.length, 100);
    assert.equal(sidecarCalls().length, 100);
  });

  it('the tool list follows the session (list_changed), and a closing window ends the relay', async () => {
    const w = await open();
    const c = await connect();
    let changed = 0;
    c.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    await w.engine.stopPlugin('tools');
    await waitFor(() => changed > 0, { timeoutMs: 10_000, what: 'tools/list_changed' });
    assert.deepEqual((await c.listTools()).tools, []);
    const closed = new Promise<void>((resolve) => (c.onclose = () => resolve()));
    await w.window.close();
    await closed;
  });

  it('a kept connection is bounded like a request: a line past 32 MiB closes it, and a wrong token is refused', async () => {
    const w = await open();
    const [record] = listWindows(dir);
    await assert.rejects(
      openChannel(record.endpoint, 'not-the-token', 'mcp', { folder: w.folder }, 5_000),
      /wrong token/,
    );
    const socket = await openChannel(record.endpoint, record.token, 'mcp', { folder: w.folder }, 5_000);
    socket.on('error', () => {}); // the reset of a closed connection
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    for (let i = 0; i < MAX_REQUEST_BYTES / chunk.length + 1 && !socket.destroyed; i++)
      if (!socket.write(chunk)) await Promise.race([new Promise((r) => socket.once('drain', r)), closed]);
    await closed;
  });

  it('--window names a window that is gone (a reload): the window that serves the folder now answers (issue 41)', async () => {
    await open();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_JS, 'mcp', '--window', 'gone', '--workspace', join(root, 'ws')],
      env: { ...(process.env as Record<string, string>), REASONIX_HOOKS_DIR: dir },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    client = new Client({ name: 'mcp-window-test', version: '1.0.0' });
    await client.connect(transport);
    assert.deepEqual(
      (await client.listTools()).tools.map((t) => t.name),
      [MODEL_NAME],
    );
    assert.match(stderr, /the VS Code window gone is gone; relaying to window \w+/);
  });

  it('--window names a window that is gone and no window serves the folder: an error naming it after the wait (exit 1)', async () => {
    ({ root, dir } = scratch());
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_JS, 'mcp', '--window', 'gone', '--workspace', join(root, 'ws')],
      env: {
        ...(process.env as Record<string, string>),
        REASONIX_HOOKS_DIR: dir,
        REASONIX_MCP_WINDOW_WAIT_MS: '300',
      },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    client = new Client({ name: 'mcp-window-test', version: '1.0.0' });
    await assert.rejects(client.connect(transport));
    await waitFor(() => /the VS Code window gone is not open any more/.test(stderr), {
      timeoutMs: 10_000,
      what: 'the message',
    });
  });
});
