// In-host: `@reasonix` turns in VS Code's own chat (workbench.action.chat.open with a query, waiting
// for the response), answered by the real Reasonix 1.38.11 with the showcase's echo model (installed
// by it in a scratch home). The chat's text is read back from VS Code (Export Chat to a file): the
// echo model's answer is in the response. A conversation keeps its ACP session (the result's
// metadata, carried back in the history); a new chat opens another one, each with its extensions'
// cards under its own session; /mode sets the mode from inside the chat; Reasonix's file tools read
// the editor's unsaved text and write as an edit of the open document.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ReasonixApi } from '../../src/vscode/api';
import {
  realReasonixBinary,
  scratchReasonix,
  installShowcaseForReasonix,
  SHOWCASE_MODEL,
  type ScratchReasonix,
} from '../support/reasonix';
import { waitFor } from '../support/wait';

const EXTENSION_ID = 'reasonix.reasonix-vscode-host';

interface ChatOutcome {
  metadata?: { reasonix?: { sessionId?: string; cwd?: string }; followups?: unknown[] };
  errorDetails?: { message: string };
}

/** Whether this VS Code has its own chat view (with `chat.disableAIFeatures`); 1.96 has it only with Copilot. */
const builtInChat = vscode.workspace.getConfiguration('chat').inspect('disableAIFeatures')?.defaultValue !== undefined;

// One of the two suites runs, chosen by what this VS Code has (never a skipped suite).
if (!builtInChat)
  describe('@reasonix where VS Code has no chat view of its own (1.96 without Copilot)', function () {
    it('the participant is contributed and activation registers it without a chat view; the session commands are there', async () => {
      const ext = vscode.extensions.getExtension<ReasonixApi>(EXTENSION_ID);
      assert.ok(ext);
      await ext.activate();
      assert.ok(ext.isActive);
      const contributed = (ext.packageJSON as { contributes: { chatParticipants: { id: string }[] } }).contributes
        .chatParticipants;
      assert.deepEqual(
        contributed.map((p) => p.id),
        ['reasonix.agent'],
      );
      const commands = await vscode.commands.getCommands(true);
      for (const c of ['reasonix.openReasonixSession', 'reasonix.closeReasonixSession'])
        assert.ok(commands.includes(c), `${c} is registered`);
    });
  });

