// Views on a tool's card (issue 41, MCP Apps) from `reasonix-host mcp`, the official MCP SDK client
// as the peer and real sidecars: test/fixtures/ui/anchored.js (v2, `ui` + `tools`: anchors a view to
// the call id the host hands it, a second generation after 150 ms, a declared action and a button
// for an undeclared one) and test/fixtures/tools/tools.js (v2, `tools` only: never anchors), beside
// a protocol v1 UI sidecar (test/fixtures/ui/ui.js, `ui`: no tools, so nothing of it is listed).
// What is proved: the gate on the client's `io.modelcontextprotocol/ui` extension, which tools get a
// card (only a tool its manifest says `anchorsView` of an extension that declares `ui`), the minted call id (handed to the sidecar, in the
// result's `_meta`, never in structuredContent), the page resource, the app-only read (long-poll:
// the next generation, once) and action (the sidebar's path: declared actions only, undeclared says
// so and sends nothing), and the page receiving only redacted text.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { pluginFolder, pluginFolderV2 } from '../../support/plugins';
import { CLI, REPO, tempDir } from './support';

const UI_EXTENSION = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
const countWords = {
  name: 'count_words',
  description: 'Count words',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  readOnly: true,
};

interface CardViews {
  callId: string;
  token: string;
  views: {
    key: string;
    surface: { pluginId: string; revision: number; payload: { anchor?: string; body: unknown[] } };
  }[];
}

