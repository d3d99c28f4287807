// In-host: a window of several folders starts a folder's extensions on first use (issue 43), with
// the real engine and real sidecars: nothing runs in a folder nobody used; an editor, the
// Extensions view, an action or an explicit start starts it; an idle folder stops and comes back;
// two windows on one folder get two ids. (The extension's own window of ten folders, with an editor,
// file changes and an agent hook as triggers: test/vscode-multiroot.)
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { folderHash } from '../../src/host/folders';
import { SurfaceStore } from '../../src/host/ui';
import { runAction } from '../../src/vscode/actions';
import { createApi } from '../../src/vscode/api';
import { SupervisionTree, type Node } from '../../src/vscode/supervisionTree';
import { manualClock } from '../support/manualClock';
import { alive } from '../support/processes';
import { waitFor } from '../support/wait';
import { folder, manager } from './managers';

describe('folders: started on first use in a multi-root window', function () {
  this.timeout(90_000);
  const dirs: string[] = [];
  const mk = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'reasonix-lazy-'));
    dirs.push(d);
    return d;
  };
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  const running = (m: ReturnType<typeof manager>, key: string) =>
    m
      .get(key)!
      .engine.plugins()
      .filter((p) => p.state === 'running');

  it('starts nothing in a folder nobody used; an action naming a folder starts it and runs', async () => {
    const fs = [0, 1, 2].map((i) => folder(mk(), i));
    const m = manager({ trusted: true, settings: { startFolders: () => 'onUse' } });
    try {
      await m.syncFolders(fs);
      assert.equal(m.sessions().length, 3, 'every folder has a session');
      for (const f of fs) {
        assert.equal(m.startState(f.uri.toString()), 'not-started');
        assert.deepEqual(running(m, f.uri.toString()), [], `${f.name} spawned nothing`);
      }
      const r = await runAction(m, { plugin: 'showcase', action: 'greet', args: { name: 'lazy' }, folder: fs[1].name });
      assert.equal(r.ran, true, r.message);
      assert.equal(r.message, 'Hello, lazy!');
      assert.equal(m.startState(fs[1].uri.toString()), 'started');
      assert.ok(running(m, fs[1].uri.toString()).length >= 2);
      assert.equal(m.startState(fs[0].uri.toString()), 'not-started', 'the others still wait');
      assert.equal(m.startState(fs[2].uri.toString()), 'not-started');
    } finally {
      await m.stopAll();
    }
  });

  it('the Extensions view shows a waiting folder as not started; opening it starts it', async () => {
    const fs = [0, 1].map((i) => folder(mk(), i));
    const m = manager({ trusted: true, settings: { startFolders: () => 'onUse' } });
    const tree = new SupervisionTree(m);
    try {
      await m.syncFolders(fs);
      const roots = tree.getChildren() as (Node & { kind: 'folder' })[];
      assert.equal(roots.length, 2);
      const item = tree.getTreeItem(roots[0]);
      assert.equal(item.description, 'not started: starts when you use this folder');
      assert.equal(item.contextValue, 'folder.waiting', 'the inline Start entry matches it');
      assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
      tree.getChildren(roots[0]); // VS Code asks for the children when the user expands the folder
      const key = fs[0].uri.toString();
      await waitFor(() => m.startState(key) === 'started', { timeoutMs: 30_000, what: 'the opened folder to start' });
      const after = tree.getTreeItem(roots[0]);
      assert.match(String(after.description), /^generation \d+$/);
      assert.equal(after.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
      assert.equal(m.startState(fs[1].uri.toString()), 'not-started');
    } finally {
      tree.dispose();
      await m.stopAll();
    }
  });

  it('the command starts a folder by name; reasonix.startup.folders "all" starts it with the window', async () => {
    const fs = [0, 1].map((i) => folder(mk(), i));
    const eager = fs[1].uri.toString();
    const m = manager({
      trusted: true,
      settings: { startFolders: (f) => (f.uri.toString() === eager ? 'all' : 'onUse') },
    });
    try {
      await m.syncFolders(fs);
      assert.equal(m.startState(eager), 'started', 'asked to start with the window');
      assert.equal(m.startState(fs[0].uri.toString()), 'not-started');
      await m.use(fs[0].uri.toString(), 'user');
      assert.ok(running(m, fs[0].uri.toString()).length >= 2);
    } finally {
      await m.stopAll();
    }
  });

  it('an idle folder stops (its cards stay, shown as stopped) and starts again on its next use', async () => {
    const fs = [0, 1].map((i) => folder(mk(), i));
    const c = manualClock();
    const store = new SurfaceStore();
    const m = manager({
      trusted: true,
      store,
      folderClock: c.clock,
      settings: { startFolders: () => 'onUse', idleStopMinutes: 30 },
    });
    try {
      await m.syncFolders(fs);
      const key = fs[0].uri.toString();
      await m.use(key, 'tool');
      const pids = running(m, key).map((p) => p.pid!);
      await waitFor(() => store.snapshot().some((s) => s.sessionKey === key && s.pluginId === 'showcase'), {
        timeoutMs: 20_000,
        what: 'the showcase cards',
      });
      c.advance(31 * 60_000);
      await waitFor(() => m.startState(key) === 'idle-stopped', { timeoutMs: 20_000, what: 'the idle stop' });
      await waitFor(() => pids.every((p) => !alive(p)), { timeoutMs: 10_000, what: 'the idle processes to end' });
      const cards = store.snapshot().filter((s) => s.sessionKey === key && s.pluginId === 'showcase');
      assert.ok(cards.length > 0, 'the cards stay shown');
      assert.ok(
        cards.every((s) => s.stale),
        'as stopped',
      );
      await m.use(key, 'mcp');
      assert.equal(m.startState(key), 'started');
      assert.ok(running(m, key).length >= 2, 'running again');
    } finally {
      await m.stopAll();
    }
  });

  it('a tool call or a model listing naming a folder starts it first (the exported API)', async () => {
    const fs = [0, 1, 2].map((i) => folder(mk(), i));
    const store = new SurfaceStore();
    const m = manager({ trusted: true, store, settings: { startFolders: () => 'onUse' } });
    const api = createApi(
      m,
      store,
      (a) => runAction(m, a),
      () => ({ activationMs: 0, activationCpuMs: 0 }),
    );
    try {
      await m.syncFolders(fs);
      const out = await api.callTool(
        { pluginId: 'showcase', name: 'count_words' },
        { text: 'one two three' },
        {
          folder: fs[1].uri.fsPath,
        },
      );
      assert.equal(out.kind, 'result', JSON.stringify(out));
      assert.equal(m.startState(fs[1].uri.toString()), 'started');
      const models = await api.listModels({ folder: fs[2].name });
      assert.ok(
        models.some((x) => x.pluginId === 'showcase'),
        'the echo model is listed',
      );
      assert.equal(m.startState(fs[2].uri.toString()), 'started');
      assert.equal(m.startState(fs[0].uri.toString()), 'not-started', 'the unnamed folder still waits');
      assert.deepEqual(
        api.listSessions().map((x) => x.started),
        ['not-started', 'started', 'started'],
      );
    } finally {
      await m.stopAll();
    }
  });

  it('a second window on a folder gets a session id of its own', async () => {
    const slots = mk();
    const f = folder(mk(), 0);
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    // The other window holds the folder's first slot.
    writeFileSync(path.join(slots, `${folderHash(f.uri.toString())}.1.lock`), String(other.pid));
    const m = manager({ trusted: true, slotsDir: slots });
    try {
      await m.syncFolders([f]);
      const [s] = m.sessions();
      assert.equal(s.sessionId, `vscode-${folderHash(f.uri.toString())}-w2`);
    } finally {
      other.kill();
      await m.stopAll();
    }
  });
});