if (builtInChat)
  describe('@reasonix in VS Code’s chat (the real Reasonix)', function () {
    this.timeout(180_000);
    let api: ReasonixApi;
    let s: ScratchReasonix;
    let out: string;
    let settingsFile: string;
    let savedSettings: string;
    const cfg = () => vscode.workspace.getConfiguration('reasonix');
    const chat = () => vscode.workspace.getConfiguration('chat');

    /** One turn typed into VS Code's chat view; resolves when the response is complete. */
    async function ask(query: string): Promise<ChatOutcome> {
      // Ask mode, the chat mode participants are made for, whatever the profile used last.
      const r = await vscode.commands.executeCommand<ChatOutcome | undefined>('workbench.action.chat.open', {
        mode: 'ask',
        query,
        blockOnResponse: true,
      });
      assert.ok(r, `VS Code's chat answered "${query}"`);
      return r;
    }

    /** The responses of the chat view's current conversation, as VS Code exports them (Export Chat…). */
    async function responses(): Promise<string[]> {
      const file = path.join(out, `chat-${Date.now()}.json`);
      await vscode.commands.executeCommand('workbench.action.chat.export', vscode.Uri.file(file));
      const data = JSON.parse(readFileSync(file, 'utf8')) as { requests: { response?: unknown }[] };
      return data.requests.map((q) => JSON.stringify(q.response ?? ''));
    }

    before(async () => {
      const ext = vscode.extensions.getExtension<ReasonixApi>(EXTENSION_ID);
      assert.ok(ext);
      api = await ext.activate();
      out = mkdtempSync(path.join(tmpdir(), 'rx-chat-'));
      // The in-host profile turns VS Code's chat off. A participant needs it on, and chat setup done
      // without a sign-in (chat.allowAnonymousAccess, REAL_VSCODE.md), else the setup's stand-in agent
      // takes the turns. allowAnonymousAccess is registered only once chat runs, so the profile's
      // settings file is written directly (its folder is beside the logs folder the runner names).
      settingsFile = path.join(path.dirname(process.env.REASONIX_TEST_LOGS ?? ''), 'User', 'settings.json');
      savedSettings = readFileSync(settingsFile, 'utf8');
      const settings = JSON.parse(savedSettings) as Record<string, unknown>;
      writeFileSync(
        settingsFile,
        JSON.stringify({ ...settings, 'chat.disableAIFeatures': false, 'chat.allowAnonymousAccess': true }, null, 2),
      );
      // The settings editor's own write (which edits the file as it is now) makes VS Code read it again.
      await chat().update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
      s = scratchReasonix();
      await installShowcaseForReasonix(s);
      await cfg().update('path', realReasonixBinary(), vscode.ConfigurationTarget.Global);
      await cfg().update('home', s.reasonixHome, vscode.ConfigurationTarget.Global);
      await cfg().update('sessions.model', SHOWCASE_MODEL, vscode.ConfigurationTarget.Global);
      // VS Code's chat needs a language model selected even for a participant's turn; here the only one
      // is the echo model of VS Code's own copy of the showcase, which "stop" would stop while a
      // session runs it (then VS Code refuses every turn: "Language model unavailable").
      await cfg().update('sessions.hostedCopies', 'keep', vscode.ConfigurationTarget.Global);
      await waitFor(() => chat().get('allowAnonymousAccess') === true, { timeoutMs: 20_000, what: 'anonymous chat' });
    });

    after(async () => {
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      await cfg().update('home', undefined, vscode.ConfigurationTarget.Global);
      await cfg().update('sessions.model', undefined, vscode.ConfigurationTarget.Global);
      await cfg().update('path', undefined, vscode.ConfigurationTarget.Global);
      await cfg().update('sessions.hostedCopies', undefined, vscode.ConfigurationTarget.Global);
      writeFileSync(settingsFile, savedSettings);
      s?.remove();
      rmSync(out, { recursive: true, force: true });
    });

    let first: string;

    it('a @reasonix turn: the echo model’s text arrives in the chat response', async () => {
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      const r = await ask('@reasonix say hello from the chat');
      assert.equal(r.errorDetails, undefined, r.errorDetails?.message);
      first = r.metadata?.reasonix?.sessionId ?? '';
      assert.ok(first, 'the result names its ACP session');
      const said = await responses();
      assert.equal(said.length, 1);
      assert.match(said[0], /Echo: /, said[0]);
    });

    it('the same conversation keeps its session; /mode sets the mode from the chat', async () => {
      const modes = await ask('@reasonix /mode');
      assert.equal(modes.metadata?.reasonix?.sessionId, first);
      assert.ok((modes.metadata?.followups ?? []).length >= 3, 'the modes offered as followups');
      const set = await ask('@reasonix /mode plan');
      assert.equal(set.metadata?.reasonix?.sessionId, first);
      const said = await responses();
      assert.match(said.at(-1) ?? '', /Mode: Plan/);
    });

    it('a new chat opens another session, each with the extensions’ cards under its own session', async () => {
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      const r = await ask('@reasonix a second conversation');
      const second = r.metadata?.reasonix?.sessionId ?? '';
      assert.ok(second && second !== first, `a second session (${second} vs ${first})`);
      for (const id of [first, second])
        await waitFor(
          () =>
            api
              .surfaces()
              .find((x) => x.sessionKey.endsWith(`#${id}`) && x.pluginId === 'showcase' && x.surfaceId === 'controls'),
          { timeoutMs: 30_000, what: `the controls card of session ${id}` },
        );
    });

    it('Reasonix’s file tools read the editor’s unsaved text and write as an undoable edit of the document', async () => {
      const folder = vscode.workspace.workspaceFolders![0].uri;
      const uri = vscode.Uri.joinPath(folder, `chat-notes-${Date.now()}.txt`);
      await vscode.workspace.fs.writeFile(uri, Buffer.from('saved on disk\n'));
      const doc = await vscode.workspace.openTextDocument(uri);
      const editor = await vscode.window.showTextDocument(doc);
      await editor.edit((e) => e.replace(new vscode.Range(0, 0, 1, 0), 'UNSAVED in the editor\n'));
      assert.ok(doc.isDirty);
      const name = path.basename(uri.fsPath);
      await ask(`@reasonix call read_file {"path":"${name}"}`);
      assert.match((await responses()).at(-1) ?? '', /UNSAVED in the editor/);
      await ask(`@reasonix call write_file {"path":"${name}","content":"written by Reasonix\\n"}`);
      await waitFor(() => doc.getText() === 'written by Reasonix\n', { timeoutMs: 10_000, what: 'the edit' });
      assert.equal(doc.isDirty, false, 'saved');
      assert.equal(readFileSync(uri.fsPath, 'utf8'), 'written by Reasonix\n');
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('undo');
      await waitFor(() => doc.getText() === 'UNSAVED in the editor\n', { timeoutMs: 10_000, what: 'the undo' });
    });
  });
