// The showcase sample, driven by hand over its stdio exactly as a host would drive it.
import * as assert from 'node:assert/strict';
import { accessSync, constants, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  V2,
  validateDef,
  type CardPayload,
  type StatusPayload,
  type SurfaceKind,
  type UIRequestParams,
} from '../../../src/protocol';
import { ContentStore } from '../../../src/host/content/store';

/** The protocol the showcase's manifest picks. */
const showcaseProtocol = V2;
import { decodePublishPayload, decodeRequestPayload, ACTION_ID } from '../../../src/host/ui';
import { EXAMPLES, SidecarDriver, expandedCommand, readManifest, type DriverOptions, type Frame } from './driver';

const ROOT = path.join(EXAMPLES, 'showcase');
const FAST = { SHOWCASE_TICK_MS: '2', SHOWCASE_CHUNK_MS: '2' };

// Card field values are strings on the wire (the host refuses any other type).
type Fields = { key: string; value?: string }[];
const field = (card: CardPayload, key: string): string | undefined =>
  (card.fields as Fields | undefined)?.find((f) => f.key === key)?.value;

describe('examples/showcase', function () {
  let workspace: string;
  let driver: SidecarDriver | undefined;

  before(() => {
    workspace = mkdtempSync(path.join(tmpdir(), 'showcase-ws-'));
    mkdirSync(path.join(workspace, 'src'));
    for (const f of ['a.txt', 'b.txt', 'src/c.js']) writeFileSync(path.join(workspace, f), 'x');
  });
  after(() => rmSync(workspace, { recursive: true, force: true }));
  afterEach(async () => {
    await driver?.dispose();
    driver = undefined;
  });

  function start(opts: DriverOptions = {}): SidecarDriver {
    driver = new SidecarDriver(ROOT, { ...opts, env: { ...FAST, ...(opts.env ?? {}) } });
    return driver;
  }
  async function started(opts: DriverOptions = {}): Promise<SidecarDriver> {
    const d = start(opts);
    await d.ready(d.initializeParams({ workspaceRoot: workspace }));
    return d;
  }

  describe('package', () => {
    it('has a v2 manifest whose command expands to an absolute, executable, non-shell file', () => {
      const m = readManifest(ROOT);
      assert.equal(m.apiVersion, 'reasonix.io/plugin/v2');
      assert.equal(m.name, 'showcase');
      assert.deepEqual(m.runtime.capabilities, ['interceptors', 'providers', 'ui', 'tools']);
      assert.deepEqual(
        m.runtime.tools?.map((t) => t.name),
        ['count_words', 'add_note'],
      );
      assert.deepEqual(m.runtime.intercepts, ['tool.before', 'session.start', 'provider.request']);
      const cmd = expandedCommand(ROOT, m);
      assert.ok(path.isAbsolute(cmd));
      assert.equal(path.basename(cmd), 'showcase');
      accessSync(cmd, constants.X_OK);
    });
  });

  describe('handshake', () => {
    it('answers initialize with a schema-valid result within the manifest ceiling', async () => {
      const d = start();
      const params = d.initializeParams({ workspaceRoot: workspace });
      assert.ok(showcaseProtocol.validateParams('extension/initialize', params).ok, 'the test sends valid params');
      const r = await d.call('extension/initialize', params);
      const v = showcaseProtocol.validateResult('extension/initialize', r);
      assert.ok(v.ok, v.ok ? '' : v.message);
      assert.equal(r.name, 'showcase');
      assert.equal(r.protocolVersion, '2');
      assert.equal(r.stateSchemaVersion, 0);
      assert.deepEqual(r.tools, ['count_words', 'add_note'], 'serves the tools its manifest declares');
      for (const s of r.subscriptions as string[]) assert.ok(d.manifest.runtime.intercepts?.includes(s), s);
      assert.deepEqual(
        (r.providers as { ref: string }[]).map((p) => p.ref),
        ['plugin/showcase/echo/echo-1'],
      );
      const ids = (r.uiActions as { actionId: string }[]).map((a) => a.actionId);
      assert.deepEqual(ids, ['refresh', 'pick-theme', 'reset-notes', 'greet']);
      for (const id of ids) assert.match(id, ACTION_ID);
      assert.deepEqual(d.garbage, []);
    });

    it('claims only what the installed manifest allows, under the installed plugin id', async () => {
      const d = start({ pluginId: 'my-showcase' });
      const r = await d.call(
        'extension/initialize',
        d.initializeParams({ manifest: { intercepts: ['tool.before'], capabilities: ['interceptors', 'ui'] } }),
      );
      assert.deepEqual(r.subscriptions, ['tool.before']);
      assert.equal(r.providers, undefined);
      assert.ok(Array.isArray(r.uiActions));
      d.notify('extension/initialized', {});
      const c = await d.call<{ providers: { ref: string }[] }>('extension/provider/catalog', {});
      assert.equal(c.providers[0].ref, 'plugin/my-showcase/echo/echo-1');
    });

    it('refuses another protocol version with unsupported_version and exits', async () => {
      const d = start();
      const r = await d.request('extension/initialize', { ...d.initializeParams(), protocolVersion: '1' });
      assert.equal(r.error?.code, -32000);
      assert.deepEqual(r.error?.data, { reason: 'unsupported_version', retryable: false });
      assert.notEqual((await d.exited).code, 0);
    });

    it('keeps the barrier: nothing but initialize/shutdown is served before initialized, and it calls the host only after', async () => {
      const d = start();
      await d.call('extension/initialize', d.initializeParams({ workspaceRoot: workspace }));
      const early = await d.request('extension/provider/catalog', {});
      assert.equal(early.error?.code, -32600);
      assert.equal(early.error?.data?.reason, 'protocol_error');
      assert.equal(d.frames.filter((f) => typeof f.method === 'string').length, 0, 'no host call before initialized');
      d.notify('extension/initialized', {});
      await d.waitFor((f) => f.method === 'host/ui/publish', 'first publish');
    });
  });

  describe('wire hygiene', () => {
    it('answers envelope and params errors like the SDK', async () => {
      const d = await started();
      const unknown = await d.request('extension/nope', {});
      assert.deepEqual(unknown.error?.code, -32601);
      assert.deepEqual(unknown.error?.data, { reason: 'unknown_method', retryable: false });

      const extra = await d.request('extension/provider/catalog', { stream: true });
      assert.equal(extra.error?.code, -32602);
      assert.equal(extra.error?.data?.reason, 'invalid_params');

      const nulls = await d.request('extension/provider/stream/cancel', { streamId: null });
      assert.equal(nulls.error?.data?.reason, 'invalid_params');

      const from = d.frames.length;
      d.writeLine('not json');
      const parse = await d.waitFor(
        (f) => (f.error as { code?: number } | undefined)?.code === -32700,
        'parse error',
        5000,
        from,
      );
      assert.equal(parse.id, null);

      d.write({ jsonrpc: '2.0', id: 'abc', method: 'extension/provider/catalog', params: {} });
      d.write([{ jsonrpc: '2.0', id: 99, method: 'extension/provider/catalog', params: {} }]);
      d.write({ jsonrpc: '2.0', id: 98, method: 'extension/provider/catalog', params: [] });
      const invalid = await d.until(() => {
        const hits = d.frames.slice(from).filter((f) => (f.error as { code?: number } | undefined)?.code === -32600);
        return hits.length === 3 ? hits : undefined;
      }, 'three -32600 answers');
      assert.deepEqual(
        invalid.map((f) => f.id),
        [null, null, 98],
      );
      assert.deepEqual(d.garbage, []);
    });
  });

  describe('tools, panel and view (protocol v2)', () => {
    it('serves count_words and add_note with schema-valid results; a bad input is the tool’s own failure', async () => {
      const d = await started();
      const call = (name: string, args: unknown) =>
        d.call<{ content: string; isError?: boolean }>('extension/tool/call', {
          name,
          arguments: args,
          timeoutMillis: 300_000,
        });
      const counted = await call('count_words', { text: 'one two  three' });
      assert.ok(showcaseProtocol.validateResult('extension/tool/call', counted).ok);
      assert.deepEqual(counted, { content: '3 words; the longest is "three"' });
      assert.deepEqual(await call('count_words', {}), {
        content: 'count_words needs {"text": "<some text>"}',
        isError: true,
      });
      assert.deepEqual(await call('add_note', { text: 'ship v2' }), { content: 'noted (1 note so far)' });
      const unknown = await d.request('extension/tool/call', { name: 'nope', arguments: {}, timeoutMillis: 1000 });
      assert.equal(unknown.error?.code, -32601);
      assert.equal(unknown.error?.data?.reason, 'unknown_method');
      const panel = await d.surface<{ fields: { key: string; value: string }[] }>('activity', (p) =>
        p.fields.some((f) => f.key === 'Latest note' && f.value === 'ship v2'),
      );
      assert.ok(panel.fields.some((f) => f.key === 'Tool calls' && /count_words ×2, add_note ×1/.test(f.value)));
    });

    it('publishes its panel and view in place: the same surface ids, every payload one the host accepts', async () => {
      const d = await started();
      await d.surface('indexing', (p: StatusPayload) => p.progress === undefined);
      await d.surface('activity', (p: { progress?: number }) => p.progress === undefined, 'the settled panel');
      await d.surface('dashboard', (p: { body: { kind: string; progress?: number }[] }) =>
        p.body.some((n) => n.kind === 'meter' && n.progress === 1),
      );
      const live = d.publishes().filter((p) => p.kind === 'panel' || p.kind === 'view');
      assert.deepEqual([...new Set(live.map((p) => `${p.kind}:${p.surfaceId}`))].sort(), [
        'panel:activity',
        'view:dashboard',
      ]);
      for (const p of live) decodePublishPayload(p.kind as SurfaceKind, p.payload); // throws on any deviation
      const panels = live.filter((p) => p.kind === 'panel').map((p) => p.payload as { progress?: number });
      assert.ok(panels.some((p) => p.progress !== undefined) && panels.at(-1)?.progress === undefined);
    });
  });

  describe('surfaces', () => {
    it('publishes valid surfaces with its session and generation, and the status progress advances then settles', async () => {
      const d = await started();
      const settled = await d.surface<StatusPayload>(
        'indexing',
        (p) => p.progress === undefined,
        'settled indexing status',
      );
      assert.equal(settled.label, 'Indexed 3 files');
      await d.surface('notes-summary');

      for (const p of d.publishes()) {
        const v = showcaseProtocol.validateParams('host/ui/publish', p);
        assert.ok(v.ok, v.ok ? '' : v.message);
        assert.equal(p.sessionId, 'session-1');
        assert.equal(p.generation, 3);
        decodePublishPayload(p.kind as SurfaceKind, p.payload); // throws invalid_params on any deviation
      }
      const progress = d
        .publishes()
        .filter((p) => p.surfaceId === 'indexing')
        .map((p) => (p.payload as StatusPayload).progress)
        .filter((x): x is number => x !== undefined);
      assert.ok(progress.length >= 3, `several progress steps, got ${progress}`);
      for (let i = 1; i < progress.length; i++)
        assert.ok(progress[i] > progress[i - 1], `progress advances: ${progress}`);
      assert.ok(progress.every((x) => x >= 0 && x < 1));
      const labels = d
        .publishes()
        .filter((p) => p.surfaceId === 'indexing')
        .map((p) => (p.payload as StatusPayload).label);
      assert.ok(labels.includes('Indexing… 40%'), labels.join(' | '));

      const kinds = new Set(d.publishes().map((p) => p.kind));
      assert.deepEqual([...kinds].sort(), ['card', 'form', 'notification', 'panel', 'status', 'view']);

      const controls = await d.surface<CardPayload>('controls');
      const declared = ['refresh', 'pick-theme', 'reset-notes', 'greet'];
      assert.deepEqual(
        controls.actions?.map((a) => a.actionId),
        declared,
      );
      assert.ok(controls.markdown && controls.fields?.length);

      const form = d.publishes().find((p) => p.surfaceId === 'notes');
      assert.equal(form?.kind, 'form');
      const fields = (form?.payload as { fields: { kind: string; required?: boolean; default?: unknown }[] }).fields;
      assert.deepEqual(fields.map((f) => f.kind).sort(), ['confirm', 'input', 'multiselect', 'select']);
      assert.ok(fields.some((f) => f.required === true));
      assert.ok(fields.every((f) => 'default' in f));
      assert.ok(
        d
          .publishes()
          .some((p) => p.kind === 'notification' && (p.payload as { title: string }).title === 'Showcase is ready'),
      );
    });

    it('updates the Recent changes card on every resources/changed, keeping the newest 10 paths', async () => {
      const d = await started();
      const empty = await d.surface<CardPayload>('recent-changes');
      assert.equal(field(empty, 'Notifications'), '0');

      d.notify('extension/resources/changed', { paths: ['src/a.ts', 'README.md'] });
      const one = await d.surface<CardPayload>('recent-changes', (c) => field(c, 'Notifications') === '1');
      assert.equal(field(one, 'Paths reported'), '2');
      assert.match(one.markdown ?? '', /`README\.md`[\s\S]*`src\/a\.ts`/);

      const burst = Array.from({ length: 12 }, (_, i) => `f${i}.txt`);
      d.notify('extension/resources/changed', { paths: [...burst, 'src/a.ts'] });
      const two = await d.surface<CardPayload>('recent-changes', (c) => field(c, 'Notifications') === '2');
      assert.equal(field(two, 'Paths reported'), '15');
      assert.equal(field(two, 'Distinct files'), '14');
      const listed = (two.markdown ?? '').split('\n');
      assert.equal(listed.length, 10);
      assert.equal(listed[0], '- `src/a.ts`', 'a path seen again moves to the top');
      assert.equal(listed[1], '- `f11.txt`');

      d.notify('extension/resources/changed', { paths: null }); // malformed: dropped, no card update
      d.notify('extension/resources/changed', { paths: [] });
      const three = await d.surface<CardPayload>('recent-changes', (c) => field(c, 'Notifications') === '3');
      assert.equal(field(three, 'Paths reported'), '15');
    });

    it('reflects the session.start event in the Session card', async () => {
      const d = await started();
      const waiting = await d.surface<CardPayload>('session');
      assert.match(waiting.text ?? '', /Waiting/);
      d.notify('extension/event', { event: 'session.start', payload: { sessionPath: '/tmp/s.jsonl', phase: 'start' } });
      const card = await d.surface<CardPayload>('session', (c) => /Session started at/.test(c.text ?? ''));
      assert.equal(field(card, 'Session file'), '/tmp/s.jsonl');
    });
  });

  describe('actions and forms', () => {
    it('pick-theme asks a select prompt and shows the answer on the card', async () => {
      const asked: UIRequestParams[] = [];
      const d = await started({
        prompt: (p) => {
          asked.push(p);
          return { cancelled: false, values: { theme: 'Monokai' } };
        },
      });
      const params = { actionId: 'pick-theme', sessionId: 'session-1', generation: 3 };
      assert.ok(showcaseProtocol.validateParams('extension/ui/action', params).ok);
      const r = await d.call('extension/ui/action', params);
      assert.ok(showcaseProtocol.validateResult('extension/ui/action', r).ok);
      assert.deepEqual(r, { accepted: true, message: 'Theme set to Monokai' });
      assert.equal(asked.length, 1);
      assert.ok(showcaseProtocol.validateParams('host/ui/request', asked[0]).ok);
      assert.equal(asked[0].kind, 'select');
      assert.equal(asked[0].generation, 3);
      const form = decodeRequestPayload(asked[0].payload);
      assert.ok(form.fields[0].options?.includes('Monokai'));
      await d.surface<CardPayload>(
        'controls',
        (c) => field(c, 'Theme') === 'Monokai' && field(c, 'Actions run') === '1',
        'themed card',
      );
    });

    it('a dismissed prompt leaves the theme alone; a stale generation is refused', async () => {
      const d = await started(); // the default prompt answer is "dismissed"
      assert.deepEqual(
        await d.call('extension/ui/action', { actionId: 'pick-theme', sessionId: 'session-1', generation: 3 }),
        {
          accepted: true,
          message: 'Theme unchanged',
        },
      );
      const stale = await d.call('extension/ui/action', { actionId: 'greet', sessionId: 'session-1', generation: 2 });
      assert.equal(stale.accepted, false);
      const greet = await d.call('extension/ui/action', {
        actionId: 'greet',
        sessionId: 'session-1',
        generation: 3,
        args: { name: 'Ada' },
      });
      assert.deepEqual(greet, { accepted: true, message: 'Hello, Ada!' });
      const toast = await d.waitFor(
        (f) =>
          f.method === 'host/ui/publish' &&
          (f.params as { kind: string; payload: { body?: string } }).payload.body === 'Hello, Ada!',
        'a notification for the action',
      );
      assert.equal((toast.params as { kind: string }).kind, 'notification');
    });

    it('a form submit updates the notes card; reset-notes confirms and clears it', async () => {
      let confirm = false;
      const asked: UIRequestParams[] = [];
      const d = await started({
        prompt: (p) => {
          asked.push(p);
          return { cancelled: false, values: { value: confirm } };
        },
      });
      await d.surface('notes-summary');
      const values = { title: 'Ship it', mood: 'curious', tags: ['bug', 'docs'], pin: true };
      const submit = { surfaceId: 'notes', sessionId: 'session-1', generation: 3, values };
      assert.ok(showcaseProtocol.validateParams('extension/ui/submit', submit).ok);
      assert.deepEqual(await d.call('extension/ui/submit', submit), { accepted: true });
      const card = await d.surface<CardPayload>('notes-summary', (c) => field(c, 'Mood') === 'curious');
      assert.equal(card.title, '📌 Your notes');
      assert.equal(field(card, 'Tags'), 'bug, docs');
      assert.match(card.markdown ?? '', /Ship it/);

      assert.deepEqual(await d.call('extension/ui/submit', { ...submit, values: { title: '' } }), { accepted: false });
      assert.deepEqual(await d.call('extension/ui/submit', { ...submit, surfaceId: 'other' }), { accepted: false });

      const kept = await d.call('extension/ui/action', {
        actionId: 'reset-notes',
        sessionId: 'session-1',
        generation: 3,
      });
      assert.deepEqual(kept, { accepted: true, message: 'Notes kept' });
      assert.equal(asked[0].kind, 'confirm');
      assert.deepEqual((asked[0].payload as { fields: unknown[] }).fields, []);
      confirm = true;
      const cleared = await d.call('extension/ui/action', {
        actionId: 'reset-notes',
        sessionId: 'session-1',
        generation: 3,
      });
      assert.deepEqual(cleared, { accepted: true, message: 'Notes cleared' });
      await d.surface<CardPayload>('notes-summary', (c) => /Nothing saved yet/.test(c.text ?? ''), 'cleared notes');
    });
  });

  describe('intercepts', () => {
    const intercept = (payload: unknown, event = 'tool.before', seq = 1) => ({
      event,
      seq,
      timeoutMillis: 5000,
      payload,
    });

    it('blocks rm_rf, rewrites echo arguments and continues otherwise', async () => {
      const d = await started();
      const check = async (params: ReturnType<typeof intercept>) => {
        assert.ok(showcaseProtocol.validateParams('extension/intercept', params).ok);
        const r = await d.call('extension/intercept', params);
        const v = showcaseProtocol.validateResult('extension/intercept', r);
        assert.ok(v.ok, v.ok ? '' : v.message);
        return r as { decision: string; reason?: string; replacement?: { name: string; arguments: string } };
      };
      const blocked = await check(intercept({ name: 'rm_rf', arguments: '{"path":"/"}' }));
      assert.equal(blocked.decision, 'block');
      assert.match(blocked.reason ?? '', /rm_rf/);

      const replaced = await check(intercept({ name: 'echo', arguments: '{"text":"hi"}' }, 'tool.before', 2));
      assert.equal(replaced.decision, 'replace');
      assert.ok(validateDef('HookToolBefore', replaced.replacement).ok, 'replacement fits the tool.before payload');
      assert.equal(replaced.replacement?.name, 'echo');
      assert.deepEqual(JSON.parse(replaced.replacement?.arguments ?? ''), { text: 'hi', via: 'showcase' });

      assert.equal(
        (await check(intercept({ name: 'echo', arguments: '{"text":"hi","via":"showcase"}' }, 'tool.before', 3)))
          .decision,
        'continue',
      );
      assert.equal(
        (await check(intercept({ name: 'read_file', arguments: '{}' }, 'tool.before', 4))).decision,
        'continue',
      );
      assert.equal((await check(intercept({ text: 'rm_rf' }, 'input.receive', 5))).decision, 'continue');
      // Its panel counts what it saw at tool.before, per tool: an agent's call should show up once.
      const panel = await d.surface<{ fields: { key: string; value: string }[] }>('activity', (p) =>
        p.fields.some((f) => f.key === 'Tool rulings' && /read_file ×1/.test(f.value)),
      );
      assert.equal(
        panel.fields.find((f) => f.key === 'Tool rulings')?.value,
        'rm_rf ×1 (1 blocked), echo ×2, read_file ×1',
      );
    });

    it('blocks a provider.request marked [showcase:block], rewrites one marked [showcase:rewrite], continues otherwise', async () => {
      const d = await started();
      const req = (content: string) => ({
        request: {
          messages: [
            { role: 'system', content: 'be brief' },
            { role: 'user', content },
          ],
          tools: [],
          maxTokens: 64,
        },
      });
      const ask = async (payload: unknown, seq: number) => {
        const params = intercept(payload, 'provider.request', seq);
        assert.ok(showcaseProtocol.validateParams('extension/intercept', params).ok);
        return d.call<{ decision: string; reason?: string; replacement?: unknown }>('extension/intercept', params);
      };
      const blocked = await ask(req('please [showcase:block] this'), 1);
      assert.equal(blocked.decision, 'block');
      assert.match(blocked.reason ?? '', /\[showcase:block\]/);
      const rewritten = await ask(req('hi [showcase:rewrite]!'), 2);
      assert.equal(rewritten.decision, 'replace');
      assert.ok(
        validateDef('HookProviderRequest', rewritten.replacement).ok,
        'replacement fits the provider.request payload',
      );
      assert.deepEqual((rewritten.replacement as ReturnType<typeof req>).request.messages, [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi (rewritten by showcase)!' },
      ]);
      assert.equal((await ask(req('plain'), 3)).decision, 'continue');
    });

    it('reads an externalized payload back through host/content/read', async () => {
      const store = new ContentStore();
      const big = { name: 'echo', arguments: JSON.stringify({ text: 'y'.repeat(300 * 1024) }) };
      const descriptor = store.put('/payload', Buffer.from(JSON.stringify(big)));
      const reads: number[] = [];
      const d = await started({
        serve: (method, params) => {
          assert.equal(method, 'host/content/read');
          assert.ok(showcaseProtocol.validateParams('host/content/read', params).ok);
          reads.push((params as { offset: number }).offset);
          return store.read(params as { contentRef: string; offset: number });
        },
      });
      const r = await d.call<{ decision: string; replacement: { arguments: string } }>('extension/intercept', {
        event: 'tool.before',
        seq: 1,
        timeoutMillis: 5000,
        payload: null,
        externalized: [descriptor],
      });
      assert.equal(r.decision, 'replace');
      assert.equal(JSON.parse(r.replacement.arguments).via, 'showcase');
      assert.deepEqual(reads, [0, 262144]);
    });
  });

  describe('provider', () => {
    const openParams = (streamId: string, text: string, seqBase = 1) => ({
      streamId,
      providerRef: 'plugin/showcase/echo/echo-1',
      model: 'echo-1',
      request: { messages: [{ role: 'user', content: text }], tools: [], maxTokens: 256 },
      seqBase,
    });
    const chunksOf = (d: SidecarDriver, streamId: string) =>
      d.frames.filter(
        (f) =>
          f.method === 'extension/provider/stream/chunk' && (f.params as { streamId: string }).streamId === streamId,
      );
    const endOf = (d: SidecarDriver, streamId: string): Promise<Frame> =>
      d.waitFor(
        (f) => f.method === 'extension/provider/stream/end' && (f.params as { streamId: string }).streamId === streamId,
        `end of ${streamId}`,
      );

    it('lists one model and streams text, usage and done with contiguous seqs from seqBase', async () => {
      const d = await started();
      const catalog = await d.call('extension/provider/catalog', {});
      assert.ok(showcaseProtocol.validateResult('extension/provider/catalog', catalog).ok);
      const params = openParams('es_1', 'hello there streaming world', 5);
      assert.ok(showcaseProtocol.validateParams('extension/provider/stream/open', params).ok);
      assert.deepEqual(await d.call('extension/provider/stream/open', params), { accepted: true });
      const end = (await endOf(d, 'es_1')).params as { lastSeq: number; interrupted?: boolean };
      const chunks = chunksOf(d, 'es_1').map(
        (f) => f.params as { seq: number; chunk: { type: string; text?: string } },
      );
      for (const c of chunks) assert.ok(showcaseProtocol.validateParams('extension/provider/stream/chunk', c).ok);
      assert.deepEqual(
        chunks.map((c) => c.seq),
        chunks.map((_, i) => 5 + i),
      );
      assert.ok(showcaseProtocol.validateParams('extension/provider/stream/end', end).ok);
      assert.deepEqual(end, { streamId: 'es_1', lastSeq: chunks[chunks.length - 1].seq });
      const types = chunks.map((c) => c.chunk.type);
      assert.ok(types.filter((t) => t === 'text').length >= 3);
      assert.deepEqual(types.slice(-2), ['usage', 'done']);
      assert.equal(chunks.map((c) => c.chunk.text ?? '').join(''), 'Echo: hello there streaming world');
    });

    it('honours cancel: no chunk after it, ends interrupted with the last sent seq', async () => {
      const d = await started({ env: { SHOWCASE_CHUNK_MS: '25' } });
      const words = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
      assert.deepEqual(await d.call('extension/provider/stream/open', openParams('es_2', words)), { accepted: true });
      await d.waitFor((f) => f.method === 'extension/provider/stream/chunk', 'first chunk');
      assert.deepEqual(await d.call('extension/provider/stream/cancel', { streamId: 'es_2' }), { cancelled: true });
      const end = (await endOf(d, 'es_2')).params as { lastSeq: number; interrupted?: boolean };
      assert.equal(end.interrupted, true);
      // A round trip after the end: anything still queued would have arrived by now.
      assert.deepEqual(await d.call('extension/provider/stream/cancel', { streamId: 'es_2' }), { cancelled: false });
      const seqs = chunksOf(d, 'es_2').map((f) => (f.params as { seq: number }).seq);
      assert.deepEqual(
        seqs,
        seqs.map((_, i) => i + 1),
      );
      assert.equal(end.lastSeq, seqs[seqs.length - 1]);
      assert.ok(seqs.length < 200, 'stopped early');
      const endAt = d.frames.findIndex((f) => f.method === 'extension/provider/stream/end');
      assert.ok(d.frames.slice(endAt).every((f) => f.method !== 'extension/provider/stream/chunk'));
    });

    it('calls the first offered tool, then echoes the tool result: a tool round trip', async () => {
      const d = await started();
      const tool = {
        name: 'lookup',
        description: 'Looks a word up',
        parameters: { type: 'object', properties: { text: { type: 'string' } } },
      };
      const open = (streamId: string, messages: unknown[]) =>
        d.call('extension/provider/stream/open', {
          streamId,
          providerRef: 'plugin/showcase/echo/echo-1',
          model: 'echo-1',
          request: { messages, tools: [tool], maxTokens: 64 },
          seqBase: 1,
        });
      const user = { role: 'user', content: 'find otters' };
      assert.deepEqual(await open('es_t1', [user]), { accepted: true });
      await endOf(d, 'es_t1');
      const first = chunksOf(d, 'es_t1').map(
        (f) =>
          (
            f.params as {
              chunk: { type: string; text?: string; toolCall?: { id: string; name: string; arguments: string } };
            }
          ).chunk,
      );
      for (const c of first) assert.ok(validateDef('ProviderChunk', c).ok, JSON.stringify(c));
      const call = first.find((c) => c.type === 'tool_call')?.toolCall;
      assert.ok(call, 'a tool_call chunk');
      assert.equal(call.name, 'lookup');
      assert.deepEqual(JSON.parse(call.arguments), { text: 'find otters' });
      assert.equal(first.map((c) => c.text ?? '').join(''), 'Calling lookup. ');
      const answer = [
        user,
        { role: 'assistant', content: '', tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: 'otters are mustelids' },
      ];
      assert.deepEqual(await open('es_t2', answer), { accepted: true });
      await endOf(d, 'es_t2');
      const second = chunksOf(d, 'es_t2').map((f) => (f.params as { chunk: { type: string; text?: string } }).chunk);
      assert.ok(!second.some((c) => c.type === 'tool_call'), 'no second call');
      assert.equal(second.map((c) => c.text ?? '').join(''), `Echo: tool result ${call.id}: otters are mustelids`);
    });

    it('streams as fast as the pipe takes chunks with SHOWCASE_CHUNK_MS=0, complete and in order', async () => {
      const d = await started({ env: { SHOWCASE_CHUNK_MS: '0' } });
      const words = Array.from({ length: 999 }, (_, i) => `w${i}`).join(' ');
      assert.deepEqual(await d.call('extension/provider/stream/open', openParams('es_f', words)), { accepted: true });
      const end = (await endOf(d, 'es_f')).params as { lastSeq: number };
      const chunks = chunksOf(d, 'es_f').map(
        (f) => f.params as { seq: number; chunk: { type: string; text?: string } },
      );
      assert.equal(chunks.filter((c) => c.chunk.type === 'text').length, 1000);
      assert.deepEqual(
        chunks.map((c) => c.seq),
        chunks.map((_, i) => i + 1),
      );
      assert.equal(end.lastSeq, chunks.length);
      assert.equal(chunks.map((c) => c.chunk.text ?? '').join(''), `Echo: ${words}`);
    });

    it('declines a model it does not own', async () => {
      const d = await started();
      assert.deepEqual(
        await d.call('extension/provider/stream/open', {
          ...openParams('es_3', 'x'),
          providerRef: 'plugin/other/echo/echo-1',
        }),
        { accepted: false },
      );
    });
  });

  describe('shutdown', () => {
    it('answers shutdown with accepted:true and exits 0', async () => {
      const d = await started();
      await d.surface('notes-summary');
      const s = await d.shutdown();
      assert.deepEqual(s.result, { accepted: true });
      assert.equal(s.code, 0);
    });

    it('exits 0 on stdin EOF, even mid-stream', async () => {
      const d = await started({ env: { SHOWCASE_CHUNK_MS: '50' } });
      await d.call('extension/provider/stream/open', {
        streamId: 'es_9',
        providerRef: 'plugin/showcase/echo',
        request: { messages: [], tools: [], maxTokens: 0 },
        seqBase: 1,
      });
      d.child.stdin.end();
      assert.equal((await d.exited).code, 0);
    });
  });
});
