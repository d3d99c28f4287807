// In-host (issue 42): the manifest while typing. The contributed JSON schema marks a bad member at
// its key (VS Code's own JSON language service), and on save of a linked folder's manifest the
// decoder's and `reasonix-host check`'s findings land on their member with a working quick fix,
// the check running a real fixture sidecar (v1 and v2).
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registerAuthoring } from '../../src/vscode/author/register';
import { LinkedFolders } from '../../src/vscode/linking';
import { createLog } from '../../src/vscode/logging';
import { countWordsPlugin, pluginFolder, pluginFolderV2 } from '../support/plugins';
import { waitFor } from '../support/wait';
import { traceFromNdjson } from '../../src/host/trace';
import type { FrameTap } from '../../src/host/wire';
import { folder, manager, MemoryMemento } from './managers';

const REPO = path.resolve(__dirname, '../../..');
const CLI = path.join(REPO, 'out', 'src', 'cli.js');
const WELL_BEHAVED = path.join(REPO, 'test', 'fixtures', 'sidecars', 'well-behaved.js');

describe('authoring: the manifest while typing (in a real VS Code)', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'rx-author-'))));
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir, { recursive: true, force: true });
  });

  const textOf = (doc: vscode.TextDocument, r: vscode.Range) => doc.getText(r);

  it('the contributed schema marks an unknown runtime member at its key (v2) and a v2 member in a v1 manifest', async () => {
    pluginFolderV2(dir, 'schema', { command: process.execPath, restart: true });
    const doc = await vscode.workspace.openTextDocument(path.join(dir, 'reasonix-plugin.json'));
    await vscode.window.showTextDocument(doc);
    const diags = await waitFor(
      () => {
        const d = vscode.languages.getDiagnostics(doc.uri).filter((x) => /restart/.test(textOf(doc, x.range)));
        return d.length ? d : undefined;
      },
      { timeoutMs: 30_000, what: 'a JSON schema diagnostic on "restart"' },
    );
    assert.equal(textOf(doc, diags[0].range), '"restart"');

    const v1 = path.join(dir, 'v1');
    pluginFolder(v1, 'schema1', { command: process.execPath, tools: [] });
    const doc1 = await vscode.workspace.openTextDocument(path.join(v1, 'reasonix-plugin.json'));
    await vscode.window.showTextDocument(doc1);
    const d1 = await waitFor(
      () => vscode.languages.getDiagnostics(doc1.uri).find((x) => textOf(doc1, x.range) === '"tools"'),
      { timeoutMs: 30_000, what: 'a JSON schema diagnostic on v1 "tools"' },
    );
    assert.ok(d1);
  });

  async function harness(folder: string) {
    const linked = new LinkedFolders(new MemoryMemento());
    await linked.add(folder);
    const log = createLog('Reasonix authoring test');
    const idle = manager({ trusted: false });
    const authoring = registerAuthoring(
      {
        linked,
        launch: { runtime: process.execPath, cli: CLI },
        log,
        changed: () => undefined,
        sessions: idle,
        taps: new Map(),
      },
      false,
    );
    const doc = await vscode.workspace.openTextDocument(path.join(folder, 'reasonix-plugin.json'));
    await vscode.window.showTextDocument(doc);
    const ours = () => authoring.aids()?.diagnostics?.collection.get(doc.uri) ?? [];
    const diagnostics = { refresh: (d: vscode.TextDocument) => authoring.aids()!.diagnostics!.refresh(d) };
    const fixOf = async (d: vscode.Diagnostic) => {
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        doc.uri,
        d.range,
        vscode.CodeActionKind.QuickFix.value,
      );
      const ours = actions.filter((a) => a.edit && a.kind?.value === vscode.CodeActionKind.QuickFix.value);
      assert.ok(ours.length, `a quick fix for "${d.message}" (got ${JSON.stringify(actions.map((a) => a.title))})`);
      return ours[0];
    };
    return {
      doc,
      diagnostics,
      ours,
      fixOf,
      dispose: () => (authoring.dispose(), idle.dispose(), linked.dispose(), log.dispose()),
    };
  }

  it('on save: an unknown member is marked at its key; its quick fix removes it; the check then finds nothing (v1)', async () => {
    pluginFolder(dir, 'saved', { command: process.execPath, args: [WELL_BEHAVED] });
    const h = await harness(dir);
    try {
      const edit = new vscode.WorkspaceEdit();
      const at = h.doc.getText().indexOf('"runtime"');
      edit.insert(h.doc.uri, h.doc.positionAt(at), '"colour": "red",\n  ');
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.ok(await h.doc.save());
      const [d] = await waitFor(() => (h.ours().length ? h.ours() : undefined), {
        timeoutMs: 10_000,
        what: 'a finding after save',
      });
      assert.equal(textOf(h.doc, d.range), '"colour"');
      assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
      assert.match(d.message, /unknown top-level key "colour"/);
      const action = await h.fixOf(d);
      assert.ok(action?.edit, 'a quick fix');
      assert.match(action.title, /colour/);
      assert.ok(await vscode.workspace.applyEdit(action.edit));
      assert.ok(await h.doc.save());
      assert.equal(JSON.parse(readFileSync(path.join(dir, 'reasonix-plugin.json'), 'utf8')).colour, undefined);
      await waitFor(() => h.ours().length === 0, { timeoutMs: 10_000, what: 'no findings after the fix' });
      // The check of the fixed manifest (a real sidecar) finds nothing either.
      await h.diagnostics.refresh(h.doc);
      assert.deepEqual(h.ours(), []);
    } finally {
      h.dispose();
    }
  });

  it("on save: the check's finding (a tool served without the tools capability) with a fix that makes it conform (v2)", async () => {
    countWordsPlugin(dir);
    const h = await harness(dir);
    try {
      const edit = new vscode.WorkspaceEdit();
      const text = h.doc.getText();
      const from = text.indexOf('"capabilities"');
      const to = text.indexOf(']', from) + 1;
      edit.replace(h.doc.uri, new vscode.Range(h.doc.positionAt(from), h.doc.positionAt(to)), '"capabilities": []');
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.ok(await h.doc.save());
      const d = await waitFor(() => h.ours().find((x) => x.source === 'reasonix-host check'), {
        timeoutMs: 30_000,
        what: "check's finding",
      });
      assert.equal(textOf(h.doc, d.range), '[]');
      assert.match(d.message, /capability "tools" is not declared/);
      const action = await h.fixOf(d);
      assert.ok(action?.edit);
      assert.ok(await vscode.workspace.applyEdit(action.edit));
      assert.ok(await h.doc.save());
      assert.deepEqual(JSON.parse(h.doc.getText()).runtime.capabilities, ['tools']);
      // The decoder's warning (tools without the capability) went with it, and the check now passes.
      await h.diagnostics.refresh(h.doc);
      assert.deepEqual(
        h.ours().map((x) => x.message),
        [],
      );
    } finally {
      h.dispose();
    }
  });
});

