import { strict as assert } from 'node:assert';
import {
  ProtocolError,
  surfaceKey,
  type SurfaceChange,
  type UIPublishParams,
  type UIRequestParams,
} from '../../../src/protocol';
import { SurfaceStore, UiHub } from '../../../src/host/ui';
import { FakeFrontEnd, FakeUiClient, publish } from './fakes';

const SECRET = 'api_key=sk-live-abcdef0123456789XYZ';

function setup() {
  const store = new SurfaceStore();
  const changes: SurfaceChange[] = [];
  store.onDidChange((c) => changes.push(c));
  const frontEnd = new FakeFrontEnd();
  const hub = new UiHub({ sessionKey: 'k1', folderName: 'proj', store, frontEnd });
  const client = new FakeUiClient();
  hub.bind('ui', 'boot-2', 2, client);
  const pub = (kind: UIPublishParams['kind'], payload: unknown, over: Record<string, unknown> = {}) =>
    publish(hub, 'ui', { surfaceId: 's1', sessionId: 'boot-2', generation: 2, kind, payload, ...over });
  return { store, changes, frontEnd, hub, client, pub };
}

function rejects(fn: () => unknown, reason: string): void {
  assert.throws(fn, (e: unknown) => e instanceof ProtocolError && e.reason === reason);
}

