// Issue 11 item 4: decoding edges as the reference host, through real fixture sidecars — UI
// payloads a sidecar publishes (test/fixtures/ui/ui.js) and the InitializeResult it answers
// (test/fixtures/sidecars/well-behaved.js).
import { strict as assert } from 'node:assert';
import { Sidecar, SidecarFailure } from '../../../src/host/sidecar';
import { attachSidecar, SurfaceStore, uiHandlers, UiHub } from '../../../src/host/ui';
import { fixtureSpec, ROOT } from '../streams/real-support';
import { FakeFrontEnd } from '../ui/fakes';
import { alive } from '../../support/processes';
import { FAST, pluginFor, useFleet } from '../sidecar/fixtures';

interface Report {
  result?: { accepted: boolean };
  error?: { code: number; message: string; data?: { reason: string } };
}

describe('conformance: UI payload decoding edges (issue 11 item 4)', function () {
  this.timeout(15000);
  let sidecar: Sidecar | undefined;
  let store: SurfaceStore;
  let frontEnd: FakeFrontEnd;
  let hub: UiHub;

  beforeEach(async () => {
    store = new SurfaceStore();
    frontEnd = new FakeFrontEnd();
    hub = new UiHub({ sessionKey: 'k1', folderName: 'proj', store, frontEnd });
    sidecar = new Sidecar({
      plugin: fixtureSpec('ui', 'ui/ui.js', [], ['ui']),
      session: { sessionId: 'boot-1', workspaceRoot: ROOT, generation: 1 },
      uiHost: 'desktop',
      handlers: uiHandlers(hub, 'ui'),
      timeouts: { shutdownRequestMs: 1000, exitGraceMs: 200, reapMs: 2000 },
    });
    attachSidecar(hub, sidecar);
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

  function assertRejected(r: Report, member: RegExp): void {
    assert.equal(r.error?.code, -32602, JSON.stringify(r));
    assert.equal(r.error?.data?.reason, 'invalid_params');
    assert.match(r.error?.message ?? '', member);
  }

  const rejected: Array<[string, string, unknown, RegExp]> = [
    [
      'a card field value that is a number',
      'card',
      { title: 't', fields: [{ key: 'files', value: 12 }] },
      /fields\/0\/value/,
    ],
    [
      'a card field value that is an object',
      'card',
      { title: 't', fields: [{ key: 'obj', value: { a: 1 } }] },
      /fields\/0\/value/,
    ],
    [
      'a card action with an empty label',
      'card',
      { title: 't', actions: [{ actionId: 'demo', label: '' }] },
      /actions\/0\/label/,
    ],
    [
      'a card field key of only whitespace',
      'card',
      { title: 't', fields: [{ key: '  ', value: 'v' }] },
      /fields\/0\/key/,
    ],
    ['a form field key of only whitespace', 'form', { fields: [{ key: '\t', kind: 'input' }] }, /fields\/0\/key/],
    ['a notification title of only whitespace', 'notification', { title: '   ' }, /title/],
  ];
  for (const [what, kind, payload, member] of rejected) {
    it(`rejects ${what} with invalid_params and renders nothing`, async () => {
      assertRejected(await publish(kind, payload), member);
      assert.equal(store.get('k1', 'ui', 's1'), undefined);
      assert.equal(frontEnd.notified.length, 0);
    });
  }

  it('accepts a status with severity "" and shows it as info', async () => {
    assert.deepEqual(await publish('status', { label: 'Indexing', severity: '' }), { result: { accepted: true } });
    const s = store.get('k1', 'ui', 's1');
    assert.ok(s?.kind === 'status');
    assert.equal(s.payload.severity, 'info');
  });

  it('still refuses severity "" on a notification and an unknown severity on a status', async () => {
    assertRejected(await publish('notification', { title: 'Hi', severity: '' }), /severity/);
    assertRejected(await publish('status', { label: 'x', severity: 'fatal' }), /severity/);
  });

  it('accepts string card field values and non-empty action labels', async () => {
    assert.deepEqual(
      await publish('card', {
        title: 't',
        fields: [{ key: 'files', value: '12' }],
        actions: [{ actionId: 'demo', label: 'Run' }],
      }),
      { result: { accepted: true } },
    );
    const c = store.get('k1', 'ui', 's1');
    assert.ok(c?.kind === 'card');
    assert.deepEqual(c.payload.fields, [{ key: 'files', value: '12' }]);
  });
});

describe('conformance: InitializeResult decoding edges (issue 11 item 4)', function () {
  this.timeout(15000);
  const { fleet } = useFleet();

  for (const [member, value] of [
    ['name', '   '],
    ['version', '\t'],
  ] as const) {
    it(`refuses an initialize result whose ${member} is only whitespace: protocol_error, child killed`, async () => {
      const s = fleet.make({
        plugin: pluginFor('well-behaved.js', { env: { FIX_RESULT_PATCH: JSON.stringify({ [member]: value }) } }),
        timeouts: FAST,
      });
      const err = await s.start().then(
        () => assert.fail('start should fail'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof SidecarFailure, String(err));
      assert.equal(err.reason, 'protocol_error');
      assert.equal(err.info.stage, 'handshake');
      assert.match(err.info.message, new RegExp(`invalid initialize result: ${member} .* is blank`));
      assert.equal(s.state, 'failed');
      assert.equal(alive(s.pid), false);
    });
  }
});
