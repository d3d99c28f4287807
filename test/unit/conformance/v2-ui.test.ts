// Protocol v2 surfaces (HOST_SPEC_V2 §7.2-7.3, cases V2-39..V2-46) published by a real fixture
// sidecar speaking v2 (test/fixtures/ui/ui.js answers in the protocol it is asked in), through the
// real Sidecar, the connection's v2 schema check and the UI hub's strict decoders.
import { strict as assert } from 'node:assert';
import { Sidecar } from '../../../src/host/sidecar';
import { attachSidecar, SurfaceStore, uiHandlers, UiHub } from '../../../src/host/ui';
import type { ViewNode } from '../../../src/protocol';
import { silentLogger } from '../../../src/host/log';
import { fixtureSpec, ROOT } from '../streams/real-support';
import { FakeFrontEnd } from '../ui/fakes';

interface Report {
  result?: { accepted: boolean };
  error?: { code: number; message: string; data?: { reason: string } };
}

const text = (value: string): ViewNode => ({ kind: 'text', value });
const nest = (depth: number): ViewNode => (depth === 1 ? text('leaf') : { kind: 'stack', children: [nest(depth - 1)] });
const KEY = 'sk-live-abcdef0123456789XYZ';

function start(protocol: 1 | 2, store: SurfaceStore, warnings: string[] = []) {
  const logger = { ...silentLogger, warn: (m: string) => warnings.push(m) };
  const hub = new UiHub({ sessionKey: 'k1', folderName: 'proj', store, frontEnd: new FakeFrontEnd(), logger });
  const sidecar = new Sidecar({
    plugin: { ...fixtureSpec('ui', 'ui/ui.js', [], ['ui']), protocol },
    session: { sessionId: 'boot-1', workspaceRoot: ROOT, generation: 1 },
    uiHost: 'desktop',
    handlers: uiHandlers(hub, 'ui'),
    timeouts: { shutdownRequestMs: 1000, exitGraceMs: 200, reapMs: 2000 },
  });
  attachSidecar(hub, sidecar);
  return { hub, sidecar };
}