describe('authoring: restart on change (in a real VS Code)', function () {
  this.timeout(60_000);
  for (const protocol of [1, 2] as const) {
    it(`a linked folder's sidecar runs its new code after a save, and the view says which file (v${protocol})`, async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'rx-devrestart-'));
      const sidecar = path.join(dir, 'sidecar.js');
      const code = (action: string) =>
        `process.env.FIX_RESULT_PATCH = JSON.stringify({ protocolVersion: '${protocol}', uiActions: [{ actionId: '${action}' }] });\n` +
        `require(${JSON.stringify(WELL_BEHAVED)});\n`;
      writeFileSync(sidecar, code('before'));
      const runtime = { command: process.execPath, args: [sidecar], capabilities: ['ui'] };
      if (protocol === 1) pluginFolder(dir, 'dev', runtime);
      else pluginFolderV2(dir, 'dev', runtime);
      // Node and git noise in the folder must not restart it.
      mkdirSync(path.join(dir, 'node_modules'));
      // Let the file system's events about these writes pass before the folder is watched.
      await new Promise((r) => setTimeout(r, 1_000));
      const linked = new LinkedFolders(new MemoryMemento());
      await linked.add(dir);
      const m = manager({ trusted: true, linked });
      const log = createLog('Reasonix restart test');
      let changed = 0;
      const authoring = registerAuthoring(
        {
          linked,
          launch: { runtime: process.execPath, cli: CLI },
          log,
          changed: () => changed++,
          sessions: m,
          taps: new Map(),
          quietMs: 200,
          minIntervalMs: 500,
        },
        false,
      );
      const dev = () =>
        m
          .sessions()
          .flatMap((s) => s.engine.plugins())
          .find((p) => p.pluginId === 'dev');
      const actions = () =>
        dev()
          ?.actions.map((a) => a.actionId)
          .join();
      try {
        await m.syncFolders([folder(mkdtempSync(path.join(tmpdir(), 'rx-devrestart-ws-')), 0)]);
        await waitFor(() => actions() === 'before', { timeoutMs: 15_000, what: 'the first code running' });
        const generation = m.sessions()[0].engine.generation;
        const pid = dev()?.pid;
        writeFileSync(path.join(dir, 'node_modules', 'noise.js'), '// not a source\n');
        await new Promise((r) => setTimeout(r, 1_000));
        assert.equal(m.sessions()[0].engine.generation, generation, 'a change in node_modules restarts nothing');

        const doc = await vscode.workspace.openTextDocument(sidecar);
        await vscode.window.showTextDocument(doc);
        const edit = new vscode.WorkspaceEdit();
        const at = doc.getText().indexOf('before');
        edit.replace(doc.uri, new vscode.Range(doc.positionAt(at), doc.positionAt(at + 'before'.length)), 'after');
        assert.ok(await vscode.workspace.applyEdit(edit));
        assert.ok(await doc.save());
        await waitFor(() => actions() === 'after', { timeoutMs: 20_000, what: 'the new code answering' });
        assert.notEqual(dev()?.pid, pid, 'a new process');
        await waitFor(() => changed > 0, { timeoutMs: 5_000, what: 'the view told' });
        assert.equal(authoring.note(dir), 'restarted after a change to sidecar.js');
      } finally {
        authoring.dispose();
        await m.stopAll();
        m.dispose();
        linked.dispose();
        log.dispose();
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describe('authoring: the protocol trace (in a real VS Code)', function () {
  this.timeout(60_000);
  const SECRET = 'sk-live-abcdef0123456789abcdef0123';
  for (const protocol of [1, 2] as const) {
    it(`Show Protocol Trace pairs every request with its answer and shows no secret; Copy gives replayable NDJSON (v${protocol})`, async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'rx-trace-'));
      if (protocol === 1)
        pluginFolder(dir, 'secrets', {
          command: process.execPath,
          args: [path.join(REPO, 'test', 'fixtures', 'sidecars', 'secret-everywhere.js')],
          env: { FIX_SECRET: `api_key=${SECRET}` },
          intercepts: ['tool.before'],
          capabilities: ['ui', 'providers'],
        });
      else countWordsPlugin(dir, { TOOLS_NOTE: `api_key=${SECRET}` });
      const linked = new LinkedFolders(new MemoryMemento());
      await linked.add(dir);
      const taps = new Map<string, FrameTap>();
      const m = manager({ trusted: true, linked, taps });
      const log = createLog('Reasonix trace test');
      const authoring = registerAuthoring(
        {
          linked,
          launch: { runtime: process.execPath, cli: CLI },
          log,
          changed: () => undefined,
          sessions: m,
          taps,
        },
        false,
      );
      try {
        await m.syncFolders([folder(mkdtempSync(path.join(tmpdir(), 'rx-trace-ws-')), 0)]);
        const plugin = protocol === 1 ? 'secrets' : 'tools';
        const session = m.sessions()[0];
        await waitFor(() => session.engine.plugins().find((p) => p.pluginId === plugin)?.state === 'running', {
          timeoutMs: 15_000,
          what: 'the traced sidecar running',
        });
        if (protocol === 1) await session.engine.dispatch('tool.before', { name: 'shell', arguments: '{}' });
        else {
          const r = await session.engine.callTool({ pluginId: 'tools', name: 'count_words' }, { text: 'a b' });
          assert.equal(JSON.stringify(r).includes('2'), true, JSON.stringify(r));
        }
        await new Promise((r) => setTimeout(r, 300));
        const doc = (await authoring.aids()!.run('reasonix.showProtocolTrace', { root: dir })) as vscode.TextDocument;
        const text = doc.getText();
        assert.ok(!text.includes(SECRET), 'no secret in the trace view');
        assert.match(text, /→ {2}request {2}extension\/initialize {2}id 1 {2}\d+ B {2}answered by #\d+/);
        assert.match(text, /← {2}response {2}extension\/initialize {2}id 1 {2}\d+ B {2}answers #\d+ after \d+ ms/);
        assert.match(text, /→ {2}notification {2}extension\/initialized/);
        const ndjson = <string>await authoring.aids()!.run('reasonix.copyProtocolTrace', {
          root: dir,
          filter: protocol === 1 ? { hookPoint: 'tool.before' } : { method: 'extension/tool/call' },
        });
        assert.equal(await vscode.env.clipboard.readText(), ndjson);
        const entries = traceFromNdjson(ndjson);
        // v1: the intercept, its answer and the hook point's event to the chain; v2: the call and its answer.
        assert.deepEqual(
          entries.map((e) => `${e.dir} ${e.kind} ${e.method}`),
          protocol === 1
            ? ['out request extension/intercept', 'in response extension/intercept', 'out notification extension/event']
            : ['out request extension/tool/call', 'in response extension/tool/call'],
        );
        assert.equal(entries[1].pairedSeq, entries[0].seq);
        assert.ok(entries[1].latencyMs! >= 0);
        assert.ok(!ndjson.includes(SECRET));
      } finally {
        authoring.dispose();
        await m.stopAll();
        m.dispose();
        linked.dispose();
        log.dispose();
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describe('authoring: try it without an agent (in a real VS Code)', function () {
  this.timeout(60_000);
  it('Fire Hook Point… dispatches tool.before to a v1 interceptor; Call Tool… calls a v2 tool through the chain', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rx-tryit-'));
    const v1 = pluginFolder(path.join(dir, 'secrets'), 'secrets', {
      command: process.execPath,
      args: [path.join(REPO, 'test', 'fixtures', 'sidecars', 'secret-everywhere.js')],
      env: { FIX_SECRET: 'nothing-secret' },
      intercepts: ['tool.before'],
      capabilities: ['ui', 'providers'],
    });
    const v2 = countWordsPlugin(path.join(dir, 'tools'));
    const linked = new LinkedFolders(new MemoryMemento());
    await linked.add(v1);
    await linked.add(v2);
    const m = manager({ trusted: true, linked });
    const log = createLog('Reasonix try-it test');
    const authoring = registerAuthoring(
      {
        linked,
        launch: { runtime: process.execPath, cli: CLI },
        log,
        changed: () => undefined,
        sessions: m,
        taps: new Map(),
      },
      false,
    );
    try {
      await m.syncFolders([folder(mkdtempSync(path.join(tmpdir(), 'rx-tryit-ws-')), 0)]);
      const engine = m.sessions()[0].engine;
      await waitFor(
        () => ['secrets', 'tools'].every((id) => engine.plugins().find((p) => p.pluginId === id)?.state === 'running'),
        {
          timeoutMs: 15_000,
          what: 'both extensions running',
        },
      );
      const fired = <{ decision?: string; reason?: string } | undefined>(
        await authoring
          .aids()!
          .run('reasonix.fireHookPoint', { point: 'tool.before', payload: { name: 'shell', arguments: '{}' } })
      );
      assert.equal(fired?.decision, 'block');
      assert.match(fired?.reason ?? '', /blocked: nothing-secret/);
      const shown = vscode.window.activeTextEditor?.document.getText() ?? '';
      assert.match(shown, /"point": "tool.before"/);
      // Only the two extensions of this test take part (the runner's home also holds the samples).
      for (const p of engine.plugins())
        if (!['secrets', 'tools'].includes(p.pluginId)) await m.stopPlugin(m.sessions()[0].key, p.pluginId);
      await waitFor(() => engine.tools().some((t) => t.name === 'count_words'), {
        timeoutMs: 10_000,
        what: 'count_words served',
      });
      const callArgs = { pluginId: 'tools', name: 'count_words', arguments: { text: 'one two three four' } };
      // Through the chain: the v1 interceptor blocks every tool.before, this call too.
      const refused = <{ kind?: string; by?: string } | undefined>(
        await authoring.aids()!.run('reasonix.callTool', callArgs)
      );
      assert.equal(refused?.kind, 'refused');
      assert.equal(refused?.by, 'secrets');
      await m.stopPlugin(m.sessions()[0].key, 'secrets');
      const called = await authoring.aids()!.run('reasonix.callTool', callArgs);
      assert.match(JSON.stringify(called), /"content":"4"/);
      assert.match(vscode.window.activeTextEditor?.document.getText() ?? '', /ext__tools__count_words/);
    } finally {
      authoring.dispose();
      await m.stopAll();
      m.dispose();
      linked.dispose();
      log.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
