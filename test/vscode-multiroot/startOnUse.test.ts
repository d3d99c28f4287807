// In-host, a window of ten folders (issue 43): the extension starts no folder nobody used; the
// folder of the editor the user opens starts first and alone, and gets the file changes made in it
// before; an agent hook into a folder not started yet starts it and is ruled on by its extensions;
// VS Code starting every MCP server lists each folder's tools without starting it, and a call starts
// its folder alone.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isAgentNameFor } from '../../src/host/tools';
import type { ReasonixApi } from '../../src/vscode/api';
import type { ReasonixTesting } from '../../src/vscode/context';
import { toolTitles } from '../../src/vscode/mcp/labels';
import { runHookCommand } from '../support/processes';
import { waitFor } from '../support/wait';
import { lm } from '../vscode/lmTools';

const EXTENSION_ID = 'reasonix.reasonix-vscode-host';
const COUNT_WORDS = 'ext__showcase__count_words';

describe('a window of ten folders starts each on first use', function () {
  this.timeout(90_000);
  let api: ReasonixApi;
  let ext: vscode.Extension<ReasonixApi>;
  const folders = () => vscode.workspace.workspaceFolders ?? [];
  const stateOf = (name: string) => api.listSessions().find((s) => s.folderName === name)?.started;
  const runningIn = (name: string) =>
    api.listPlugins().filter((p) => p.folderName === name && p.state === 'running').length;

  before(async () => {
    const found = vscode.extensions.getExtension<ReasonixApi>(EXTENSION_ID);
    assert.ok(found, `${EXTENSION_ID} is installed`);
    ext = found;
    api = await ext.activate();
    assert.equal(folders().length, 10, 'the runner opened ten folders');
    await waitFor(() => api.listSessions().length === 10, { timeoutMs: 20_000, what: 'a session per folder' });
  });

  it('runs no extension in any folder before one is used', async () => {
    // Give an eager start every chance to show.
    await new Promise((r) => setTimeout(r, 2000));
    for (const f of folders()) assert.equal(stateOf(f.name), 'not-started', f.name);
    assert.equal(api.listPlugins().filter((p) => p.state === 'running').length, 0);
  });

  it('the folder of the editor the user opens starts alone, with the changes made in it before', async () => {
    const f = folders()[3];
    const root = f.uri.fsPath;
    // A file in the folder's root: a new directory and its first file can reach VS Code's watcher as
    // the directory alone.
    writeFileSync(path.join(root, 'before-start.ts'), 'export const early = 1;\n');
    await new Promise((r) => setTimeout(r, 1500)); // the watcher reports it while nothing runs
    assert.equal(stateOf(f.name), 'not-started');
    const doc = await vscode.workspace.openTextDocument(path.join(root, 'before-start.ts'));
    await vscode.window.showTextDocument(doc);
    await waitFor(() => runningIn(f.name) === 2, { timeoutMs: 30_000, what: `${f.name}'s two samples running` });
    assert.equal(stateOf(f.name), 'started');
    const others = folders().filter((x) => x !== f);
    assert.deepEqual(
      others.map((x) => stateOf(x.name)),
      others.map(() => 'not-started'),
      'every other folder still waits',
    );
    assert.equal(api.listPlugins().filter((p) => p.state === 'running').length, 2, 'two sidecars, not twenty');
    await waitFor(
      () => {
        const card = api
          .surfaces()
          .find((s) => s.folderName === f.name && s.pluginId === 'showcase' && s.surfaceId === 'recent-changes');
        return card?.kind === 'card' && (card.payload.markdown ?? '').includes('before-start.ts');
      },
      { timeoutMs: 20_000, what: 'the Recent changes card to list the change made before the start' },
    );
  });

  it("an agent hook into a folder not started yet starts it and gets its extensions' ruling", async () => {
    const f = folders()[6];
    assert.equal(stateOf(f.name), 'not-started');
    const contributed = (ext.packageJSON as { contributes: { chatPlugins: { path: string }[] } }).contributes
      .chatPlugins;
    const pluginRoot = path.join(ext.extensionPath, contributed[0].path);
    const hooks = JSON.parse(readFileSync(path.join(pluginRoot, 'hooks', 'hooks.json'), 'utf8')) as {
      hooks: Record<string, { hooks: { linux: string }[] }[]>;
    };
    const command = hooks.hooks.PreToolUse[0].hooks[0].linux.replaceAll('${CLAUDE_PLUGIN_ROOT}', pluginRoot);
    const r = await runHookCommand(command, {
      timestamp: new Date().toISOString(),
      cwd: f.uri.fsPath,
      sessionId: 'in-host',
      hookEventName: 'PreToolUse',
      transcript_path: '/dev/null',
      tool_name: 'rm_rf',
      tool_input: { path: '/' },
      tool_use_id: 'tool-lazy',
    });
    assert.equal(r.code, 0, r.stderr);
    const answer = JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string } };
    assert.equal(answer.hookSpecificOutput.permissionDecision, 'deny', 'showcase, started by the hook, denied it');
    assert.equal(stateOf(f.name), 'started');
  });

  it("VS Code starting every folder's MCP server starts no folder; the first tool call starts only its own", async () => {
    const f = folders()[5];
    const before = folders().map((x) => stateOf(x.name));
    assert.equal(before[5], 'not-started');
    // VS Code names each folder's tools after its server's title (src/vscode/mcp/labels.ts).
    const titles = toolTitles(folders().map((x) => ({ name: x.name, index: x.index, path: x.uri.fsPath })));
    const toolOf = (i: number) => lm().tools.find((t) => isAgentNameFor(t.name, COUNT_WORDS, [titles[i]]));
    // What VS Code's chat.mcp.autostart does at an agent's first request: every server it knows starts.
    await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
    const tool = await waitFor(() => toolOf(5), {
      timeoutMs: 30_000,
      what: `${f.name}'s ${COUNT_WORDS} offered from its manifest: ${lm()
        .tools.map((t) => t.name)
        .join(', ')}`,
      intervalMs: 200,
    });
    assert.match(tool.description, /Count the words in a text/);
    assert.deepEqual(
      folders().map((x) => stateOf(x.name)),
      before,
      'listing the tools of every folder started none of them',
    );
    const r = await lm().invokeTool(
      tool.name,
      { input: { text: 'lazy folders count words' }, toolInvocationToken: undefined },
      new vscode.CancellationTokenSource().token,
    );
    assert.match(JSON.stringify(r.content), /4 words/);
    assert.equal(stateOf(f.name), 'started', 'the call started its folder');
    assert.deepEqual(
      folders().map((x, i) => (i === 5 ? 'started' : stateOf(x.name))),
      before.map((s, i) => (i === 5 ? 'started' : s)),
      'and no other',
    );
  });

  it("opening a folder's group in the Surfaces view starts that folder (the view's folderOpened, through the window's hub)", async () => {
    const f = folders()[7];
    assert.equal(stateOf(f.name), 'not-started');
    const testing = (api as ReasonixApi & { testing: ReasonixTesting }).testing;
    // A message the hub refuses (not the view's protocol) starts nothing.
    await testing.fromSurfacesView({ type: 'folderOpened', sessionKey: f.uri.toString(), extra: 1 });
    assert.equal(stateOf(f.name), 'not-started', 'a refused message is no use');
    await testing.fromSurfacesView({ type: 'folderOpened', sessionKey: f.uri.toString() });
    await waitFor(() => runningIn(f.name) === 2, { timeoutMs: 30_000, what: `${f.name}'s two samples running` });
    assert.equal(stateOf(f.name), 'started');
    assert.equal(stateOf(folders()[9].name), 'not-started', 'another folder still waits');
  });

  it('Start Extensions of Folder (the command behind the inline Start button of a folder row) starts that folder', async () => {
    const f = folders()[8];
    assert.equal(stateOf(f.name), 'not-started');
    await vscode.commands.executeCommand('reasonix.startFolder', f.uri.fsPath);
    assert.equal(stateOf(f.name), 'started');
    await waitFor(() => runningIn(f.name) === 2, { timeoutMs: 30_000, what: `${f.name}'s two samples running` });
    assert.equal(stateOf(folders()[9].name), 'not-started', 'the folder after it still waits');
  });
});
