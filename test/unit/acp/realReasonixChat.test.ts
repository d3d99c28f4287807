// What `@reasonix` needs of the client, against the real Reasonix 1.38.11 offline (the showcase's
// echo model calls the tool a `call <tool> <json>` prompt names): several sessions in one folder,
// each with its own surfaces; `session/load` of a closed session; and Reasonix's file tools served by the client's documents when `fs.*` is
// advertised: the agent reads the unsaved text, its write goes to the documents (never the disk),
// a path outside the folder is refused.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ReasonixAcpClient, type DocumentAccess, type ReasonixSession } from '../../../src/host/acp';
import { silentLogger } from '../../../src/host/log';
import { SurfaceStore } from '../../../src/host/ui';
import {
  realReasonixBinary,
  scratchReasonix,
  installShowcaseForReasonix,
  SHOWCASE_MODEL,
  type ScratchReasonix,
} from '../../support/reasonix';
import { waitFor } from '../../support/wait';

type Update = { sessionUpdate: string } & Record<string, unknown>;

describe('the real Reasonix 1.38.11 over ACP: chat sessions and the editor’s files', function () {
  this.timeout(90000);
  let s: ScratchReasonix;
  let client: ReasonixAcpClient;
  let store: SurfaceStore;
  const unsaved = new Map<string, string>();
  const reads: string[] = [];
  const writes: { file: string; content: string }[] = [];
  const warnings: string[] = [];
  const documents: DocumentAccess = {
    read: async (file) => {
      reads.push(file);
      if (unsaved.has(file)) return unsaved.get(file);
      return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    },
    write: async (file, content) => {
      writes.push({ file, content });
      unsaved.set(file, content);
    },
  };

  before(async () => {
    s = scratchReasonix();
    await installShowcaseForReasonix(s);
  });
  after(() => s.remove());
  beforeEach(() => {
    store = new SurfaceStore();
    client = new ReasonixAcpClient({
      bin: realReasonixBinary(),
      args: ['--model', SHOWCASE_MODEL],
      cwd: s.workspace,
      env: s.env,
      documents,
      logger: { ...silentLogger, warn: (m: string) => warnings.push(m) },
    });
  });
  afterEach(() => client.dispose());

  const open = (load?: string) =>
    client.openSession({ cwd: s.workspace, folderName: 'workspace · Reasonix chat', store, load });

  async function turn(session: ReasonixSession, text: string): Promise<Update[]> {
    const got: Update[] = [];
    const sub = session.onDidUpdate((u) => got.push(u));
    try {
      const r = await session.prompt(text);
      assert.equal(r.stopReason, 'end_turn');
      return got;
    } finally {
      sub.dispose();
    }
  }
  const toolResult = (us: Update[]) =>
    us
      .filter((u) => u.sessionUpdate === 'tool_call_update')
      .map((u) => JSON.stringify(u.content ?? ''))
      .join('\n');

  it('opens several sessions in one folder, each with its own key and its own extension surfaces', async () => {
    const a = await open();
    const b = await open();
    assert.notEqual(a.acpSessionId, b.acpSessionId);
    assert.notEqual(a.sessionKey, b.sessionKey);
    for (const x of [a, b])
      await waitFor(() => store.get(x.sessionKey, 'showcase', 'controls'), {
        timeoutMs: 20000,
        what: `the controls card of ${x.acpSessionId}`,
      });
    await a.close();
    assert.equal(store.get(a.sessionKey, 'showcase', 'controls'), undefined);
    assert.ok(store.get(b.sessionKey, 'showcase', 'controls'), "closing one leaves the other's cards");
  });

  it('reopens a closed session with session/load (advertised): the same session takes the next turn', async () => {
    const first = await open();
    await turn(first, 'remember the word kumquat');
    const id = first.acpSessionId;
    await first.close();
    assert.equal(client.canLoad, true);
    const loaded = await open(id);
    assert.equal(loaded.acpSessionId, id);
    const after = await turn(loaded, 'and now this');
    const text = after
      .filter((u) => u.sessionUpdate === 'agent_message_chunk')
      .map((u) => (u.content as { text?: string }).text ?? '')
      .join('');
    assert.match(text, /Echo|Calling/);
    assert.doesNotMatch(text, /kumquat/, 'the replayed transcript is not part of this turn');
    await waitFor(() => store.get(loaded.sessionKey, 'showcase', 'controls'), {
      timeoutMs: 20000,
      what: "the loaded session's controls card",
    });
  });

  it('reads a file through the documents (the unsaved text), writes through them (not the disk), refuses outside', async () => {
    const file = path.join(s.workspace, 'notes.txt');
    writeFileSync(file, 'saved text on disk\n');
    unsaved.set(file, 'UNSAVED text in the editor\n');
    const session = await open();
    const read = await turn(session, 'call read_file {"path":"notes.txt"}');
    assert.ok(reads.includes(file), `Reasonix asked the client for ${file} (asked: ${reads.join(', ')})`);
    assert.match(toolResult(read), /UNSAVED text in the editor/);
    assert.doesNotMatch(toolResult(read), /saved text on disk/);

    const write = await turn(session, 'call write_file {"path":"notes.txt","content":"written by the agent\\n"}');
    assert.match(toolResult(write), /wrote/);
    assert.deepEqual(writes.at(-1), { file, content: 'written by the agent\n' });
    assert.equal(readFileSync(file, 'utf8'), 'saved text on disk\n', 'the disk is the documents’ business');

    // Outside the folder: the client refuses (an ACP error, logged naming the path) and the documents
    // never see it. Reasonix 1.38.11 then reads the file itself, under its own tool approval
    // (workspace-write lets it read anywhere): the client cannot widen or narrow that.
    const outside = path.join(s.dir, 'outside.txt');
    writeFileSync(outside, 'secret outside the folder\n');
    await turn(session, `call read_file {"path":${JSON.stringify(outside)}}`);
    await turn(session, `call write_file {"path":${JSON.stringify(outside)},"content":"x"}`);
    assert.ok(!reads.includes(outside) && !writes.some((w) => w.file === outside), 'the documents never saw it');
    assert.ok(
      warnings.some(
        (w) => w.includes('fs/read_text_file refused') && w.includes(`${outside} is outside this session's folder`),
      ),
      warnings.join('\n'),
    );
  });
});
