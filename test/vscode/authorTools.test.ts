// In-host (issue 42): Preview View… draws a view payload file in the Surfaces app and again on
// save, with the decoder's finding on the member when it is refused; New Reasonix Extension…
// writes a Node extension that runs, serves its tool and is linked, and refuses a non-empty
// folder; Debug Extension… restarts a linked Node extension under --inspect-brk, VS Code's own
// JavaScript debugger attaches and continues it, and stopping the debug session brings the
// normal start back.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DebugLaunch } from '../../src/host/sidecar';
import type { DebugRefused, DebugStarted } from '../../src/vscode/author/debugExtension';
import type { Created } from '../../src/vscode/author/newExtension';
import type { ViewPreviewHandle } from '../../src/vscode/author/viewPreview';
import { registerAuthoring } from '../../src/vscode/author/register';
import { LinkedFolders } from '../../src/vscode/linking';
import { createLog } from '../../src/vscode/logging';
import { pluginFolderV2 } from '../support/plugins';
import { waitFor } from '../support/wait';
import { folder, manager, MemoryMemento } from './managers';

const REPO = path.resolve(__dirname, '../../..');
const CLI = path.join(REPO, 'out', 'src', 'cli.js');
const WELL_BEHAVED = path.join(REPO, 'test', 'fixtures', 'sidecars', 'well-behaved.js');

async function rig(trusted: boolean) {
  const linked = new LinkedFolders(new MemoryMemento());
  const debugs = new Map<string, DebugLaunch>();
  const m = manager({ trusted, linked, debugs });
  const log = createLog('Reasonix author tools test');
  const authoring = registerAuthoring(
    {
      linked,
      launch: { runtime: process.execPath, cli: CLI },
      log,
      changed: () => undefined,
      sessions: m,
      taps: new Map(),
      debugs,
      extensionPath: REPO,
    },
    false,
  );
  const run = (command: string, arg: unknown) => authoring.aids()!.run(command, arg);
  return {
    linked,
    debugs,
    m,
    run,
    authoring,
    async dispose() {
      authoring.dispose();
      await m.stopAll();
      m.dispose();
      linked.dispose();
      log.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    },
  };
}

