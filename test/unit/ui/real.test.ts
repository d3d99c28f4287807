// The UI hub against a real fixture sidecar through the real Sidecar.
import { strict as assert } from 'node:assert';
import { ProtocolError } from '../../../src/protocol';
import { Sidecar } from '../../../src/host/sidecar';
import { attachSidecar, SurfaceStore, uiHandlers, UiHub } from '../../../src/host/ui';
import { fixtureSpec, ROOT } from '../streams/real-support';
import { FakeFrontEnd } from './fakes';
import { waitFor } from '../../support/wait';

interface Report {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: { reason: string } };
}

const TIMEOUTS = { shutdownRequestMs: 1000, exitGraceMs: 200, reapMs: 2000 };

function newSidecar(hub: UiHub, generation: number, mode = 'normal', pluginId = 'ui'): Sidecar {
  return new Sidecar({
    plugin: fixtureSpec(pluginId, 'ui/ui.js', [mode], ['ui']),
    session: { sessionId: `boot-${generation}`, workspaceRoot: ROOT, generation },
    uiHost: 'desktop',
    handlers: uiHandlers(hub, pluginId),
    timeouts: TIMEOUTS,
  });
}

describe('ui: real UI sidecar', function () {
  this.timeout(15000);
  const started: Sidecar[] = [];
  let store: SurfaceStore;
  let frontEnd: FakeFrontEnd;
  let hub: UiHub;

  async function start(generation = 1, mode = 'normal', attach = true): Promise<Sidecar> {
    const s = newSidecar(hub, generation, mode);
    if (attach) attachSidecar(hub, s);
    started.push(s);
    await s.start();
    return s;
  }

  async function run(actionId: string, args?: Record<string, string>): Promise<Report> {
    const r = await hub.invokeAction('ui', actionId, args);
    assert.equal(r.accepted, true);
    return JSON.parse(r.message ?? '{}') as Report;
  }

  beforeEach(() => {
    store = new SurfaceStore();
    frontEnd = new FakeFrontEnd();
    hub = new UiHub({ sessionKey: 'k1', folderName: 'proj', store, frontEnd });
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.stop()));
  });

  // Issue 12 §4: a plugin cannot make the host hold surfaces without limit.
  it('refuses publishes past 256 live surfaces per plugin with invalid_params, stores nothing more, warns once', async () => {
    const warnings: string[] = [];
    hub = new UiHub({
      sessionKey: 'k1',
      folderName: 'proj',
      store,
      frontEnd,
      logger: { trace() {}, debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} },
    });
    await start();
    const report = (await run('flood', { count: '300' })) as unknown as {
      accepted: number;
      errors: [string, string][];
    };
    assert.equal(report.accepted, 256);
    assert.equal(report.errors.length, 1, JSON.stringify(report.errors));
    assert.equal(report.errors[0][0], '-32602 invalid_params');
    assert.match(report.errors[0][1], /surface limit: plugin ui already shows 256 surfaces/);
    assert.equal(store.snapshot().length, 256, 'nothing past the cap is stored');
    assert.equal(warnings.filter((w) => /surface limit/.test(w)).length, 1, 'one warning for 44 refusals');
    // Updating an existing surface in place is still allowed at the cap.
    assert.deepEqual(await run('publish', { kind: 'card', surfaceId: 'flood-3' }), { result: { accepted: true } });
  });

  it('refuses publishes past 16 MiB of payload per plugin, and a restart gives the room back', async () => {
    await start();
    const big = await run('flood', { count: '40', bytes: String(1024 * 1024) });
    const report = big as unknown as { accepted: number; errors: [string, string][] };
    assert.equal(
      report.accepted,
      15,
      'fifteen 1 MiB cards fit under 16 MiB, the sixteenth with its JSON overhead does not',
    );
    assert.match(report.errors[0][1], /over the 16\.0 MiB one plugin may/);
    await started.pop()!.stop();
    await start(2); // the next generation starts afresh: the old surfaces are dropped
    const again = (await run('flood', { count: '3', bytes: String(1024 * 1024) })) as unknown as { accepted: number };
    assert.equal(again.accepted, 3);
  });

  it('status publish renders and re-publish replaces in place; card/form stored; notification shown not stored; all redacted (cases 56, 65 data side)', async () => {
    await start();
    assert.deepEqual(await run('publish', { kind: 'status' }), { result: { accepted: true } });
    const first = store.get('k1', 'ui', 's1');
    assert.deepEqual(await run('publish', { kind: 'status', label: 'Indexed' }), { result: { accepted: true } });
    const second = store.get('k1', 'ui', 's1');
    assert.ok(second?.kind === 'status' && second.payload.label === 'Indexed');
    assert.ok(second && first && second.revision > first.revision);
    assert.equal(store.snapshot().length, 1);
    assert.ok(
      second?.kind === 'status' &&
        second.payload.detail?.startsWith('using api_key=') &&
        !second.payload.detail.includes('abcdef0123456789'),
    );

    await run('publish', { kind: 'card', surfaceId: 'c1' });
    const card = store.get('k1', 'ui', 'c1');
    assert.ok(
      card?.kind === 'card' && card.payload.markdown === '# Hello <script>alert(1)</script> [run](command:evil)',
      'markdown is kept as source text for the safe renderer',
    );
    await run('publish', { kind: 'form', surfaceId: 'f1' });
    assert.equal(store.get('k1', 'ui', 'f1')?.kind, 'form');
    await run('publish', { kind: 'notification', surfaceId: 'n1' });
    assert.equal(frontEnd.notified.length, 1);
    assert.ok(!frontEnd.notified[0].payload.body?.includes('abcdef0123456789'));
    assert.equal(store.get('k1', 'ui', 'n1'), undefined);
    assert.deepEqual(
      store.snapshot().map((s) => s.surfaceId),
      ['f1', 'c1', 's1'],
    );
  });

  it('a publish with generation - 1 is {accepted:false} and renders nothing (case 57)', async () => {
    await start(5);
    assert.deepEqual(await run('publish-stale'), { result: { accepted: false } });
    assert.equal(store.snapshot().length, 0);
  });

  it('a card with an html member is -32602 invalid_params (case 58)', async () => {
    await start();
    const r = await run('publish-html');
    assert.equal(r.error?.code, -32602);
    assert.equal(r.error?.data?.reason, 'invalid_params');
    assert.equal(store.snapshot().length, 0);
  });

  it('a publish of a kind the schema does not know is -32602 invalid_params from the connection, before the hub', async () => {
    await start();
    const r = await run('publish', { kind: 'panel', label: 'x' });
    assert.equal(r.error?.code, -32602);
    assert.equal(r.error?.data?.reason, 'invalid_params');
    assert.match(r.error?.message ?? '', /invalid host\/ui\/publish params/);
    assert.equal(store.snapshot().length, 0);
  });

  it('confirm with empty fields asks one question keyed value; Yes and dismissal (case 59)', async () => {
    await start();
    const yes = run('ask', { kind: 'confirm', message: 'Deploy?' });
    const p = await frontEnd.nextPrompt(0);
    assert.equal(p.req.kind, 'confirm');
    assert.deepEqual(p.req.payload.fields, [{ key: 'value', kind: 'confirm', label: 'Deploy?' }]);
    assert.equal(p.req.generation, 1);
    p.answer({ cancelled: false, values: { value: true } });
    assert.deepEqual(await yes, { result: { cancelled: false, values: { value: true } } });
    const dismissed = run('ask', { kind: 'confirm' });
    (await frontEnd.nextPrompt(1)).answer({ cancelled: true });
    assert.deepEqual(await dismissed, { result: { cancelled: true } });
  });

  it('input, select and multiselect answers come back under the field key (case 60)', async () => {
    await start();
    const fields = JSON.stringify([{ key: 'langs', kind: 'multiselect', options: ['go', 'ts'] }]);
    const multi = run('ask', { kind: 'multiselect', fields });
    const p = await frontEnd.nextPrompt(0);
    assert.deepEqual(p.req.payload.fields[0].options, ['go', 'ts']);
    p.answer({ cancelled: false, values: { langs: ['ts'] } });
    assert.deepEqual(await multi, { result: { cancelled: false, values: { langs: ['ts'] } } });
    for (const kind of ['input', 'select']) {
      const r = run('ask', { kind });
      (await frontEnd.nextPrompt(frontEnd.prompts.length)).answer({ cancelled: false, values: { value: `${kind}!` } });
      assert.deepEqual(await r, { result: { cancelled: false, values: { value: `${kind}!` } } });
    }
  });

  it('a stale request is cancelled at once, no prompt (case 61)', async () => {
    await start(3);
    assert.deepEqual(await run('ask', { kind: 'input', stale: '1' }), { result: { cancelled: true } });
    assert.equal(frontEnd.prompts.length, 0);
  });

  it('a request before any front end is held until one attaches', async () => {
    hub = new UiHub({ sessionKey: 'k1', folderName: 'proj', store });
    await start();
    const asked = run('ask', { kind: 'input' });
    await waitFor(() => hub.heldPrompts === 1, { timeoutMs: 5000, what: 'the request to be held', intervalMs: 5 });
    const fe = new FakeFrontEnd();
    hub.setFrontEnd(fe);
    (await fe.nextPrompt(0)).answer({ cancelled: false, values: { value: 'late but shown' } });
    assert.deepEqual(await asked, { result: { cancelled: false, values: { value: 'late but shown' } } });
  });

  it('an answer after the plugin crashed is discarded without a throw; the replacement is provider_interrupted until rebound (case 62)', async () => {
    const first = await start(1);
    await run('publish', { kind: 'status' });
    const pending = hub.invokeAction('ui', 'ask', { kind: 'input' });
    pending.catch(() => undefined);
    const p = await frontEnd.nextPrompt(0);
    await assert.rejects(hub.invokeAction('ui', 'crash'));
    await waitFor(() => first.state === 'crashed', { timeoutMs: 5000, what: 'the crash', intervalMs: 5 });
    await waitFor(() => p.signal.aborted, { timeoutMs: 5000, what: 'the prompt to be abandoned', intervalMs: 5 });
    p.answer({ cancelled: false, values: { value: 'too late' } });
    await assert.rejects(pending, (e: unknown) => e instanceof Error);
    assert.equal(store.snapshot()[0].stale, true);
    await assert.rejects(
      hub.invokeAction('ui', 'publish'),
      (e: unknown) => e instanceof ProtocolError && e.reason === 'provider_interrupted',
    );

    // A replacement connection that has not been bound yet.
    const replacement = await start(2, 'normal', false);
    const before = await replacement.request<{ message: string }>('extension/ui/action', {
      actionId: 'publish',
      sessionId: 'boot-2',
      generation: 2,
    });
    assert.equal((JSON.parse(before.message) as Report).error?.data?.reason, 'provider_interrupted');
    attachSidecar(hub, replacement);
    assert.equal(store.snapshot().length, 0, 'the crashed generation surfaces were cleared');
    assert.deepEqual(await run('publish', { kind: 'status' }), { result: { accepted: true } });
    assert.equal(store.snapshot()[0].generation, 2);
  });

  it('a plugin the hub never bound gets internal', async () => {
    const ghost = newSidecar(hub, 1, 'normal', 'ghost');
    started.push(ghost);
    await ghost.start();
    const r = await ghost.request<{ message: string }>('extension/ui/action', {
      actionId: 'publish',
      sessionId: 'boot-1',
      generation: 1,
    });
    const rep = JSON.parse(r.message) as Report;
    assert.equal(rep.error?.code, -32603);
    assert.equal(rep.error?.data?.reason, 'internal');
  });

  it('/ui:demo runs extension/ui/action with the current session; undeclared ids never reach the wire (case 63)', async () => {
    await start(4);
    const names = hub.listActions().map((a) => a.name);
    assert.ok(names.includes('/ui:demo'));
    assert.equal(hub.listActions().find((a) => a.actionId === 'demo')?.label, 'Label demo');
    const demo = await hub.invokeAction('ui', 'demo', { who: 'me' });
    assert.equal(demo.accepted, true);
    assert.ok(demo.message?.startsWith('demo ran with api_key=') && !demo.message.includes('abcdef0123456789'));
    await assert.rejects(
      hub.invokeAction('ui', 'nope'),
      (e: unknown) => e instanceof ProtocolError && e.reason === 'invalid_params',
    );
    await assert.rejects(
      hub.invokeAction('ui', 'Bad_Id'),
      (e: unknown) => e instanceof ProtocolError && e.reason === 'invalid_params',
    );
    const received = JSON.parse((await hub.invokeAction('ui', 'report')).message ?? '[]') as Array<{
      method: string;
      params: Record<string, unknown>;
    }>;
    assert.deepEqual(received, [
      {
        method: 'extension/ui/action',
        params: { actionId: 'demo', sessionId: 'boot-4', generation: 4, args: { who: 'me' } },
      },
    ]);
  });

  it('a handshake declaring Bad_Id offers no actions and sends nothing (case 63)', async () => {
    const s = await start(1, 'bad-actions');
    assert.equal(s.state, 'running', 'the plugin keeps running');
    assert.deepEqual(hub.listActions(), []);
    await assert.rejects(
      hub.invokeAction('ui', 'demo'),
      (e: unknown) => e instanceof ProtocolError && e.reason === 'invalid_params',
    );
  });

  it('form submit sends extension/ui/submit with the same surfaceId and a values object (case 64)', async () => {
    await start(7);
    await run('publish', { kind: 'form', surfaceId: 'settings' });
    assert.deepEqual(await hub.submit('ui', 'settings', { name: 'Ada' }), { accepted: true });
    assert.deepEqual(await hub.submit('ui', 'settings', undefined), { accepted: true });
    const received = JSON.parse((await hub.invokeAction('ui', 'report')).message ?? '[]') as Array<{
      method: string;
      params: unknown;
    }>;
    assert.deepEqual(
      received.filter((r) => r.method === 'extension/ui/submit').map((r) => r.params),
      [
        { surfaceId: 'settings', sessionId: 'boot-7', generation: 7, values: { name: 'Ada' } },
        { surfaceId: 'settings', sessionId: 'boot-7', generation: 7, values: {} },
      ],
    );
  });
});