describe('reasonix-host mcp: a view on its tool’s card (MCP Apps, issue 41)', function () {
  this.timeout(30_000);
  let tmp: ReturnType<typeof tempDir>;
  let client: Client | undefined;
  beforeEach(() => (tmp = tempDir('mcp-apps')));
  afterEach(async () => {
    await client?.close();
    client = undefined;
    tmp.cleanup();
  });

  const plugins = () => [
    pluginFolderV2(join(tmp.dir, 'anchored'), 'anchored', {
      command: process.execPath,
      args: [join(REPO, 'test', 'fixtures', 'ui', 'anchored.js')],
      capabilities: ['tools', 'ui'],
      // Only the tool the manifest says anchors a view gets a card; its sibling never anchors one.
      tools: [
        { ...countWords, anchorsView: true },
        { ...countWords, name: 'count_quietly' },
      ],
      env: { ANCHORED_RECORD: join(tmp.dir, 'anchored.jsonl') },
    }),
    pluginFolder(join(tmp.dir, 'legacy'), 'legacy', {
      command: process.execPath,
      args: [join(REPO, 'test', 'fixtures', 'ui', 'ui.js')],
      capabilities: ['ui'],
    }),
    pluginFolderV2(join(tmp.dir, 'plain'), 'plain', {
      command: process.execPath,
      args: [join(REPO, 'test', 'fixtures', 'tools', 'tools.js')],
      capabilities: ['tools'],
      tools: [countWords],
      env: { TOOLS_RECORD: join(tmp.dir, 'plain.jsonl') },
    }),
  ];
  const connect = async (drawsApps: boolean) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', ...plugins().flatMap((p) => ['--plugin', p]), '--workspace', tmp.dir],
      stderr: 'pipe',
    });
    client = new Client(
      { name: 'mcp-apps-test', version: '1.0.0' },
      { capabilities: drawsApps ? { extensions: UI_EXTENSION } : {} },
    );
    await client.connect(transport);
    return client;
  };
  const recorded = (file: string) =>
    existsSync(join(tmp.dir, file))
      ? readFileSync(join(tmp.dir, file), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { kind: string; arguments?: Record<string, unknown>; actionId?: string })
      : [];
  const read = async (c: Client, args: Record<string, unknown>) =>
    (await c.callTool({ name: 'reasonix_view_read', arguments: args })).structuredContent as unknown as CardViews;
  const texts = (s: CardViews) => JSON.stringify(s.views.map((v) => v.surface.payload.body));

  it('a client without the MCP Apps extension gets the tools as before: no card, no app-only tools, no call id anywhere', async () => {
    const c = await connect(false);
    // VS Code names the tools after this title (mcp_reasonix_<tool>), cut at 13 characters: a whole word.
    assert.deepEqual(c.getServerVersion()?.title, 'Reasonix');
    const { tools } = await c.listTools();
    assert.deepEqual(
      tools.map((t) => [t.name, t._meta]),
      [
        ['ext__anchored__count_words', undefined],
        ['ext__anchored__count_quietly', undefined],
        ['ext__plain__count_words', undefined],
      ],
    );
    const r = await c.callTool({ name: 'ext__anchored__count_words', arguments: { text: 'one two three' } });
    assert.deepEqual(r.content, [{ type: 'text', text: '3 words' }]);
    assert.equal(r._meta, undefined);
    assert.equal(r.structuredContent, undefined);
    assert.deepEqual(recorded('anchored.jsonl')[0].arguments, { text: 'one two three' }, 'the sidecar got no call id');
    assert.deepEqual((await c.listResources()).resources, []);
    await assert.rejects(c.readResource({ uri: 'ui://reasonix/anchored/count_words' }).then(() => undefined));
    const app = await c.callTool({ name: 'reasonix_view_read', arguments: { callId: 'x' } }).catch((e: Error) => e);
    assert.ok(app instanceof Error || app.isError === true, 'the app-only tools do not exist for this client');
  });

  it('for an MCP Apps client only a tool of a ui extension whose manifest says anchorsView gets a card; the app-only tools say so', async () => {
    const c = await connect(true);
    const { tools } = await c.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    assert.deepEqual(byName.get('ext__anchored__count_words')?._meta, {
      ui: { resourceUri: 'ui://reasonix/anchored/count_words' },
    });
    assert.equal(byName.get('ext__plain__count_words')?._meta, undefined, 'a tool that never anchors costs nothing');
    assert.equal(
      byName.get('ext__anchored__count_quietly')?._meta,
      undefined,
      'a tool of a ui extension without anchorsView gets no card (VS Code would draw one for every call)',
    );
    assert.deepEqual(
      tools.map((t) => t.name),
      [
        'ext__anchored__count_words',
        'ext__anchored__count_quietly',
        'ext__plain__count_words',
        'reasonix_view_read',
        'reasonix_view_action',
      ],
      'the v1 UI extension serves no tool and gets no card',
    );
    assert.deepEqual(
      (await c.listResources()).resources.map((r) => [r.uri, r.mimeType]),
      [['ui://reasonix/anchored/count_words', 'text/html;profile=mcp-app']],
    );
    for (const name of ['reasonix_view_read', 'reasonix_view_action'])
      assert.deepEqual(byName.get(name)?._meta, { ui: { visibility: ['app'] } });

    const page = await c.readResource({ uri: 'ui://reasonix/anchored/count_words' });
    assert.equal(page.contents.length, 1);
    assert.equal(page.contents[0].mimeType, 'text/html;profile=mcp-app');
    const html = String((page.contents[0] as { text?: string }).text);
    assert.match(html, /^<!DOCTYPE html>/);
    assert.match(html, /<script>[\s\S]*ui\/initialize[\s\S]*<\/script><\/body><\/html>\n$/);
    assert.doesNotMatch(html, /<script[^>]+src=|<link /, 'nothing external: the renderer is inlined');
    await assert.rejects(c.readResource({ uri: 'ui://reasonix/plain/count_words' }), /no Reasonix view resource/);
    await assert.rejects(c.readResource({ uri: 'ui://reasonix/anchored/count_quietly' }), /no Reasonix view resource/);
    const quiet = await c.callTool({ name: 'ext__anchored__count_quietly', arguments: { text: 'a b c' } });
    assert.equal(quiet._meta, undefined, 'no call id for a tool that does not anchor');
    assert.deepEqual(recorded('anchored.jsonl')[0].arguments, { text: 'a b c' }, 'its sidecar got no call id');

    const plain = await c.callTool({ name: 'ext__plain__count_words', arguments: { text: 'a b' } });
    assert.equal(plain._meta, undefined);
    assert.deepEqual(
      (recorded('plain.jsonl')[0] as { params?: { arguments?: unknown } }).params?.arguments,
      { text: 'a b' },
      'no call id is handed to an extension without ui',
    );
  });

  it('the call id is minted, handed to the sidecar and returned in _meta; the page reads each generation once and its buttons take the sidebar’s path', async () => {
    const c = await connect(true);
    await c.listTools();
    // Before the result: the page knows only the call's arguments (tool-input).
    const pending = c.callTool({ name: 'ext__anchored__count_words', arguments: { text: 'one two' } });
    const r = await pending;
    assert.deepEqual(r.content, [{ type: 'text', text: '2 words' }], 'the model reads the text alone');
    assert.equal(r.structuredContent, undefined, 'view data never in structuredContent');
    const callId = (r._meta as Record<string, unknown>)['reasonix/callId'];
    assert.match(String(callId), /^[0-9a-f-]{36}$/);
    const sent = recorded('anchored.jsonl')[0].arguments!;
    assert.deepEqual(sent, { text: 'one two', _meta: { 'reasonix/callId': callId } });

    const byArgs = await read(c, { arguments: { text: 'one two' } });
    assert.equal(byArgs.callId, callId, 'the page finds its call by its arguments before the result');
    const first = await read(c, { callId });
    assert.equal(first.views.length, 1);
    assert.equal(first.views[0].surface.payload.anchor, `tool:${callId}`);
    // Generation 1 or already 2 (150 ms later): ask for the one after what we hold until it says Counted.
    let state = first;
    const seen = [state.token];
    while (!texts(state).includes('Counted 2 words')) {
      state = await read(c, { callId, after: state.token });
      assert.notEqual(state.token, seen.at(-1), 'a read answers only a new generation');
      seen.push(state.token);
    }
    assert.doesNotMatch(JSON.stringify(first), /sk-live-0123456789abcdef/, 'the page gets redacted text only');
    assert.ok(seen.length <= 2, `each generation once: ${seen.join(', ')}`);

    // The long-poll waits for the next generation: a button's action publishes it.
    const next = read(c, { callId, after: state.token });
    const key = state.views[0].key;
    const pressed = await c.callTool({ name: 'reasonix_view_action', arguments: { callId, key, actionId: 'bump' } });
    assert.deepEqual(pressed.structuredContent, { accepted: true, message: 'bumped 1' });
    assert.match(texts(await next), /bumped 1/);

    // A button the view shows for an action its extension never declared: nothing is sent, and it says so.
    const nope = await c.callTool({ name: 'reasonix_view_action', arguments: { callId, key, actionId: 'nope' } });
    assert.equal(nope.isError, true);
    assert.match(
      String((nope.structuredContent as { message?: string }).message),
      /declared no action nope; nothing was sent/,
    );
    // A button the view does not show, and a call id that has no view: refused before the hub.
    const absent = await c.callTool({ name: 'reasonix_view_action', arguments: { callId, key, actionId: 'other' } });
    assert.match(
      String((absent.structuredContent as { message?: string }).message),
      /shows no button for the action other/,
    );
    const stranger = await c.callTool({
      name: 'reasonix_view_action',
      arguments: { callId: 'x', key, actionId: 'bump' },
    });
    assert.match(
      String((stranger.structuredContent as { message?: string }).message),
      /no longer shown for this tool call/,
    );
    assert.deepEqual(
      recorded('anchored.jsonl')
        .filter((e) => e.kind === 'ui/action')
        .map((e) => e.actionId),
      ['bump'],
      'only the declared, shown action reached the sidecar',
    );
  });
});