describe('ui: UiHub gate, decoding and store (in-process)', () => {
  it('stores a status, replaces it in place with a higher revision (case 56)', () => {
    const { store, changes, pub } = setup();
    assert.deepEqual(pub('status', { label: 'Indexing', progress: 0.5 }), { accepted: true });
    const first = store.get('k1', 'ui', 's1');
    assert.equal(first?.kind, 'status');
    assert.deepEqual(pub('status', { label: 'Done', severity: 'info', progress: 7 }), { accepted: true });
    const snap = store.snapshot();
    assert.equal(snap.length, 1);
    assert.deepEqual(snap[0].payload, { label: 'Done', severity: 'info', progress: 1 });
    assert.ok(snap[0].revision > (first?.revision ?? 0));
    assert.deepEqual(
      changes.map((c) => c.type),
      ['upsert', 'upsert'],
    );
    assert.equal(snap[0].folderName, 'proj');
    assert.equal(snap[0].generation, 2);
  });

  it('stale generation or session: accepted:false, nothing stored, checked before payload validation (case 57)', () => {
    const { store, pub } = setup();
    assert.deepEqual(pub('status', { label: 'old' }, { generation: 1 }), { accepted: false });
    assert.deepEqual(pub('card', { html: '<b>x</b>' }, { generation: 1 }), { accepted: false });
    assert.deepEqual(pub('status', { label: 'other' }, { sessionId: 'boot-1' }), { accepted: false });
    assert.equal(store.snapshot().length, 0);
  });

  it('rejects a card with an html member and unknown members as invalid_params (case 58)', () => {
    const { store, pub } = setup();
    rejects(() => pub('card', { title: 't', html: '<script>x</script>' }), 'invalid_params');
    rejects(() => pub('status', { label: 'x', color: 'red' }), 'invalid_params');
    rejects(() => pub('status', { label: '   ' }), 'invalid_params');
    rejects(() => pub('notification', { body: 'no title' }), 'invalid_params');
    rejects(() => pub('form', { title: 'no fields' }), 'invalid_params');
    rejects(() => pub('form', { fields: [{ key: 'a', kind: 'date' }] }), 'invalid_params');
    assert.equal(store.snapshot().length, 0);
  });

  it('gate order: unknown plugin → internal, crashed → provider_interrupted even when stale', () => {
    const { hub } = setup();
    rejects(
      () =>
        publish(hub, 'nobody', {
          surfaceId: 's',
          sessionId: 'boot-2',
          generation: 2,
          kind: 'status',
          payload: { label: 'x' },
        }),
      'internal',
    );
    hub.markCrashed('ui');
    rejects(
      () =>
        publish(hub, 'ui', {
          surfaceId: 's',
          sessionId: 'boot-2',
          generation: 1,
          kind: 'status',
          payload: { label: 'x' },
        }),
      'provider_interrupted',
    );
  });

  it('a crashed plugin stays rejected until it is bound again (case 62)', async () => {
    const { hub, store, pub } = setup();
    pub('status', { label: 'up' });
    hub.markCrashed('ui');
    assert.equal(store.snapshot()[0].stale, true);
    rejects(() => pub('status', { label: 'again' }), 'provider_interrupted');
    await assert.rejects(
      hub.request(
        'ui',
        { surfaceId: 'q', sessionId: 'boot-2', generation: 2, kind: 'input', payload: { fields: [] } },
        new AbortController().signal,
      ),
      (e: unknown) => e instanceof ProtocolError && e.reason === 'provider_interrupted',
    );
    hub.bind('ui', 'boot-3', 3, new FakeUiClient());
    assert.equal(store.snapshot().length, 0, 'the old generation surfaces are cleared when the next one starts');
    assert.deepEqual(
      publish(hub, 'ui', {
        surfaceId: 's1',
        sessionId: 'boot-3',
        generation: 3,
        kind: 'status',
        payload: { label: 'back' },
      }),
      { accepted: true },
    );
  });

  // Moved here from the webview model's tests: the hub decides, the views render what they are told.
  it('never stores an older generation: a newer one clears the older one, a late publish of the older one is refused', () => {
    const { store, changes, hub, pub } = setup();
    pub('card', { title: 'old' }, { surfaceId: 'old' });
    const old = store.get('k1', 'ui', 'old')!;
    hub.markStopped('ui');
    assert.equal(store.byKey(surfaceKey(old))?.stale, true);
    hub.bind('ui', 'boot-3', 3, new FakeUiClient());
    assert.equal(store.byKey(surfaceKey(old)), undefined, 'the store keeps only the newest generation per plugin');
    assert.deepEqual(
      changes.filter((c) => c.type === 'remove'),
      [{ type: 'remove', key: surfaceKey(old) }],
      'the views are told to drop it',
    );
    assert.deepEqual(pub('card', { title: 'late old' }), { accepted: false }, 'generation 2 is over');
    const next = { surfaceId: 's3', sessionId: 'boot-3', generation: 3 };
    assert.deepEqual(pub('card', { title: 'new' }, next), { accepted: true });
    assert.deepEqual(
      store.snapshot().map((s) => surfaceKey(s)),
      [surfaceKey({ sessionKey: 'k1', pluginId: 'ui', surfaceId: 's3' })],
    );
  });

  it('redacts every sidecar string but keeps form field keys and stores markdown as data (case 65 data side)', () => {
    const { store, frontEnd, pub } = setup();
    const md = `# Hi <script>alert(1)</script> [x](command:foo) ${SECRET}`;
    pub('card', {
      title: `T ${SECRET}`,
      markdown: md,
      text: `t ${SECRET}`,
      fields: [{ key: SECRET, value: `v ${SECRET}` }],
      actions: [{ actionId: 'demo', label: `L ${SECRET}` }],
    });
    pub(
      'form',
      {
        title: SECRET,
        message: SECRET,
        fields: [{ key: 'api_key=keep', label: SECRET, kind: 'select', options: [SECRET], default: SECRET }],
      },
      { surfaceId: 'f1' },
    );
    pub('notification', { title: SECRET, body: SECRET, severity: 'warn' }, { surfaceId: 'n1' });
    pub('status', { label: SECRET, detail: SECRET }, { surfaceId: 'st' });
    const all = JSON.stringify([store.snapshot(), frontEnd.notified]);
    assert.ok(!all.includes('abcdef0123456789'), all);
    const card = store.get('k1', 'ui', 's1');
    assert.ok(
      card?.kind === 'card' && card.payload.markdown?.includes('<script>alert(1)</script>'),
      'markdown is stored verbatim as text, rendering is the front end’s job',
    );
    const form = store.get('k1', 'ui', 'f1');
    assert.ok(form?.kind === 'form' && form.payload.fields[0].key === 'api_key=keep');
  });

  it('notifications go to the front end, are not stored as surfaces, and are held while no front end is attached', () => {
    const store = new SurfaceStore({ maxNotifications: 2 });
    const hub = new UiHub({ sessionKey: 'k', folderName: 'f', store });
    hub.bind('ui', 's', 1);
    for (let i = 0; i < 3; i++)
      publish(hub, 'ui', {
        surfaceId: `n${i}`,
        sessionId: 's',
        generation: 1,
        kind: 'notification',
        payload: { title: `t${i}` },
      });
    assert.equal(store.snapshot().length, 0);
    assert.deepEqual(
      store.notifications().map((n) => n.surfaceId),
      ['n1', 'n2'],
    );
    const fe = new FakeFrontEnd();
    hub.setFrontEnd(fe);
    assert.deepEqual(
      fe.notified.map((n) => n.surfaceId),
      ['n0', 'n1', 'n2'],
    );
  });

  it('confirm with empty fields → one question keyed value labelled by message; Yes and dismiss (case 59)', async () => {
    const { hub, frontEnd } = setup();
    const params: UIRequestParams = {
      surfaceId: 'q',
      sessionId: 'boot-2',
      generation: 2,
      kind: 'confirm',
      payload: { message: 'Proceed?', fields: [] },
    };
    const yes = hub.request('ui', params, new AbortController().signal);
    const p1 = await frontEnd.nextPrompt(0);
    assert.deepEqual(p1.req.payload.fields, [{ key: 'value', kind: 'confirm', label: 'Proceed?' }]);
    assert.equal(p1.req.kind, 'confirm');
    p1.answer({ cancelled: false, values: { value: true } });
    assert.deepEqual(await yes, { cancelled: false, values: { value: true } });
    const no = hub.request('ui', params, new AbortController().signal);
    (await frontEnd.nextPrompt(1)).answer({ cancelled: true });
    assert.deepEqual(await no, { cancelled: true });
  });

  it('multiselect answers a string array under the field key (case 60)', async () => {
    const { hub, frontEnd } = setup();
    const r = hub.request(
      'ui',
      {
        surfaceId: 'q',
        sessionId: 'boot-2',
        generation: 2,
        kind: 'multiselect',
        payload: { fields: [{ key: 'langs', kind: 'multiselect', options: ['go', 'ts'] }] },
      },
      new AbortController().signal,
    );
    (await frontEnd.nextPrompt(0)).answer({ cancelled: false, values: { langs: ['go', 'ts'] } });
    assert.deepEqual(await r, { cancelled: false, values: { langs: ['go', 'ts'] } });
  });

  it('a stale request is cancelled at once without a prompt (case 61)', async () => {
    const { hub, frontEnd } = setup();
    const r = await hub.request(
      'ui',
      { surfaceId: 'q', sessionId: 'boot-2', generation: 1, kind: 'input', payload: { bogus: 1 } },
      new AbortController().signal,
    );
    assert.deepEqual(r, { cancelled: true });
    assert.equal(frontEnd.prompts.length, 0);
  });

  it('a request is held until a front end attaches, not cancelled', async () => {
    const store = new SurfaceStore();
    const hub = new UiHub({ sessionKey: 'k', folderName: 'f', store });
    hub.bind('ui', 's', 1);
    let settled = false;
    const r = hub
      .request(
        'ui',
        { surfaceId: 'q', sessionId: 's', generation: 1, kind: 'input', payload: { fields: [] } },
        new AbortController().signal,
      )
      .finally(() => (settled = true));
    await new Promise((res) => setImmediate(res));
    assert.equal(settled, false);
    const fe = new FakeFrontEnd();
    hub.setFrontEnd(fe);
    (await fe.nextPrompt(0)).answer({ cancelled: false, values: { value: 'hello' } });
    assert.deepEqual(await r, { cancelled: false, values: { value: 'hello' } });
  });

  it('an answer that arrives after the plugin crashed is discarded without throwing', async () => {
    const { hub, frontEnd } = setup();
    const r = hub.request(
      'ui',
      { surfaceId: 'q', sessionId: 'boot-2', generation: 2, kind: 'input', payload: { fields: [] } },
      new AbortController().signal,
    );
    const p = await frontEnd.nextPrompt(0);
    hub.markCrashed('ui');
    assert.equal(p.signal.aborted, true, 'the front end is told nobody waits any more');
    p.answer({ cancelled: false, values: { value: 'late' } });
    assert.deepEqual(await r, { cancelled: true });
  });

  it('invokeAction checks id, plugin, crash, liveness and declaration in order, then sends current session/generation (case 63)', async () => {
    const { hub, client } = setup();
    client.uiActions = [
      { actionId: 'demo', label: `Demo ${SECRET}` },
      { actionId: 'demo', label: 'dup' },
    ];
    client.reply = () => ({ accepted: true, message: `ran ${SECRET}` });
    await assert.rejects(
      hub.invokeAction('ui', 'Bad_Id'),
      (e: unknown) => (e as ProtocolError).reason === 'invalid_params',
    );
    await assert.rejects(
      hub.invokeAction('nobody', 'demo'),
      (e: unknown) => (e as ProtocolError).reason === 'internal',
    );
    await assert.rejects(
      hub.invokeAction('ui', 'nope'),
      (e: unknown) => (e as ProtocolError).reason === 'invalid_params',
    );
    assert.equal(client.calls.length, 0, 'undeclared actions never reach the wire');
    const res = await hub.invokeAction('ui', 'demo', { x: '1' });
    assert.equal(res.accepted, true);
    assert.ok(!res.message?.includes('abcdef0123456789'));
    assert.deepEqual(client.calls[0], {
      method: 'extension/ui/action',
      params: { actionId: 'demo', sessionId: 'boot-2', generation: 2, args: { x: '1' } },
    });
    assert.deepEqual(
      hub.listActions().map((a) => [a.name, a.label.includes('abcdef0123456789')]),
      [['/ui:demo', false]],
    );
    client.state = 'stopped';
    await assert.rejects(
      hub.invokeAction('ui', 'demo'),
      (e: unknown) => (e as ProtocolError).reason === 'provider_interrupted',
    );
    assert.deepEqual(hub.listActions(), []);
    hub.markCrashed('ui');
    await assert.rejects(
      hub.invokeAction('ui', 'demo'),
      (e: unknown) => (e as ProtocolError).reason === 'provider_interrupted',
    );
  });

  it('one invalid declared id (Bad_Id) drops the whole action set', async () => {
    const { hub, client } = setup();
    client.uiActions = [{ actionId: 'demo' }, { actionId: 'Bad_Id' }];
    assert.deepEqual(hub.listActions(), []);
    await assert.rejects(
      hub.invokeAction('ui', 'demo'),
      (e: unknown) => (e as ProtocolError).reason === 'invalid_params',
    );
    assert.equal(client.calls.length, 0);
  });

  it('submit sends surfaceId, session, generation and an object of values (case 64)', async () => {
    const { hub, client, pub } = setup();
    pub('form', { fields: [{ key: 'name', kind: 'input' }] }, { surfaceId: 'f1' });
    assert.deepEqual(await hub.submit('ui', 'f1', { name: 'x' }), { accepted: true });
    assert.deepEqual(await hub.submit('ui', 'f1', undefined), { accepted: true });
    assert.deepEqual(
      client.calls.map((c) => c.params),
      [
        { surfaceId: 'f1', sessionId: 'boot-2', generation: 2, values: { name: 'x' } },
        { surfaceId: 'f1', sessionId: 'boot-2', generation: 2, values: {} },
      ],
    );
    await assert.rejects(hub.submit('ui', ' ', {}), (e: unknown) => (e as ProtocolError).reason === 'invalid_params');
    client.state = 'crashed';
    await assert.rejects(
      hub.submit('ui', 'f1', {}),
      (e: unknown) => (e as ProtocolError).reason === 'provider_interrupted',
    );
  });
});
