// In-host: the packaged extension as a user meets it, in a workspace whose REASONIX_HOME holds
// the sample extensions (showcase, hello) — set up by scripts/run-inhost-tests.mjs.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PluginInfo, ReasonixApi } from '../../src/vscode/api';
import type { RunOutcome } from '../../src/vscode/actions';
import { waitFor } from '../support/wait';
import { crashAndRestart, running } from './crash';
import { pressUntil } from './press';

const EXTENSION_ID = 'reasonix.reasonix-vscode-host';

function plugin(api: ReasonixApi, id: string): PluginInfo | undefined {
  return api.listPlugins().find((p) => p.pluginId === id);
}

describe('Reasonix extension (in a real VS Code)', function () {
  this.timeout(60_000);
  let api: ReasonixApi;

  before(async () => {
    const ext = vscode.extensions.getExtension<ReasonixApi>(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed`);
    api = await ext.activate();
    await waitFor(() => running(api, 'showcase') && running(api, 'hello'), {
      timeoutMs: 20_000,
      what: 'showcase and hello running',
      intervalMs: 50,
    });
  });

  it('activates and exports the typed API', () => {
    assert.equal(api.apiVersion, 1);
    for (const fn of [
      'listSessions',
      'listPlugins',
      'dispatch',
      'listModels',
      'openStream',
      'runAction',
      'surfaces',
      'onDidChangeSurfaces',
      'onDidFailPlugin',
    ] as const) {
      assert.equal(typeof api[fn], 'function', fn);
    }
  });

  it('registers every command the manifest contributes', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    const declared = ext?.packageJSON.contributes.commands as { command: string; category: string }[];
    assert.ok(declared.every((c) => c.category === 'Reasonix'));
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const c of declared) assert.ok(registered.has(c.command), `${c.command} is registered`);
  });

  it('runs one session for the workspace folder with a stable session id and live sidecars', () => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const sessions = api.listSessions();
    assert.equal(sessions.length, folders.length);
    assert.equal(sessions[0].workspaceRoot, folders[0].uri.fsPath);
    assert.match(sessions[0].sessionId, /^vscode-[0-9a-f]{16}$/);
    assert.ok(sessions[0].generation >= 1);
    const showcase = running(api, 'showcase');
    assert.ok(showcase?.pid && showcase.pid > 0, 'showcase has a pid');
    assert.ok(showcase.actions.some((a) => a.actionId === 'pick-theme'));
  });

  it('tells every sidecar that the folder session started (session.start event)', async () => {
    await waitFor(
      () => {
        const card = api.surfaces().find((s) => s.pluginId === 'showcase' && s.surfaceId === 'session');
        return card?.kind === 'card' && /^Session started at /.test(card.payload.text ?? '');
      },
      { timeoutMs: 20_000, what: 'the showcase Session card to show session.start', intervalMs: 50 },
    );
  });

  it('runs an action through reasonix.runAction {plugin, action, args} and returns its message', async () => {
    const r = await vscode.commands.executeCommand<RunOutcome>('reasonix.runAction', {
      plugin: 'showcase',
      action: 'greet',
      args: { name: 'tester' },
    });
    assert.equal(r.ran, true);
    assert.equal(r.accepted, true);
    assert.equal(r.message, 'Hello, tester!');
  });

  it('runs an action picked from the Run Extension Action QuickPick', async () => {
    const r = await pressUntil(
      'workbench.action.acceptSelectedQuickOpenItem',
      vscode.commands.executeCommand<RunOutcome | undefined>('reasonix.runAction'),
    );
    assert.ok(r, 'an action ran');
    assert.equal(r.ran, true);
    // Items are sorted by plugin id: the first is hello's only action.
    assert.match(r.message ?? '', /hello/i);
  });

  it('answers a select prompt from a sidecar with a native QuickPick', async () => {
    const pending = vscode.commands.executeCommand<RunOutcome>('reasonix.runAction', {
      plugin: 'showcase',
      action: 'pick-theme',
    });
    const r = await pressUntil('workbench.action.acceptSelectedQuickOpenItem', pending);
    assert.equal(r.accepted, true);
    assert.match(r.message ?? '', /^Theme set to /);
  });

  it('answers cancelled when the prompt is dismissed', async () => {
    const pending = vscode.commands.executeCommand<RunOutcome>('reasonix.runAction', {
      plugin: 'showcase',
      action: 'pick-theme',
    });
    const r = await pressUntil('workbench.action.closeQuickOpen', pending);
    assert.equal(r.message, 'Theme unchanged');
  });

  it('explains why an action of a stopped extension cannot run, and starts it again', async () => {
    const key = api.listSessions()[0].key;
    await vscode.commands.executeCommand('reasonix.stopExtension', { sessionKey: key, pluginId: 'hello' });
    assert.equal(plugin(api, 'hello')?.state, 'stopped');
    const r = await vscode.commands.executeCommand<RunOutcome>('reasonix.runAction', {
      plugin: 'hello',
      action: 'say-hello',
    });
    assert.equal(r.ran, false);
    assert.match(r.message ?? '', /"hello" is stopped/);
    await vscode.commands.executeCommand('reasonix.startExtension', { sessionKey: key, pluginId: 'hello' });
    await waitFor(() => running(api, 'hello'), { timeoutMs: 20_000, what: 'hello running again', intervalMs: 50 });
  });

  it('dispatches a hook point through the API as the engine does', async () => {
    const blocked = await api.dispatch('tool.before', { name: 'rm_rf', arguments: '{"path":"/"}' });
    assert.equal(blocked.decision, 'block');
    const passed = await api.dispatch('tool.before', { name: 'read_file', arguments: '{"path":"a"}' });
    assert.equal(passed.decision, 'continue');
    await assert.rejects(api.dispatch('no.such.point', {}), /not one of the 17 hook points/);
    // Known tools (issue 11 item 3): showcase's echo replacement names a tool the caller lacks.
    const unknown = await api.dispatch('tool.before', { name: 'echo', arguments: '{}' }, { knownTools: ['read_file'] });
    assert.equal(unknown.decision, 'failed');
    const known = await api.dispatch('tool.before', { name: 'echo', arguments: '{}' }, { knownTools: ['echo'] });
    assert.equal(known.decision, 'continue');
  });

  it('lists extension-hosted models and streams from one to completion', async () => {
    const models = await api.listModels();
    const echo = models.find((m) => m.ref.startsWith('plugin/showcase/'));
    assert.ok(echo, `showcase serves a model (got ${JSON.stringify(models)})`);
    const stream = await api.openStream(echo.ref, { messages: [{ role: 'user', content: 'ping' }] });
    const chunks: unknown[] = [];
    for await (const c of stream) chunks.push(c);
    assert.ok(chunks.length > 0);
    assert.deepEqual(await stream.outcome, { kind: 'completed' });
  });

  it('the exported API resolves provider refs like the engine: a provider prefix opens the declared model, an undeclared ref is refused', async () => {
    const prefix = await api.openStream('plugin/showcase/echo', { messages: [{ role: 'user', content: 'ping' }] });
    const texts: string[] = [];
    for await (const c of prefix) if ((c as { type: string }).type === 'text') texts.push((c as { text: string }).text);
    assert.equal(texts.join(''), 'Echo: ping');
    assert.deepEqual(await prefix.outcome, { kind: 'completed' });
    await assert.rejects(
      api.openStream('plugin/showcase/echo/nope', {}),
      /unknown model "plugin\/showcase\/echo\/nope"/,
    );
  });

  it('delivers a burst of file changes to the sidecar complete', async () => {
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const dir = path.join(root, `burst-${Date.now()}`);
    await fs.mkdir(dir);
    const N = 1500;
    await Promise.all(Array.from({ length: N }, (_, i) => fs.writeFile(path.join(dir, `f${i}.txt`), String(i))));
    const distinct = () => {
      const card = api.surfaces().find((s) => s.pluginId === 'showcase' && s.surfaceId === 'recent-changes');
      if (card?.kind !== 'card') return 0;
      const f = card.payload.fields?.find((x) => x.key === 'Distinct files');
      return Number(f?.value ?? 0);
    };
    // The watcher also reports the folder itself; every file must arrive.
    await waitFor(() => distinct() >= N, {
      timeoutMs: 30_000,
      what: `${N} distinct paths at showcase (now ${distinct()})`,
      intervalMs: 50,
    });
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('reports a crash naming the plugin, stage and elapsed time, then restarts it automatically', async () => {
    const { before, failure: f, after } = await crashAndRestart(api, 'hello');
    assert.equal(f.kind, 'crash');
    assert.ok(f.stage.length > 0);
    assert.match(f.notification, /"hello"/);
    assert.match(f.notification, /crashed during \S+ after \d+\.\ds/);
    assert.match(f.notification, /Restarting automatically \(1 of 4\)/);
    assert.notEqual(after.pid, before.pid);
  });
});
