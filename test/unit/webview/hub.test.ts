import * as assert from 'node:assert/strict';
import {
  surfaceKey,
  type FormValues,
  type PromptRequest,
  type Surface,
  type SurfaceChange,
} from '../../../src/protocol';
import type { Drafts, EmptyState, HostToView } from '../../../src/webviewProtocol/messages';
import { SurfacesHub, type HubDeps, type Origin, type Verdict } from '../../../src/vscode/surfaces/hub';
import { card, form, panel, republish, status, view } from './fixtures';

class FakeSource {
  surfaces: Surface[] = [];
  state: EmptyState = null;
  private change = new Set<(c: SurfaceChange) => void>();
  private empty = new Set<() => void>();
  snapshot = () => [...this.surfaces];
  byKey = (key: string) => this.surfaces.find((s) => surfaceKey(s) === key);
  emptyState = () => this.state;
  onDidChange = (l: (c: SurfaceChange) => void) => (this.change.add(l), { dispose: () => this.change.delete(l) });
  onDidChangeEmptyState = (l: () => void) => (this.empty.add(l), { dispose: () => this.empty.delete(l) });
  emit(c: SurfaceChange): void {
    if (c.type === 'upsert')
      this.surfaces = [...this.surfaces.filter((s) => surfaceKey(s) !== surfaceKey(c.surface)), c.surface];
    if (c.type === 'remove') this.surfaces = this.surfaces.filter((s) => surfaceKey(s) !== c.key);
    for (const l of this.change) l(c);
  }
  setEmpty(s: EmptyState): void {
    this.state = s;
    for (const l of this.empty) l();
  }
}

function setup(verdict: (kind: string) => Promise<Verdict> = async () => ({ accepted: true, message: 'done' })) {
  const source = new FakeSource();
  const calls: { kind: string; origin: Origin; id: string; values?: FormValues }[] = [];
  const opened: string[] = [];
  const warnings: string[] = [];
  const debugs: string[] = [];
  let trust = 0;
  let stored: Drafts | undefined;
  const foldersOpened: string[] = [];
  const deps: HubDeps = {
    source,
    sink: {
      runAction: (origin, id) => (calls.push({ kind: 'action', origin, id }), verdict('action')),
      submitForm: (origin, id, values) => (calls.push({ kind: 'submit', origin, id, values }), verdict('submit')),
    },
    log: { debug: (m) => debugs.push(m), info: () => undefined, warn: (m) => warnings.push(m) },
    openExternal: async (u) => opened.push(u),
    manageTrust: () => trust++,
    folderOpened: (key) => foldersOpened.push(key),
    draftStore: { get: () => stored, set: (d) => (stored = d) },
  };
  const make = () => new SurfacesHub(deps);
  const port = () => {
    const got: HostToView[] = [];
    return { got, post: (m: HostToView) => got.push(m) };
  };
  return {
    source,
    calls,
    opened,
    warnings,
    debugs,
    foldersOpened,
    make,
    port,
    trust: () => trust,
    stored: () => stored,
  };
}

const req = (over: Partial<PromptRequest> = {}): PromptRequest => ({
  sessionKey: 'ws-1',
  folderName: 'app',
  pluginId: 'demo',
  generation: 1,
  surfaceId: 'q',
  kind: 'input',
  payload: {
    fields: [
      { key: 'a', kind: 'input', required: true },
      { key: 'b', kind: 'confirm' },
    ],
  },
  ...over,
});

