// The window's edges (issue 38): a hook input with newlines gets a ruling; a window that cannot be
// asked still answers for the optional extensions it recorded ("ask"), and for an input it cannot
// read; the endpoint cannot be starved by kept MCP connections or by sockets that never finish
// their request; an MCP line between the SDK's 10 MiB and the endpoint's 32 MiB is served, and one
// past 32 MiB is said by the relay instead of a call that is never answered.
import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { join } from 'node:path';
import { listWindows, MAX_KEPT, MAX_PENDING, MAX_REQUEST_BYTES, openChannel } from '../../../src/host/endpoint';
import { budgetFor, oneLine } from '../../../src/host/hooks';
import { countWordsPlugin } from '../../support/plugins';
import {
  CLI_JS,
  HOOK_JS,
  fixture,
  hookOutput,
  runHook,
  runProgram,
  scratch,
  TestWindow,
  type PluginDef,
} from './support';

const BLOCKER: PluginDef = {
  name: 'guard',
  intercepts: ['tool.before'],
  points: { 'tool.before': { decision: 'block', reason: 'not allowed here' } },
};

describe('agent-hooks bridge: the window’s edges (issue 38)', function () {
  this.timeout(60_000);
  let root: string;
  let dir: string;
  let ws: string;
  const windows: TestWindow[] = [];
  const sockets: Socket[] = [];

  beforeEach(() => {
    ({ root, dir } = scratch());
    ws = join(root, 'ws');
  });
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    await Promise.all(windows.splice(0).map((w) => w.close()));
    rmSync(root, { recursive: true, force: true });
  });
  const open = async (plugins: PluginDef[], extras?: Parameters<typeof TestWindow.open>[4]) => {
    const w = await TestWindow.open(dir, ws, plugins, [dir], extras);
    windows.push(w);
    return w;
  };
  const pre = (tool = 'dangerous_exec') => fixture('vscode-pre-tool-use', ws, { tool_name: tool });
  const denied = (r: { stdout: string; answer?: Record<string, unknown> }, what: string) =>
    assert.equal(hookOutput(r.answer).permissionDecision, 'deny', `${what}: ${r.stdout}`);

  describe('item 1: a hook input with newlines is ruled on like one on a single line', () => {
    const shapes: [string, (o: unknown) => string][] = [
      ['pretty-printed', (o) => JSON.stringify(o, null, 2)],
      ['CRLF line ends', (o) => JSON.stringify(o, null, 2).replace(/\n/g, '\r\n')],
      ['a leading newline', (o) => `\n${JSON.stringify(o)}`],
      ["echo '{…}' | (a trailing newline)", (o) => `${JSON.stringify(o)}\n`],
    ];

    it('the bridge (dist/hook.js): an optional extension that blocks the tool still blocks it', async () => {
      await open([{ ...BLOCKER, points: { 'tool.before': { decision: 'block', reason: 'not here' } } }]);
      for (const [name, shape] of shapes) denied(await runHook(dir, 'PreToolUse', shape(pre())), name);
    });

    it('reasonix-host hook: the same inputs, the same rulings', async () => {
      await open([{ ...BLOCKER, points: { 'tool.before': { decision: 'block', reason: 'not here' } } }]);
      for (const [name, shape] of shapes) {
        const r = await runProgram(process.execPath, [CLI_JS, 'hook', 'PreToolUse'], shape(pre()), {
          ...process.env,
          REASONIX_HOOKS_DIR: dir,
        });
        denied(r, name);
      }
    });

    it('with a required extension that lets `ls` through, a pretty-printed `ls` is not denied', async () => {
      const w = await open([{ name: 'policy', required: true, intercepts: ['tool.before'] }]);
      const r = await runHook(dir, 'PreToolUse', JSON.stringify(pre('ls'), null, 2));
      assert.equal(r.code, 0);
      assert.equal(r.stdout, '', `no decision: the required extension continued (${r.stderr})`);
      assert.equal(
        w.received().filter((x) => x.kind === 'intercept' && x.event === 'tool.before').length,
        1,
        'tool.before was asked once',
      );
    });

    it('a newline inside a string value arrives as the same value (escaped in JSON, never split)', async () => {
      const w = await open([{ name: 'audit', intercepts: ['tool.before'] }]);
      const input = { ...pre('write_file'), tool_input: { text: 'line one\nline two\r\n' } };
      await runHook(dir, 'PreToolUse', JSON.stringify(input, null, 4));
      const asked = w.received().find((x) => x.event === 'tool.before');
      assert.deepEqual(JSON.parse(String(asked?.payload.arguments)), input.tool_input);
    });

    it('oneLine keeps the JSON value and leaves one line', () => {
      const text = '{\r\n  "a": "x\\ny",\n  "b": [1,\n2]\n}\n';
      assert.ok(!/[\r\n]/.test(oneLine(text)));
      assert.deepEqual(JSON.parse(oneLine(text)), JSON.parse(text));
    });
  });

  describe('item 4: a window that cannot be asked answers for its optional extensions', () => {
    it('the endpoint gone: PreToolUse is "ask" naming the extension, UserPromptSubmit a system message', async () => {
      const w = await open([{ name: 'guard', intercepts: ['tool.before', 'input.receive'] }]);
      rmSync(w.window.endpoint, { force: true });
      const r = await runHook(dir, 'PreToolUse', pre());
      assert.equal(hookOutput(r.answer).permissionDecision, 'ask', r.stdout);
      assert.match(String(hookOutput(r.answer).permissionDecisionReason), /Reasonix could not ask "guard" .*missing/);
      const p = await runHook(dir, 'UserPromptSubmit', fixture('vscode-user-prompt-submit', ws));
      assert.match(String(p.answer?.systemMessage), /Reasonix could not ask "guard"/, p.stdout);
      assert.equal(p.answer?.decision, undefined, 'an optional extension never blocks by being unheard');
    });

    it('the record lists who takes part where, required and optional apart', async () => {
      await open([
        { name: 'must', required: true, intercepts: ['tool.before'] },
        { name: 'may', intercepts: ['tool.before', 'tool.after'] },
      ]);
      const [record] = listWindows(dir);
      assert.deepEqual(record.required?.[ws], { 'tool.before': ['must'] });
      assert.deepEqual(record.optional?.[ws], { 'tool.before': ['may'], 'tool.after': ['may'] });
    });
  });

  describe('item 8: an input the bridge cannot read whole', () => {
    const huge = () => `{"cwd":${JSON.stringify('x')},"pad":"${'a'.repeat(MAX_REQUEST_BYTES + 16)}"}`;
    const inWs = (args: string[], stdin: string) =>
      runProgram(
        process.execPath,
        args,
        stdin,
        { ...process.env, REASONIX_HOOKS_DIR: dir, ELECTRON_RUN_AS_NODE: '1' },
        30_000,
        ws,
      );

    it('over 32 MiB with a required extension: refused (the bridge and reasonix-host hook)', async () => {
      await open([{ name: 'policy', required: true, intercepts: ['tool.before'] }]);
      for (const args of [
        [HOOK_JS, 'PreToolUse'],
        [CLI_JS, 'hook', 'PreToolUse'],
      ]) {
        const r = await inWs(args, huge());
        denied(r, args[0]);
        assert.match(
          String(hookOutput(r.answer).permissionDecisionReason),
          /"policy" is required .*its hook input could not be read: stdin is larger than/,
        );
      }
    });

    it('over 32 MiB with an optional extension: "ask"; not JSON at all: the same', async () => {
      await open([{ name: 'guard', intercepts: ['tool.before'] }]);
      for (const stdin of [huge(), '{"tool_name": "x",']) {
        const r = await inWs([HOOK_JS, 'PreToolUse'], stdin);
        assert.equal(hookOutput(r.answer).permissionDecision, 'ask', `${stdin.length} bytes: ${r.stdout}`);
      }
    });
  });

  describe('a tool_input nested too deeply to send (issue 45 item 7, on the hook path)', () => {
    // As text: JSON.stringify itself overflows on such a value (which is the point).
    const deep = (levels: number) => {
      const { tool_input: _drop, ...rest } = pre('write_file');
      const head = JSON.stringify({ ...rest, tool_input: 0 }).slice(0, -2);
      return `${head}${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}`;
    };
    it('a required extension refuses it, an optional one asks; nothing overflows', async () => {
      await open([{ name: 'policy', required: true, intercepts: ['tool.before'] }]);
      const r = await runHook(dir, 'PreToolUse', deep(5_000));
      denied(r, 'required');
      assert.match(
        String(hookOutput(r.answer).permissionDecisionReason),
        /"policy" is required .*nests deeper than 1000/,
      );
      await windows.pop()!.close();
      await open([{ name: 'guard', intercepts: ['tool.before'] }]);
      const o = await runHook(dir, 'PreToolUse', deep(5_000));
      assert.equal(hookOutput(o.answer).permissionDecision, 'ask', o.stdout);
    });
  });

  describe('item 5: hooks always get through', () => {
    it(`${MAX_KEPT} idle kept MCP connections, ${MAX_PENDING * 2} one-byte sockets and token prefixes without a newline: the hook is still ruled on in time`, async () => {
      const w = await open([BLOCKER], {
        plugins: [countWordsPlugin(join(root, 'tools-plugin'), {})],
        mcp: true,
      });
      const [record] = listWindows(dir);
      for (let i = 0; i < MAX_KEPT; i++)
        sockets.push(await openChannel(record.endpoint, record.token, 'mcp', { folder: w.folder }, 5_000));
      await assert.rejects(
        openChannel(record.endpoint, record.token, 'mcp', { folder: w.folder }, 5_000),
        new RegExp(`already keeps ${MAX_KEPT} mcp connections open`),
      );
      const raw = (first: string) =>
        new Promise<void>((resolve) => {
          const s = createConnection(record.endpoint);
          sockets.push(s);
          s.on('error', () => undefined);
          s.once('connect', () => {
            s.write(first);
            resolve();
          });
        });
      const prefix = `{"v":1,"token":${JSON.stringify(record.token)},"kind":"hook","event":"PreToolUse",`;
      await Promise.all([
        ...Array.from({ length: MAX_PENDING * 2 }, () => raw('{')),
        ...Array.from({ length: 8 }, () => raw(prefix)),
      ]);
      const r = await runHook(dir, 'PreToolUse', pre());
      denied(r, 'with the endpoint crowded');
      assert.ok(r.ms < budgetFor('PreToolUse'), `within the budget (${Math.round(r.ms)} ms)`);
    });
  });

  describe('item 7: MCP lines past the SDK’s own 10 MiB', () => {
    const padded = (id: number, bytes: number) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{"_meta":{"pad":"${'p'.repeat(bytes)}"}}}\n`;
    const init =
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n' +
      '{"jsonrpc":"2.0","method":"notifications/initialized"}\n';

    it('a 12 MiB request through the relay is answered, and so is the next one', async () => {
      await open([], { plugins: [countWordsPlugin(join(root, 'tools-plugin'), {})], mcp: true });
      const stdin = init + padded(2, 12 * 1024 * 1024) + padded(3, 10);
      const r = await runProgram(
        process.execPath,
        [CLI_JS, 'mcp', '--workspace', ws],
        stdin,
        { ...process.env, REASONIX_HOOKS_DIR: dir },
        30_000,
      );
      const ids = r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { id?: number; result?: { tools?: unknown[] } }).id);
      assert.deepEqual(ids, [1, 2, 3], `answers to initialize and both tools/list (stderr: ${r.stderr})`);
      assert.equal(r.code, 0);
    });

    it('a line past 32 MiB: the relay says so on stderr and exits 1 (no call left unanswered in silence)', async () => {
      await open([], { plugins: [countWordsPlugin(join(root, 'tools-plugin'), {})], mcp: true });
      const r = await runProgram(
        process.execPath,
        [CLI_JS, 'mcp', '--workspace', ws],
        init + padded(2, MAX_REQUEST_BYTES + 1024),
        { ...process.env, REASONIX_HOOKS_DIR: dir },
        30_000,
      );
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /the MCP client sent a line longer than 32 MiB/);
    });
  });
});
