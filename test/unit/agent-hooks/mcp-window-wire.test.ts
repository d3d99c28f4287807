// Issue 45 item 3 on the path VS Code itself uses: `reasonix-host mcp` relaying to a window, whose
// endpoint serves the MCP connection with the same stdio transport as the headless server. A bad
// line is answered by the window (-32700, -32600 with the id), the session goes on, and a client
// that closes the relay's stdout ends the relay quietly (exit 0, no EPIPE trace) while the window
// keeps serving. Real processes: the CLI relay, the window's sidecar.
import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { countWordsPlugin } from '../../support/plugins';
import { RawMcp } from '../cli/mcpRaw';
import { scratch, TestWindow } from './support';

describe('a VS Code window serving MCP: the relayed wire answers bad lines; a closed stdout ends the relay quietly (issue 45 item 3)', function () {
  this.timeout(40_000);
  let root: string;
  let dir: string;
  let win: TestWindow | undefined;
  let raw: RawMcp | undefined;

  afterEach(async () => {
    await raw?.close();
    raw = undefined;
    await win?.close();
    win = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  const open = async () => {
    ({ root, dir } = scratch());
    const tools = countWordsPlugin(join(root, 'tools-plugin'));
    win = await TestWindow.open(dir, join(root, 'ws'), [], [dir], { plugins: [tools], mcp: true });
    raw = new RawMcp([], join(root, 'ws'), [], { REASONIX_HOOKS_DIR: dir });
    await raw.initialize();
    return raw;
  };

  it('answers a non-JSON line and non-object params through the window, then serves a call', async () => {
    const r = await open();
    let from = r.lines.length;
    r.send('{"not json');
    assert.deepEqual(JSON.parse(await r.next(() => true, from)), {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the line is not JSON' },
    });
    r.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: 'x' });
    assert.equal(((await r.answer(5)).error as { code: number }).code, -32600);
    from = r.lines.length;
    r.send(
      '{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call","params":{"name":"ext__tools__count_words","arguments":{"text":"a b"}}}',
    );
    const line = await r.next((l) => l.startsWith('{"jsonrpc":"2.0","id":9007199254740993,'), from);
    assert.deepEqual((JSON.parse(line) as { result: { content: unknown } }).result.content, [
      { type: 'text', text: '2' },
    ]);
    assert.match(r.stderr, /serving the tools of .* from the VS Code window/);
  });

  it('a client that closes the relay’s stdout: the relay exits 0 without a trace, the window keeps serving', async () => {
    const r = await open();
    r.child.stdout.destroy();
    for (let i = 1; i <= 3; i++) r.send({ jsonrpc: '2.0', id: i, method: 'tools/list' });
    const exit = await Promise.race([
      r.exited,
      new Promise<'hung'>((done) => setTimeout(() => done('hung'), 15_000).unref()),
    ]);
    assert.deepEqual(exit, { code: 0, signal: null }, r.stderr);
    assert.doesNotMatch(r.stderr, /EPIPE|Error:|at .*\.js:\d+/);
    // The window still serves a new client.
    raw = new RawMcp([], join(root, 'ws'), [], { REASONIX_HOOKS_DIR: dir });
    await raw.initialize();
    raw.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const list = await raw.answer(1);
    assert.deepEqual(
      (list.result as { tools: { name: string }[] }).tools.map((t) => t.name),
      ['ext__tools__count_words'],
    );
  });

  it('arguments nested 100,000 levels deep get the clear depth error through the window too (issue 45 item 7)', async () => {
    const r = await open();
    const levels = 100_000;
    r.send(
      `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"ext__tools__count_words","arguments":${'{"v":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}}}`,
    );
    const a = await r.answer(7);
    const err = a.error as { code: number; message: string };
    assert.equal(err.code, -32602, JSON.stringify(a));
    assert.match(err.message, /the arguments of ext__tools__count_words nest more than 64 levels/);
    assert.doesNotMatch(err.message, /Maximum call stack/);
  });
});