describe('author tools: Preview View… (in a real VS Code)', function () {
  this.timeout(60_000);
  it('draws a view file in the Surfaces app, marks a refused member and draws it again on save', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rx-preview-'));
    const file = path.join(dir, 'status-view.json');
    const view = {
      body: [
        { kind: 'text', value: 'Indexed 12 files', tone: 'strong' },
        { kind: 'meter', progress: 0.5 },
      ],
    };
    writeFileSync(file, JSON.stringify(view, null, 2));
    const r = await rig(false);
    // The aids load with a linked folder; this one has nothing to run.
    await r.linked.add(dir);
    try {
      const preview = (await r.run('reasonix.previewView', { file })) as ViewPreviewHandle;
      assert.equal(preview.current().kind, 'view');
      // The Surfaces app loaded in the panel and asked for its snapshot: the view is in it.
      const snap = await waitFor(() => preview.posted.find((m) => m.type === 'snapshot'), {
        timeoutMs: 30_000,
        what: 'the webview ready and given its snapshot',
      });
      assert.ok(snap.type === 'snapshot' && snap.surfaces.some((s) => s.kind === 'view'));

      const doc = await vscode.workspace.openTextDocument(file);
      await vscode.window.showTextDocument(doc);
      const edit = new vscode.WorkspaceEdit();
      const at = doc.getText().indexOf('"meter"');
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(at), doc.positionAt(at + 7)), '"gauge"');
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.ok(await doc.save());
      await waitFor(() => preview.current().kind === 'card', { timeoutMs: 10_000, what: 'the refusal drawn' });
      const card = preview.current();
      assert.ok(card.kind === 'card');
      assert.match(
        card.payload.text ?? '',
        /status-view\.json:\d+:\d+: body\[1\]\.kind "gauge" is not a view node kind/,
      );
      const diags = r.authoring.aids()!.previews.diagnostics.get(doc.uri) ?? [];
      assert.equal(diags.length, 1);
      assert.equal(doc.getText(diags[0].range), '"kind": "gauge"');
      assert.ok(preview.posted.some((m) => m.type === 'upsert' && m.surface.kind === 'card'));

      const fix = new vscode.WorkspaceEdit();
      const bad = doc.getText().indexOf('"gauge"');
      fix.replace(doc.uri, new vscode.Range(doc.positionAt(bad), doc.positionAt(bad + 7)), '"meter"');
      assert.ok(await vscode.workspace.applyEdit(fix));
      assert.ok(await doc.save());
      await waitFor(() => preview.current().kind === 'view', { timeoutMs: 10_000, what: 'the view drawn again' });
      assert.equal((r.authoring.aids()!.previews.diagnostics.get(doc.uri) ?? []).length, 0);
    } finally {
      await r.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('author tools: New Reasonix Extension… (in a real VS Code)', function () {
  this.timeout(90_000);
  it('writes a Node extension into a new folder and links it; it runs and its tool answers; a busy folder is refused', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rx-new-'));
    const target = path.join(dir, 'made-here');
    const r = await rig(true);
    try {
      await r.m.syncFolders([folder(mkdtempSync(path.join(tmpdir(), 'rx-new-ws-')), 0)]);
      // The command is registered at activation by the extension itself (here: the aids of this rig).
      const busy = path.join(dir, 'busy');
      mkdirSync(busy);
      writeFileSync(path.join(busy, 'keep.txt'), 'mine');
      await r.linked.add(dir); // loads the aids (they come with the first linked folder)
      assert.equal(await r.run('reasonix.newExtension', { language: 'node', folder: busy, name: 'busy' }), undefined);
      assert.deepEqual(readdirSync(busy), ['keep.txt'], 'nothing written into a folder that is not empty');

      const made = (await r.run('reasonix.newExtension', {
        language: 'node',
        folder: target,
        name: 'made-here',
      })) as Created;
      assert.ok(made.files.includes('sidecar.js') && made.files.includes('.vscode/launch.json'));
      assert.ok(existsSync(path.join(target, 'test', 'check.test.js')));
      assert.ok(r.linked.list().includes(target), 'linked');
      assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, path.join(target, 'sidecar.js'));
      const engine = r.m.sessions()[0].engine;
      await waitFor(() => engine.tools().some((t) => t.pluginId === 'made-here' && t.name === 'greet'), {
        timeoutMs: 20_000,
        what: 'the new extension running and serving greet',
      });
      const out = await engine.callTool({ pluginId: 'made-here', name: 'greet' }, { name: 'Ada' });
      assert.match(JSON.stringify(out), /Hello, Ada!/);
    } finally {
      await r.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('author tools: Debug Extension… (in a real VS Code)', function () {
  this.timeout(90_000);
  it('restarts a linked Node extension (v2) under --inspect-brk, VS Code’s debugger attaches and it runs; stopping restores the normal start', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rx-debug-'));
    pluginFolderV2(dir, 'debugged', {
      command: process.execPath,
      args: [WELL_BEHAVED],
      env: { FIX_RESULT_PATCH: JSON.stringify({ protocolVersion: '2' }) },
    });
    const r = await rig(true);
    await r.linked.add(dir);
    try {
      await r.m.syncFolders([folder(mkdtempSync(path.join(tmpdir(), 'rx-debug-ws-')), 0)]);
      const engine = r.m.sessions()[0].engine;
      const row = () => engine.plugins().find((p) => p.pluginId === 'debugged');
      await waitFor(() => row()?.state === 'running', { timeoutMs: 20_000, what: 'the extension running' });
      const before = row()!.pid;

      const started = (await r.run('reasonix.debugExtension', { pluginId: 'debugged' })) as DebugStarted | undefined;
      assert.ok(started, 'a debug session started');
      assert.equal(started.runtime, 'node');
      assert.equal(started.configuration.type, 'node');
      assert.equal(started.configuration.port, started.port);
      assert.deepEqual(started.launch.args.slice(0, 1), [`--inspect-brk=127.0.0.1:${started.port}`]);
      assert.equal(r.debugs.size, 0, 'the debug start is used once, by the restart it asked for');
      // VS Code's JavaScript debugger attached and continued it past its first line: it runs.
      await waitFor(() => row()?.state === 'running' && row()?.pid !== before, {
        timeoutMs: 30_000,
        what: 'the debugged process running',
      });
      const debugged = row()!.pid;
      assert.ok(vscode.debug.activeDebugSession, 'a debug session is active');

      await vscode.debug.stopDebugging();
      const dbg = r.authoring.aids()!.debugger;
      await waitFor(() => !dbg.debugging(dir), { timeoutMs: 20_000, what: 'the debugging ended' });
      await waitFor(() => row()?.state === 'running' && row()?.pid !== debugged, {
        timeoutMs: 30_000,
        what: 'the normal start again',
      });
    } finally {
      await vscode.debug.stopDebugging();
      await r.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a Python extension without debugpy: the message names what to install, and nothing is restarted', async function () {
    const py = spawnSync('python3', ['-c', 'import debugpy'], { encoding: 'utf8' });
    if (py.error) assert.fail(`python3 is needed by this test: ${py.error.message}`);
    const dir = mkdtempSync(path.join(tmpdir(), 'rx-debug-py-'));
    const target = path.join(dir, 'py-ext');
    const r = await rig(true);
    // The aids come with the first linked folder: one beside, not above, the new extension, so that
    // the scaffold's own writes are no change in a linked folder (that would restart it, by design).
    const aids = mkdtempSync(path.join(tmpdir(), 'rx-debug-py-aids-'));
    await r.linked.add(aids);
    try {
      await r.m.syncFolders([folder(mkdtempSync(path.join(tmpdir(), 'rx-debug-py-ws-')), 0)]);
      await r.run('reasonix.newExtension', { language: 'python', folder: target, name: 'py-ext' });
      const engine = r.m.sessions()[0].engine;
      const row = () => engine.plugins().find((p) => p.pluginId === 'py-ext');
      await waitFor(() => row()?.state === 'running', { timeoutMs: 20_000, what: 'the Python extension running' });
      const pid = row()!.pid;
      const out = (await r.run('reasonix.debugExtension', { pluginId: 'py-ext' })) as DebugRefused | DebugStarted;
      if (py.status === 0) {
        // debugpy is installed here: then the Python Debugger extension is what is missing in code-server.
        assert.ok('refused' in out, JSON.stringify(out));
        assert.match(out.refused, /install the Python Debugger \(ms-python\.debugpy\) extension/);
      } else {
        assert.ok('refused' in out, JSON.stringify(out));
        assert.match(
          out.refused,
          /^Cannot debug py-ext: its runtime lacks the debug server: install debugpy for that Python \(python3 -m pip install debugpy\), then run Debug Extension… again\.$/,
        );
      }
      assert.equal(r.debugs.size, 0, 'no debug start kept');
      assert.equal(row()?.pid, pid, 'not restarted');
    } finally {
      await r.dispose();
      rmSync(dir, { recursive: true, force: true });
      rmSync(aids, { recursive: true, force: true });
    }
  });
});
