// In-host: the session manager with the real engine and real sidecar processes — multi-root
// folders, the Workspace Trust gate, reload generations, and stopping within the deactivate budget.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { SessionEngineOptions } from '../../src/host/session';
import { LinkedFolders } from '../../src/vscode/linking';
import { ModelDirectory } from '../../src/vscode/lm/directory';
import { sessionIdFor, spawnAllowed } from '../../src/vscode/sessions';
import { alive } from '../support/processes';
import { rowsOf } from '../../src/vscode/rows';
import { pluginItem } from '../../src/vscode/supervisionTree';
import { summarize } from '../../src/vscode/displayStates';

const DEPENDENT = path.resolve(__dirname, '../../../test/fixtures/sidecars/dependent.js');
import { waitFor } from '../support/wait';
import { folder, manager, MemoryMemento } from './managers';

describe('sessions: one per folder, trust, stop budget', function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  const mk = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'reasonix-folder-'));
    dirs.push(d);
    return d;
  };
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('spawns nothing in an untrusted workspace', async () => {
    assert.equal(spawnAllowed(false), false);
    assert.equal(spawnAllowed(true), true);
    const created: SessionEngineOptions[] = [];
    const m = manager({ trusted: false, created });
    await m.syncFolders([folder(mk(), 0)]);
    assert.equal(created.length, 0, 'no session engine was even built');
    assert.equal(m.sessions().length, 0);
    await m.stopAll();
  });

  it('runs one session per folder (multi-root), follows removals, and stops within 4 s leaving no process', async () => {
    const a = folder(mk(), 0);
    const b = folder(mk(), 1);
    const m = manager({ trusted: true });
    await m.syncFolders([a, b]);
    const sessions = m.sessions();
    assert.equal(sessions.length, 2);
    assert.notEqual(sessions[0].sessionId, sessions[1].sessionId);
    assert.equal(
      sessions.find((s) => s.folder === a)?.sessionId,
      sessionIdFor(a.uri),
      'session id is stable per folder',
    );
    const pidsOf = (s: (typeof sessions)[number]) =>
      s.engine
        .plugins()
        .filter((p) => p.state === 'running')
        .map((p) => p.pid as number);
    for (const s of sessions) assert.ok(pidsOf(s).length >= 2, `${s.folder.name} runs the sample extensions`);

    const bPids = pidsOf(sessions.find((s) => s.folder === b)!);
    await m.syncFolders([a]);
    assert.equal(m.sessions().length, 1);
    await waitFor(() => bPids.every((p) => !alive(p)), {
      timeoutMs: 8000,
      what: "the removed folder's processes to end",
      intervalMs: 50,
    });

    const sa = m.sessions()[0];
    const g1 = sa.engine.generation;
    await m.reload();
    assert.ok(sa.engine.generation > g1, 'reload grows the generation');

    const aPids = pidsOf(sa);
    const t0 = Date.now();
    await m.stopAll();
    assert.ok(Date.now() - t0 < 4000, 'stopped within the deactivate budget');
    await waitFor(() => aPids.every((p) => !alive(p)), {
      timeoutMs: 2000,
      what: 'no process left behind',
      intervalMs: 50,
    });
  });

  it('a v2 extension whose required capability nobody provides is Inactive with its reason, beside the running samples', async () => {
    const plugin = mk();
    writeFileSync(
      path.join(plugin, 'reasonix-plugin.json'),
      JSON.stringify({
        apiVersion: 'reasonix.io/plugin/v2',
        name: 'needs-index',
        version: '1.0.0',
        requires: [{ namespace: 'acme', kind: 'index', id: 'search', versionRange: '>=1.0.0' }],
        runtime: { command: process.execPath, args: [DEPENDENT] },
      }),
    );
    const linked = new LinkedFolders(new MemoryMemento());
    await linked.add(plugin);
    const m = manager({ trusted: true, linked });
    try {
      await m.syncFolders([folder(mk(), 0)]);
      const [s] = m.sessions();
      const states = Object.fromEntries(s.engine.plugins().map((p) => [p.pluginId, p]));
      assert.equal(states['needs-index']?.state, 'inactive');
      assert.equal(states['needs-index']?.pid, undefined, 'never spawned');
      assert.equal(states['needs-index']?.detail, 'missing required capability acme/index/search');
      assert.equal(states.hello?.state, 'running', 'the v1 sample runs beside it');
      assert.equal(states.showcase?.state, 'running');
      const [row] = rowsOf(m.sessions()).filter((r) => r.pluginId === 'needs-index');
      assert.equal(row.state, 'inactive');
      const item = pluginItem(row);
      assert.equal(item.description, 'inactive · needs acme/index/search');
      assert.equal(item.contextValue, 'plugin.inactive.linked', 'no start/restart menu entries match it');
      assert.match(summarize(rowsOf(m.sessions())).text, /1 inactive/);
    } finally {
      await m.stopAll();
    }
  });

  it('offers no language models while the workspace is untrusted, and the showcase model once it is trusted', async () => {
    let trusted = false;
    const isTrusted = () => trusted;
    const m = manager({ trusted: isTrusted });
    const models = new ModelDirectory(m, isTrusted);
    try {
      const dir = folder(mk(), 0);
      await m.syncFolders([dir]);
      assert.equal(m.sessions().length, 0, 'nothing runs untrusted');
      assert.deepEqual(await models.list(), []);

      trusted = true; // what VS Code's trust grant leads to: the folders are synced again
      await m.syncFolders([dir]);
      await waitFor(
        () =>
          m
            .sessions()[0]
            ?.engine.plugins()
            .some((p) => p.pluginId === 'showcase' && p.state === 'running'),
        { timeoutMs: 10_000, what: 'showcase running once trusted', intervalMs: 50 },
      );
      const offered = await models.list();
      assert.ok(
        offered.some((e) => e.ref === 'plugin/showcase/echo/echo-1'),
        `the showcase model is offered: ${offered.map((e) => e.ref).join(', ')}`,
      );
      assert.ok(
        offered.every((e) => e.pluginId === 'showcase'),
        'only the showcase serves models here',
      );

      // The directory itself asks the trust gate on every listing, not only the session manager.
      trusted = false;
      assert.deepEqual(await models.list(), []);
    } finally {
      models.dispose();
      await m.stopAll();
    }
  });
});