describe('surfaces hub (extension side of the webview protocol)', () => {
  it('sends nothing before ready, a snapshot on ready, then deltas', async () => {
    const t = setup();
    const c1 = card({ title: 'x' });
    t.source.surfaces = [c1];
    t.source.state = 'all-stopped';
    const hub = t.make();
    const p = t.port();
    const conn = hub.connect(p);
    t.source.emit({ type: 'upsert', surface: status({ label: 'early' }) });
    assert.equal(p.got.length, 0);
    await conn.receive({ type: 'ready' });
    assert.equal(p.got.length, 1);
    const snap = p.got[0] as Extract<HostToView, { type: 'snapshot' }>;
    assert.equal(snap.type, 'snapshot');
    assert.equal(snap.surfaces.length, 2);
    assert.equal(snap.emptyState, 'all-stopped');
    const c2 = republish(c1, { payload: { title: 'y' } } as never);
    t.source.emit({ type: 'upsert', surface: c2 });
    t.source.emit({ type: 'remove', key: surfaceKey(c1) });
    t.source.setEmpty('untrusted');
    assert.deepEqual(
      p.got.slice(1).map((m) => m.type),
      ['upsert', 'remove', 'emptyState'],
    );
    t.source.emit({ type: 'reset' });
    assert.equal(p.got.at(-1)?.type, 'snapshot');
    conn.dispose();
    t.source.emit({ type: 'upsert', surface: c2 });
    assert.equal(p.got.at(-1)?.type, 'snapshot', 'a closed view gets nothing');
    hub.dispose();
  });

  it('runs a card action with the origin of the surface the engine published', async () => {
    const t = setup();
    const c = card({ actions: [{ actionId: 'go', label: 'Go' }] }, { pluginId: 'alpha', sessionKey: 'ws-9' });
    t.source.surfaces = [c];
    const hub = t.make();
    const p = t.port();
    const conn = hub.connect(p);
    await conn.receive({ type: 'ready' });
    await conn.receive({ type: 'runAction', requestId: 'r1', key: surfaceKey(c), actionId: 'go' });
    assert.deepEqual(t.calls, [{ kind: 'action', origin: { sessionKey: 'ws-9', pluginId: 'alpha' }, id: 'go' }]);
    assert.deepEqual(p.got.at(-1), {
      type: 'actionResult',
      requestId: 'r1',
      key: surfaceKey(c),
      actionId: 'go',
      accepted: true,
      message: 'done',
    });
  });

  it('runs panel and view buttons through the same action path, and refuses a button the surface does not show', async () => {
    const t = setup();
    const pn = panel({ title: 'Deploy', actions: [{ actionId: 'ship', label: 'Ship' }] }, { pluginId: 'alpha' });
    const vw = view(
      {
        body: [
          {
            kind: 'row',
            children: [
              { kind: 'text', value: 'x' },
              { kind: 'button', actionId: 'retry', label: 'Retry' },
            ],
          },
        ],
      },
      { pluginId: 'alpha' },
    );
    t.source.surfaces = [pn, vw];
    const hub = t.make();
    const p = t.port();
    const conn = hub.connect(p);
    await conn.receive({ type: 'ready' });
    await conn.receive({ type: 'runAction', requestId: 'r1', key: surfaceKey(pn), actionId: 'ship' });
    await conn.receive({ type: 'runAction', requestId: 'r2', key: surfaceKey(vw), actionId: 'retry' });
    await conn.receive({ type: 'runAction', requestId: 'r3', key: surfaceKey(vw), actionId: 'ship' });
    assert.deepEqual(
      t.calls.map((c) => c.id),
      ['ship', 'retry'],
    );
    const results = p.got.filter((m) => m.type === 'actionResult') as { accepted: boolean; message?: string }[];
    assert.deepEqual(
      results.map((m) => m.accepted),
      [true, true, false],
    );
    assert.equal(results[2].message, 'This view no longer offers that action.');
  });

  it('refuses actions the card does not declare, unknown cards and stale ones, without calling the engine', async () => {
    const t = setup();
    const c = card({ actions: [{ actionId: 'go', label: 'Go' }] });
    const stale = card({ actions: [{ actionId: 'go', label: 'Go' }] }, { stale: true });
    t.source.surfaces = [c, stale];
    const hub = t.make();
    const p = t.port();
    const conn = hub.connect(p);
    await conn.receive({ type: 'ready' });
    await conn.receive({ type: 'runAction', requestId: 'r1', key: surfaceKey(c), actionId: 'other' });
    await conn.receive({ type: 'runAction', requestId: 'r2', key: '["nope"]', actionId: 'go' });
    await conn.receive({ type: 'runAction', requestId: 'r3', key: surfaceKey(stale), actionId: 'go' });
    assert.deepEqual(t.calls, []);
    const results = p.got.filter((m) => m.type === 'actionResult');
    assert.deepEqual(
      results.map((m) => (m as { accepted: boolean }).accepted),
      [false, false, false],
    );
    assert.match((results[2] as { message: string }).message, /stopped/);
  });

  it('turns an engine failure into a rejected result', async () => {
    const t = setup(async () => {
      throw new Error('plugin crashed');
    });
    const c = card({ actions: [{ actionId: 'go', label: 'Go' }] });
    t.source.surfaces = [c];
    const hub = t.make();
    const p = t.port();
    const conn = hub.connect(p);
    await conn.receive({ type: 'ready' });
    await conn.receive({ type: 'runAction', requestId: 'r1', key: surfaceKey(c), actionId: 'go' });
    assert.deepEqual(p.got.at(-1), {
      type: 'actionResult',
      requestId: 'r1',
      key: surfaceKey(c),
      actionId: 'go',
      accepted: false,
      message: 'plugin crashed',
    });
  });

  it('submits forms only with values that fit the form', async () => {
    const t = setup();
    const f = form(
      {
        fields: [
          { key: 'a', kind: 'input', required: true },
          { key: 's', kind: 'select', options: ['x'] },
        ],
      },
      { surfaceId: 'f1' },
    );
    t.source.surfaces = [f];
    const hub = t.make();
    const p = t.port();
    const conn = hub.connect(p);
    await conn.receive({ type: 'ready' });
    await conn.receive({ type: 'submit', requestId: 's1', key: surfaceKey(f), values: { a: '', s: 'x' } });
    await conn.receive({ type: 'submit', requestId: 's2', key: surfaceKey(f), values: { a: 'v', s: 'evil' } });
    assert.deepEqual(t.calls, []);
    await conn.receive({ type: 'submit', requestId: 's3', key: surfaceKey(f), values: { a: 'v', s: 'x' } });
    assert.deepEqual(t.calls, [
      { kind: 'submit', origin: { sessionKey: 'ws-1', pluginId: 'demo' }, id: 'f1', values: { a: 'v', s: 'x' } },
    ]);
    assert.deepEqual(
      p.got.filter((m) => m.type === 'submitResult').map((m) => (m as { accepted: boolean }).accepted),
      [false, false, true],
    );
  });

  it('opens only http, https and mailto links; logs and drops malformed messages', async () => {
    const t = setup();
    const hub = t.make();
    const conn = hub.connect(t.port());
    for (const url of [
      'https://example.com/a',
      'mailto:a@example.com',
      'javascript:alert(1)',
      'command:workbench.action.quit',
    ])
      await conn.receive({ type: 'openLink', url });
    assert.deepEqual(t.opened, ['https://example.com/a', 'mailto:a@example.com']);
    await conn.receive({ type: 'openLink', url: 'https://x', extra: true });
    await conn.receive('<script>');
    await conn.receive({ type: 'manageTrust' });
    assert.equal(t.trust(), 1);
    assert.equal(t.warnings.length, 4);
  });

  it('answers a prompt from the view, tells every view it closed, and ignores a second answer', async () => {
    const t = setup();
    const hub = t.make();
    const a = t.port();
    const b = t.port();
    const ca = hub.connect(a);
    const cb = hub.connect(b);
    await ca.receive({ type: 'ready' });
    await cb.receive({ type: 'ready' });
    const answer = hub.showPrompt(req(), new AbortController().signal);
    const shown = a.got.find((m) => m.type === 'prompt') as Extract<HostToView, { type: 'prompt' }>;
    assert.ok(b.got.some((m) => m.type === 'prompt'));
    await ca.receive({
      type: 'answerPrompt',
      promptId: shown.prompt.promptId,
      answer: { cancelled: false, values: { a: '' } },
    });
    assert.equal(a.got.at(-1)?.type, 'prompt', 'a missing required value is refused');
    await ca.receive({
      type: 'answerPrompt',
      promptId: shown.prompt.promptId,
      answer: { cancelled: false, values: { a: 'x', b: true } },
    });
    await cb.receive({ type: 'answerPrompt', promptId: shown.prompt.promptId, answer: { cancelled: true } });
    assert.deepEqual(await answer, { cancelled: false, values: { a: 'x', b: true } });
    assert.deepEqual(b.got.at(-1), { type: 'promptClosed', promptId: shown.prompt.promptId });
  });

  it('includes pending prompts in a late snapshot; abort and dispose answer cancelled', async () => {
    const t = setup();
    const hub = t.make();
    const ac = new AbortController();
    const first = hub.showPrompt(req(), ac.signal);
    const second = hub.showPrompt(req({ surfaceId: 'q2' }), new AbortController().signal);
    const p = t.port();
    await hub.connect(p).receive({ type: 'ready' });
    assert.equal((p.got[0] as Extract<HostToView, { type: 'snapshot' }>).prompts.length, 2);
    ac.abort();
    assert.deepEqual(await first, { cancelled: true });
    assert.equal(p.got.at(-1)?.type, 'promptClosed');
    hub.dispose();
    assert.deepEqual(await second, { cancelled: true });
    const aborted = new AbortController();
    aborted.abort();
    assert.deepEqual(await t.make().showPrompt(req(), aborted.signal), { cancelled: true });
  });

  it('keeps drafts from any view and hands them to the next one', async () => {
    const t = setup();
    const hub = t.make();
    const one = hub.connect(t.port());
    await one.receive({ type: 'persist', drafts: { k: { a: 'typed' } } });
    assert.deepEqual(t.stored(), { k: { a: 'typed' } });
    const p = t.port();
    await hub.connect(p).receive({ type: 'ready' });
    assert.deepEqual((p.got[0] as Extract<HostToView, { type: 'snapshot' }>).drafts, { k: { a: 'typed' } });
    const p2 = t.port();
    await t.make().connect(p2).receive({ type: 'ready' });
    assert.deepEqual(
      (p2.got[0] as Extract<HostToView, { type: 'snapshot' }>).drafts,
      { k: { a: 'typed' } },
      'restored from workspace state',
    );
  });

  it('passes "folder group opened" from a view to the extension, once per message, and refuses a malformed one', async () => {
    const t = setup();
    const conn = t.make().connect(t.port());
    await conn.receive({ type: 'folderOpened', sessionKey: 'file:///work/api' });
    await conn.receive({ type: 'folderOpened', sessionKey: 'file:///work/web' });
    await conn.receive({ type: 'folderOpened', sessionKey: 'file:///work/api' });
    await conn.receive({ type: 'folderOpened', sessionKey: '' });
    await conn.receive({ type: 'folderOpened', sessionKey: 'k', extra: 1 });
    assert.deepEqual(t.foldersOpened, ['file:///work/api', 'file:///work/web', 'file:///work/api']);
    assert.equal(t.warnings.length, 2);
    assert.match(t.warnings[0], /sessionKey must not be empty/);
    assert.ok(t.debugs.includes('surfaces: folder group opened: "file:///work/web"'), t.debugs.join('\n'));
  });
});
