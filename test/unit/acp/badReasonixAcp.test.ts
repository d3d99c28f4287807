// A Reasonix over ACP that misbehaves (test/fixtures/reasonix/fake-acp.js, where the real one cannot
// on purpose): hanging, writing garbage or a line past the bound fails with an error naming Reasonix
// and leaves no process; malformed, secret-bearing, stale and 2.x surfaces get the hosted
// extensions' bounds and redaction; prompts Reasonix cannot take an answer to are said so; the
// agent's tool permission requests name the tool and its input.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { AcpError, PROMPT_NOT_ANSWERABLE, ReasonixAcpClient, type ToolPermission } from '../../../src/host/acp';
import { SurfaceStore, type UiFrontEnd } from '../../../src/host/ui';
import type { Surface } from '../../../src/protocol';
import { FIXTURES } from '../../support/reasonix';
import { waitFor } from '../../support/wait';

const FAKE = path.join(FIXTURES, 'fake-acp.js');

describe('a Reasonix over ACP that misbehaves', function () {
  this.timeout(20000);
  let client: ReasonixAcpClient;
  afterEach(async () => client?.dispose());

  async function failsWith(mode: string, kind: string, message: RegExp): Promise<void> {
    client = new ReasonixAcpClient({
      bin: FAKE,
      cwd: FIXTURES,
      env: { ...process.env, FAKE_ACP: mode },
      initializeTimeoutMs: 1500,
    });
    const failed = new Promise<AcpError>((resolve) => client.onDidFail(resolve));
    await assert.rejects(
      client.start(),
      (err: unknown) => err instanceof AcpError && err.kind === kind && message.test(err.message),
    );
    assert.equal((await failed).kind, kind);
    assert.equal(client.state, 'failed');
    await waitFor(
      () => {
        try {
          process.kill(client.pid!, 0);
          return false;
        } catch {
          return true;
        }
      },
      { timeoutMs: 5000, what: 'the hung Reasonix gone', intervalMs: 20 },
    );
  }

  it('hangs at initialize: an error naming Reasonix and the budget, and the process is stopped', async () => {
    await failsWith('hang', 'timeout', /^Reasonix did not answer initialize within 1500 ms/);
  });

  it('writes garbage: an error saying its output is not ACP, with the first line', async () => {
    await failsWith('garbage', 'garbage', /^Reasonix wrote output that is not ACP .*Welcome to Reasonix!/);
  });

  it('writes a line past 8 MiB: the connection fails naming Reasonix, not the window', async () => {
    client = new ReasonixAcpClient({ bin: FAKE, cwd: FIXTURES, env: { ...process.env, FAKE_ACP: 'huge' } });
    const failed = new Promise<AcpError>((resolve) => client.onDidFail(resolve));
    await client.start().catch(() => undefined);
    const err = await failed;
    assert.match(err.message, /^Reasonix's ACP connection broke \(.*(too large|exceed|limit).*\)/i);
    assert.equal(client.state, 'failed');
  });

  describe('a session with surfaces that test the bounds', () => {
    let store: SurfaceStore;
    const notes: string[] = [];
    const asked: ToolPermission[] = [];
    const frontEnd: UiFrontEnd = {
      notify: (n) => notes.push(`${n.payload.title}: ${n.payload.body}`),
      prompt: async () => ({ cancelled: true }),
    };

    async function open() {
      store = new SurfaceStore();
      client = new ReasonixAcpClient({ bin: FAKE, cwd: FIXTURES, env: { ...process.env, FAKE_ACP: 'session' } });
      const session = await client.openSession({
        cwd: FIXTURES,
        folderName: 'fixtures · Reasonix session',
        store,
        frontEnd,
        permissions: async (req) => {
          asked.push(req);
          return 'allow';
        },
      });
      const chat: string[] = [];
      session.onDidUpdate((u) => {
        if (u.sessionUpdate === 'agent_message_chunk') chat.push((u.content as { text: string }).text);
      });
      const get = (id: string): Surface | undefined => store.get(session.sessionKey, 'fake', id);
      return { session, chat, get };
    }

    it('redacts, refuses the malformed and the stale, shows 2.x panels and views, and drops only the text fallbacks', async () => {
      const { session, chat, get } = await open();
      await waitFor(() => get('view'), { timeoutMs: 5000, what: 'the view surface' });
      const secret = get('secret');
      assert.equal(secret?.kind, 'card');
      assert.doesNotMatch(JSON.stringify(secret), /sk-live/);
      assert.equal(get('bad'), undefined, 'a malformed card is not shown');
      assert.equal(get('noid'), undefined, 'a surface without a session id is not shown');
      assert.equal(get('old'), undefined, 'a surface of an older generation is not shown');
      assert.equal(get('panel')?.kind, 'panel');
      assert.equal(get('view')?.kind, 'view');
      await session.prompt('surfaces');
      assert.equal(get('turn')?.kind, 'status');
      assert.deepEqual(chat, ['\n\nnot a fallback: the one after a surface was', 'done']);
    });

    it('an input prompt Reasonix offers only Cancel for is said so and cancelled, never asked as a dead form', async () => {
      const { session, chat } = await open();
      await session.prompt('ask-input');
      assert.ok(
        notes.some((n) => n.startsWith('Your name?') && n.includes(PROMPT_NOT_ANSWERABLE)),
        notes.join('\n'),
      );
      assert.ok(
        chat.some((c) => c.includes('"optionId":"name:cancel"')),
        chat.join('|'),
      );
    });

    it('dies mid-turn (stdout closed before the exit is seen): the turn fails with the exit, not a refusal', async () => {
      const { session, chat } = await open();
      await assert.rejects(
        session.prompt('die-mid-turn'),
        (err: unknown) =>
          err instanceof AcpError &&
          err.kind === 'exit' &&
          /^Reasonix exited with code 3/.test(err.message) &&
          !/refused/.test(err.message),
      );
      assert.deepEqual(chat, ['partial answer']);
      assert.equal(client.state, 'failed');
    });

    it("the agent's tool permission request names the tool and its input and answers with the option chosen", async () => {
      const { session, chat } = await open();
      await session.prompt('ask-tool');
      assert.equal(asked.at(-1)?.tool, 'write_file');
      assert.match(asked.at(-1)!.input, /"path": "a.txt"/);
      assert.deepEqual(
        asked.at(-1)!.options.map((o) => o.name),
        ['Allow once', 'Reject'],
      );
      assert.ok(
        chat.some((c) => c.includes('"optionId":"allow"')),
        chat.join('|'),
      );
    });
  });
});
