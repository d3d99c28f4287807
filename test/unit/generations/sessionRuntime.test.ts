import * as assert from 'node:assert/strict';
import type { PluginSpec } from '../../../src/host/plugins/types';
import { GenerationError, SessionRuntime, type SessionChange } from '../../../src/host/generations';
import { liveDescendants } from '../../support/orphans';
import { alive } from '../../support/processes';
import { FAST_TIMEOUTS, fixtureSpec } from './helpers';

function session(plugins: () => PluginSpec[]) {
  return new SessionRuntime({
    sessionId: 'sess-A',
    workspaceRoot: '/tmp/ws-a',
    uiHost: 'headless',
    timeouts: FAST_TIMEOUTS,
    loadPlugins: plugins,
  });
}
const pidsOf = (rt: SessionRuntime) => [...(rt.current?.sidecars.values() ?? [])].map((s) => s.pid);

describe('runtime: SessionRuntime with real sidecars', () => {
  it('starts generation 1, and a successful reload swaps in a fresh generation and drains the old one', async () => {
    let plugins = [fixtureSpec('a'), fixtureSpec('b')];
    const rt = session(() => plugins);
    const changes: SessionChange[] = [];
    rt.onDidChange((c) => changes.push(c));
    try {
      const g1 = await rt.start();
      assert.equal(g1.generation, 1);
      assert.equal(await rt.start(), g1, 'start is a no-op while running');
      const oldPids = pidsOf(rt);
      assert.ok(oldPids.every(alive));

      plugins = [fixtureSpec('a'), fixtureSpec('c')];
      const r = await rt.reload();
      assert.ok(r.ok);
      assert.equal(rt.current, r.generation);
      assert.equal(r.generation.generation, 2);
      assert.equal(r.generation.sessionId, 'sess-A', 'the session id is stable');
      assert.deepEqual([...r.generation.sidecars.keys()], ['a', 'c']);
      assert.ok(g1.isStopped);
      assert.ok(!oldPids.some(alive), 'the old processes are gone');
      assert.ok(pidsOf(rt).every(alive));
      assert.deepEqual(
        changes.filter((c) => c.kind === 'generation'),
        [
          { kind: 'generation', generation: 1, previous: undefined },
          { kind: 'generation', generation: 2, previous: 1 },
        ],
      );
      assert.deepEqual(
        changes.filter((c) => c.kind === 'phase').map((c) => c.kind === 'phase' && c.phase),
        ['starting', 'running', 'reloading', 'running'],
      );
      assert.equal(rt.phase, 'running');
    } finally {
      await rt.stop();
    }
    assert.deepEqual(liveDescendants(), []);
  });

  it('a failed reload keeps the old generation running and returns the error', async () => {
    let plugins = [fixtureSpec('a')];
    const rt = session(() => plugins);
    try {
      const g1 = await rt.start();
      const pid = g1.sidecars.get('a')?.pid;
      plugins = [fixtureSpec('a'), fixtureSpec('req', { mode: 'fail', required: true })];
      const r = await rt.reload();
      assert.equal(r.ok, false);
      if (r.ok) return;
      assert.ok(r.error instanceof GenerationError);
      assert.match(r.error.message, /required plugin "req"/);
      assert.equal(rt.current, g1, 'the old generation stays');
      assert.equal(g1.sidecars.get('a')?.state, 'running');
      assert.ok(alive(pid));
      assert.equal(liveDescendants().length, 1, 'the new generation left nothing behind');
      assert.equal(rt.phase, 'running');
      assert.equal(rt.generation, 2, 'the failed attempt still used a number');
    } finally {
      await rt.stop();
    }
  });

  it('a failed first start leaves no generation; a later reload can succeed', async () => {
    let plugins = [fixtureSpec('req', { mode: 'fail', required: true })];
    const rt = session(() => plugins);
    try {
      await assert.rejects(rt.start(), /required plugin "req"/);
      assert.equal(rt.current, undefined);
      assert.equal(rt.phase, 'failed');
      plugins = [fixtureSpec('req', { required: true })];
      const r = await rt.reload();
      assert.ok(r.ok && r.generation.generation === 2);
    } finally {
      await rt.stop();
    }
  });

  it('restarts, stops and starts single plugins, bumping the generation number for the restarted sidecar', async () => {
    const rt = session(() => [fixtureSpec('a'), fixtureSpec('b'), fixtureSpec('opt', { mode: 'fail' })]);
    const changes: SessionChange[] = [];
    rt.onDidChange((c) => changes.push(c));
    try {
      const g = await rt.start();
      const a = g.sidecars.get('a');
      const pid1 = a?.pid;
      assert.equal(g.failures.length, 1);

      await rt.restartPlugin('a');
      assert.equal(rt.generation, 2);
      assert.equal(a?.session.generation, 2, 'the restarted sidecar is told the new number');
      assert.equal(g.sidecars.get('b')?.session.generation, 1);
      assert.equal(g.generation, 1, 'the set keeps its number');
      assert.ok(!alive(pid1) && alive(a?.pid) && a?.pid !== pid1);
      assert.ok(changes.some((c) => c.kind === 'sidecar' && c.pluginId === 'a' && c.state === 'stopping'));

      await rt.stopPlugin('b');
      assert.equal(g.sidecars.get('b')?.state, 'stopped');
      await rt.startPlugin('b');
      assert.equal(g.sidecars.get('b')?.state, 'running');
      assert.equal(g.sidecars.get('b')?.session.generation, 3);

      await assert.rejects(rt.restartPlugin('opt'), /plugin opt failed to start/);
      assert.equal(g.sidecars.has('opt'), false);
      assert.deepEqual(
        g.failures.map((f) => f.pluginId),
        ['opt'],
      );
      await assert.rejects(rt.startPlugin('nope'), /not part of runtime generation 1/);
      assert.equal(liveDescendants().length, 2);
    } finally {
      await rt.stop();
    }
  });

  it('stop is idempotent, leaves no process and refuses later work', async () => {
    const rt = session(() => [fixtureSpec('a'), fixtureSpec('b')]);
    await rt.start();
    const first = rt.stop();
    assert.equal(rt.stop(), first);
    await first;
    assert.equal(rt.phase, 'stopped');
    assert.equal(rt.current, undefined);
    assert.deepEqual(liveDescendants(), []);
    await assert.rejects(rt.reload(), (e: unknown) => e instanceof GenerationError && e.kind === 'session_stopped');
  });

  it('stop during a start cancels it quickly and leaves no process', async () => {
    const rt = new SessionRuntime({
      sessionId: 's',
      workspaceRoot: '/tmp/ws',
      uiHost: 'headless',
      timeouts: FAST_TIMEOUTS,
      budgetMs: 10_000,
      loadPlugins: () => [fixtureSpec('a'), fixtureSpec('h', { mode: 'hang' })],
    });
    const starting = rt.start();
    await new Promise((r) => setTimeout(r, 150));
    const began = Date.now();
    await rt.stop();
    assert.ok(Date.now() - began < 3_000);
    await assert.rejects(starting);
    assert.deepEqual(liveDescendants(), []);
  });
});
