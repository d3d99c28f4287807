// Reasonix sessions over ACP against the real Reasonix 1.38.11 (the pinned devDependency), offline:
// the showcase without tools installed in a scratch REASONIX_HOME provides the echo model. What a
// session's extensions show lands in the one surface store (in the session's own group, never also
// as chat text), their actions run, their prompts are asked through the front end, reload, status,
// and Reasonix killed mid-turn.
import { strict as assert } from 'node:assert';
import { ReasonixAcpClient, AcpError, FORM_NOT_ANSWERABLE, type ReasonixSession } from '../../../src/host/acp';
import { SurfaceStore, UiHub, type UiFrontEnd } from '../../../src/host/ui';
import type { PromptRequest, Surface } from '../../../src/protocol';
import {
  realReasonixBinary,
  scratchReasonix,
  installShowcaseForReasonix,
  SHOWCASE_MODEL,
  type ScratchReasonix,
} from '../../support/reasonix';
import { waitFor } from '../../support/wait';

const FOLDER = 'workspace · Reasonix session';

function card(
  store: SurfaceStore,
  session: ReasonixSession,
  surfaceId: string,
): (Surface & { kind: 'card' }) | undefined {
  const s = store.get(session.sessionKey, 'showcase', surfaceId);
  return s?.kind === 'card' ? (s as Surface & { kind: 'card' }) : undefined;
}