describe('conformance: protocol v2 panels and views (HOST_SPEC_V2 §7)', function () {
  this.timeout(15000);
  let sidecar: Sidecar | undefined;
  let store: SurfaceStore;
  let hub: UiHub;
  let warnings: string[];

  beforeEach(async () => {
    store = new SurfaceStore();
    warnings = [];
    ({ hub, sidecar } = start(2, store, warnings));
    await sidecar.start();
  });
  afterEach(async () => {
    await sidecar?.stop();
    sidecar = undefined;
  });

  async function publish(kind: string, payload: unknown, surfaceId = 's1'): Promise<Report> {
    const r = await hub.invokeAction('ui', 'publish-raw', { kind, payload: JSON.stringify(payload), surfaceId });
    assert.equal(r.accepted, true);
    return JSON.parse(r.message ?? '{}') as Report;
  }
  function assertRejected(r: Report, message: RegExp): void {
    assert.equal(r.error?.code, -32602, JSON.stringify(r));
    assert.equal(r.error?.data?.reason, 'invalid_params');
    assert.match(r.error?.message ?? '', message);
  }
  const shown = () => store.snapshot().filter((s) => s.pluginId === 'ui');

  it('V2-39: a panel published twice with one surfaceId is one panel, replaced in place; accepted both times', async () => {
    assert.deepEqual((await publish('panel', { title: 'Build', text: 'running', progress: 0.5 })).result, {
      accepted: true,
    });
    assert.deepEqual(
      (
        await publish('panel', {
          title: 'Build',
          text: 'done',
          fields: [{ key: 'tests', value: '12' }],
          actions: [{ actionId: 'demo', label: 'Again' }],
        })
      ).result,
      { accepted: true },
    );
    const panels = shown();
    assert.equal(panels.length, 1);
    assert.equal(panels[0].kind, 'panel');
    assert.deepEqual(panels[0].payload, {
      title: 'Build',
      text: 'done',
      fields: [{ key: 'tests', value: '12' }],
      actions: [{ actionId: 'demo', label: 'Again' }],
    });
    assert.deepEqual((await publish('panel', {})).result, { accepted: true }, 'an empty panel is accepted');
  });

  it('V2-40: a panel with markdown (or html, or a bad action id) is refused invalid_params', async () => {
    assertRejected(
      await publish('panel', { title: 't', markdown: '# x' }),
      /invalid panel payload: .*unknown member 'markdown'/,
    );
    assertRejected(await publish('panel', { html: '<b>' }), /unknown member 'html'/);
    assertRejected(await publish('panel', { actions: [{ actionId: 'Bad_Id', label: 'x' }] }), /actionId/);
    assert.equal(shown().length, 0);
  });

  it('V2-41: 200 nodes are accepted, 201 refused ("more than 200 nodes")', async () => {
    const ok = { body: [{ kind: 'stack', children: Array.from({ length: 199 }, (_, i) => text(`n${i}`)) }] };
    assert.deepEqual((await publish('view', ok)).result, { accepted: true });
    const over = { body: [{ kind: 'stack', children: Array.from({ length: 200 }, (_, i) => text(`n${i}`)) }] };
    assertRejected(await publish('view', over, 'v2'), /more than 200 nodes/);
  });

  it('V2-42: 8 levels are accepted, 9 refused', async () => {
    assert.deepEqual((await publish('view', { body: [nest(8)] })).result, { accepted: true });
    assertRejected(await publish('view', { body: [nest(9)] }, 'v2'), /nested 9 levels deep, more than the 8/);
  });

  it('V2-43: byte caps on value (4,000), key (200) and slot (64), counted in UTF-8 bytes', async () => {
    assertRejected(await publish('view', { body: [text('x'.repeat(4001))] }), /value is 4001 bytes, over the 4000/);
    assert.deepEqual((await publish('view', { body: [text('é'.repeat(2000))] })).result, { accepted: true });
    assertRejected(await publish('view', { body: [text('é'.repeat(2001))] }), /4002 bytes/);
    assertRejected(
      await publish('view', { body: [{ kind: 'kv', key: 'k'.repeat(201) }] }),
      /key is 201 bytes, over the 200/,
    );
    assertRejected(await publish('view', { slot: 's'.repeat(65), body: [text('x')] }), /slot is 65 bytes, over the 64/);
  });

  it('V2-44: slot with anchor, a bare or non-tool anchor, an empty body are refused', async () => {
    assertRejected(
      await publish('view', { slot: 'a', anchor: 'tool:1', body: [text('x')] }),
      /a slot or an anchor, not both/,
    );
    assertRejected(await publish('view', { anchor: 'tool:', body: [text('x')] }), /anchor must be "tool:<callId>"/);
    assertRejected(await publish('view', { anchor: 'run:1', body: [text('x')] }), /anchor must be "tool:<callId>"/);
    assertRejected(await publish('view', { body: [] }), /body must be a non-empty array/);
    assert.deepEqual((await publish('view', { anchor: 'tool:call-7', body: [text('x')] })).result, { accepted: true });
  });

  it('V2-45: meter progress out of range or missing, an empty row, a leaf with children, an unknown kind are refused', async () => {
    assertRejected(
      await publish('view', { body: [{ kind: 'meter', progress: 1.2 }] }),
      /meter node needs a "progress" between 0 and 1/,
    );
    assertRejected(await publish('view', { body: [{ kind: 'meter' }] }), /meter node needs a "progress"/);
    assertRejected(
      await publish('view', { body: [{ kind: 'row', children: [] }] }),
      /a row node needs at least one child/,
    );
    assertRejected(
      await publish('view', { body: [{ kind: 'text', value: 'x', children: [text('y')] }] }),
      /a text node takes no children/,
    );
    assertRejected(
      await publish('view', { body: [{ kind: 'image' }] }),
      /body\[0\]\.kind "image" is not a view node kind/,
    );
    assertRejected(await publish('view', { body: [{ kind: 'pip' }] }), /a pip node needs a non-empty "tone"/);
    assertRejected(
      await publish('view', { body: [{ kind: 'button', label: 'x' }] }),
      /a button node needs a non-empty "actionId"/,
    );
  });

  it('V2-46: every sidecar string is redacted at every depth; ids and tones are kept; unknown tones dropped', async () => {
    const deep: ViewNode = {
      kind: 'row',
      children: [
        { kind: 'stack', children: [{ kind: 'kv', key: `key ${KEY}`, value: `api_key=${KEY}` }] },
        { kind: 'meter', progress: 0.3, label: `token ${KEY}` },
        { kind: 'button', actionId: 'demo', label: `go ${KEY}` },
        { kind: 'text', value: 'plain', tone: 'purple' as ViewNode['tone'] },
        { kind: 'pip', tone: 'ok' },
      ],
    };
    assert.deepEqual((await publish('view', { body: [deep] })).result, { accepted: true });
    const view = shown()[0];
    assert.equal(view.kind, 'view');
    const json = JSON.stringify(view.payload);
    assert.ok(!json.includes(KEY), json);
    const row = view.kind === 'view' ? view.payload.body[0] : undefined;
    assert.equal(row?.children?.[2].actionId, 'demo');
    assert.equal(row?.children?.[3].tone, undefined, 'an unknown tone renders as none');
    assert.equal(row?.children?.[4].tone, 'ok');
  });

  it('a refused view keeps the last good version shown, and the refusal reaches the extension and the log', async () => {
    const good = { body: [{ kind: 'stack', children: [text('good')] }] };
    assert.deepEqual((await publish('view', good, 'dash')).result, { accepted: true });
    const over = { body: [{ kind: 'stack', children: Array.from({ length: 200 }, (_, i) => text(`n${i}`)) }] };
    assertRejected(await publish('view', over, 'dash'), /more than 200 nodes/);
    assertRejected(await publish('view', { body: [nest(9)] }, 'dash'), /nested 9 levels deep/);
    const kept = shown();
    assert.equal(kept.length, 1);
    assert.deepEqual(kept[0].kind === 'view' && kept[0].payload.body, good.body);
    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.match(warnings[0], /^ui: view dash refused \(.*more than 200 nodes.*\); the last good version stays shown$/);
  });

  it('V2-47/V2-48: an anchor to no tool call of ours and an unknown slot are kept, to render in the default place', async () => {
    const anchored = { anchor: 'tool:call-that-is-not-ours', body: [text('anchored')] };
    const slotted = { slot: 'nowhere', body: [text('slotted')] };
    const trailing = { slot: 'composer-trailing', body: [text('trailing')] };
    for (const [id, v] of [
      ['a', anchored],
      ['b', slotted],
      ['c', trailing],
    ] as const)
      assert.deepEqual((await publish('view', v, id)).result, { accepted: true });
    const byId = new Map(shown().map((s) => [s.surfaceId, s]));
    assert.deepEqual([...byId.keys()].sort(), ['a', 'b', 'c']);
    const payload = (id: string) => {
      const s = byId.get(id);
      return s?.kind === 'view' ? s.payload : undefined;
    };
    assert.equal(payload('a')?.anchor, 'tool:call-that-is-not-ours');
    assert.equal(payload('b')?.slot, 'nowhere');
    assert.equal(payload('c')?.slot, 'composer-trailing');
  });

  it('V2-50: a view button whose actionId the plugin did not declare sends nothing and says "declared no action"', async () => {
    const v = { body: [{ kind: 'button', actionId: 'not-declared', label: 'Nope' }] };
    assert.deepEqual((await publish('view', v, 'btn')).result, { accepted: true });
    await assert.rejects(hub.invokeAction('ui', 'not-declared'), /plugin ui declared no action not-declared/);
    const r = await hub.invokeAction('ui', 'report');
    const received = JSON.parse(r.message ?? '[]') as { params: { actionId: string } }[];
    assert.ok(received.length > 0, 'the fixture records the actions it was sent');
    assert.ok(!received.some((m) => m.params.actionId === 'not-declared'), JSON.stringify(received));
  });

  it('a v1 sidecar cannot publish a panel or a view: its schema has neither kind', async () => {
    await sidecar?.stop();
    ({ hub, sidecar } = start(1, store));
    await sidecar.start();
    for (const kind of ['panel', 'view']) {
      const r = await publish(kind, kind === 'view' ? { body: [text('x')] } : {});
      assert.equal(r.error?.code, -32602, JSON.stringify(r));
      assert.match(r.error?.message ?? '', /kind/);
    }
    assert.equal(shown().length, 0);
  });
});