describe('the real Reasonix 1.38.11 over ACP: a session and its extensions', function () {
  this.timeout(60000);
  let s: ScratchReasonix;
  let client: ReasonixAcpClient;
  let store: SurfaceStore;
  let prompts: PromptRequest[];
  let answer: string;
  const frontEnd: UiFrontEnd = {
    notify: () => {},
    prompt: async (req) => {
      prompts.push(req);
      return { cancelled: false, values: { value: answer } };
    },
  };

  before(async () => {
    s = scratchReasonix();
    await installShowcaseForReasonix(s);
  });
  after(() => s.remove());
  beforeEach(() => {
    store = new SurfaceStore();
    prompts = [];
    answer = 'Monokai';
    client = new ReasonixAcpClient({
      bin: realReasonixBinary(),
      args: ['--model', SHOWCASE_MODEL],
      cwd: s.workspace,
      env: s.env,
    });
  });
  afterEach(async () => {
    await client.dispose();
  });

  async function open(): Promise<{ session: ReasonixSession; chat: string[] }> {
    const session = await client.openSession({ cwd: s.workspace, folderName: FOLDER, store, frontEnd });
    const chat: string[] = [];
    session.onDidUpdate((u) => {
      const c = u.content as { type?: string; text?: string } | undefined;
      if (u.sessionUpdate === 'agent_message_chunk' && c?.type === 'text') chat.push(c.text ?? '');
    });
    await waitFor(() => card(store, session, 'controls'), {
      timeoutMs: 20000,
      what: 'the showcase controls card',
      intervalMs: 20,
    });
    return { session, chat };
  }

  it('advertises the extension surface capability and Reasonix answers with its vendor capabilities', async () => {
    await client.start();
    const rx = client.agentMeta['reasonix.io'] as Record<string, unknown>;
    assert.ok(rx.extensionSurface, JSON.stringify(client.agentMeta));
    assert.ok(rx.sessionReloadExtensions);
  });

  it("puts the session's surfaces in the one store under the session, named for it, and never also as chat text", async () => {
    const { session, chat } = await open();
    const controls = card(store, session, 'controls')!;
    assert.equal(controls.folderName, FOLDER);
    assert.equal(controls.sessionKey, session.sessionKey);
    assert.ok(controls.payload.fields?.some((f) => f.key === 'Theme'));
    await waitFor(() => store.get(session.sessionKey, 'showcase', 'indexing'), {
      timeoutMs: 10000,
      what: 'the indexing status',
    });
    // The form comes as a card saying why it cannot be answered here, its fields listed.
    const notes = await waitFor(() => card(store, session, 'notes'), { timeoutMs: 10000, what: 'the notes form' });
    assert.match(notes.payload.text ?? '', new RegExp(FORM_NOT_ANSWERABLE.slice(0, 40)));
    assert.ok(notes.payload.fields?.some((f) => f.key === 'Title'));
    // Each structured surface came with its text fallback; none reached the chat.
    const turn = await session.prompt('say hello');
    assert.equal(turn.stopReason, 'end_turn');
    const text = chat.join('');
    assert.doesNotMatch(text, /Everything on this card|Jot something down|Indexing…/);
    assert.ok(text.length > 0, 'the echo model answered in the chat');
    assert.deepEqual(
      session.pluginRows().map((r) => [r.pluginId, r.state]),
      [['showcase', 'running']],
    );
  });

  it('lists the extension actions with the session named, runs one, and asks its prompt through the front end', async () => {
    const { session } = await open();
    await waitFor(() => session.listActions().length > 0, { timeoutMs: 10000, what: 'the showcase actions' });
    const pick = session.listActions().find((a) => a.name === '/showcase:pick-theme');
    assert.ok(pick, JSON.stringify(session.listActions()));
    assert.equal(pick.folderName, FOLDER);
    const r = await session.hub.invokeAction('showcase', 'pick-theme');
    assert.equal(r.accepted, true);
    assert.equal(prompts.length, 1);
    assert.equal(prompts[0].pluginId, 'showcase');
    assert.deepEqual(prompts[0].payload.fields[0].options, ['Solarized', 'Monokai', 'High Contrast', 'Paper']);
    await waitFor(
      () => card(store, session, 'controls')?.payload.fields?.find((f) => f.key === 'Theme')?.value === 'Monokai',
      { timeoutMs: 10000, what: 'the theme chosen in the prompt on the card Reasonix sends back' },
    );
  });

  it('follows the session status and reloads its extensions with _reasonix.io/session/reloadExtensions', async () => {
    const { session } = await open();
    // 1.38.11 starts reporting with the first turn.
    const states: string[] = [];
    session.onDidChangeStatus((st) => states.push(st.state ?? ''));
    await session.prompt('say hello');
    assert.ok(states.includes('running'), states.join());
    assert.equal(session.status?.model, SHOWCASE_MODEL);
    await waitFor(() => session.status?.state === 'idle', { timeoutMs: 10000, what: 'the session idle again' });
    const r = await session.reloadExtensions();
    assert.equal(typeof r.queued, 'boolean');
    await waitFor(() => card(store, session, 'controls') && !card(store, session, 'controls')!.stale, {
      timeoutMs: 20000,
      what: 'the controls card after the reload',
    });
  });

  it("offers the session's modes and options and sets them (session/set_mode, session/set_config_option)", async () => {
    const { session } = await open();
    const c = session.choices();
    assert.deepEqual(
      c.modes.map((m) => m.id),
      ['normal', 'plan', 'goal'],
    );
    assert.equal(c.currentModeId, 'normal');
    const model = c.configOptions.find((o) => o.id === 'model');
    assert.equal(model?.currentValue, SHOWCASE_MODEL);
    await session.setMode('plan');
    assert.equal(session.choices().currentModeId, 'plan');
    await session.setConfigOption('model', SHOWCASE_MODEL);
    assert.equal(session.choices().configOptions.find((o) => o.id === 'model')?.currentValue, SHOWCASE_MODEL);
  });

  it('Reasonix killed mid-turn: the turn fails naming Reasonix, its surfaces go stale, a hosted extension is undisturbed', async () => {
    const hosted = new UiHub({ sessionKey: 'file:///hosted', folderName: 'hosted', store });
    hosted.bind('other', 's1', 1, { state: 'running', uiActions: [], request: async () => ({}) as never });
    hosted.publish(
      'other',
      { sessionId: 's1', generation: 1, surfaceId: 'c', kind: 'card', payload: { title: 'hosted' } },
      10,
    );
    const { session } = await open();
    const failed = new Promise<AcpError>((resolve) => session.onDidFail(resolve));
    const turn = session.prompt('tell me something long');
    await waitFor(() => session.status?.state === 'running', { timeoutMs: 10000, what: 'the turn running' });
    process.kill(-client.pid!, 'SIGKILL');
    await assert.rejects(turn, (err: unknown) => err instanceof AcpError && /Reasonix/.test(err.message));
    const err = await failed;
    assert.equal(err.kind, 'exit');
    assert.match(err.message, /^Reasonix (was stopped by SIGKILL|exited)/);
    assert.equal(card(store, session, 'controls')?.stale, true);
    const other = store.get('file:///hosted', 'other', 'c');
    assert.equal(other?.stale, false);
    assert.equal(session.pluginRows()[0].state, 'failed');
  });
});
