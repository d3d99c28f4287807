import * as assert from 'node:assert/strict';
import { GenerationError, startGeneration, STOPPED_BEFORE_LAUNCH } from '../../../src/host/generations';
import { liveDescendants } from '../../support/orphans';
import { alive } from '../../support/processes';
import { countingFactory, FAST_TIMEOUTS, fixtureSpec, readSpawnLog, tempLog, watchProcesses } from './helpers';

const session = { sessionId: 's-1', workspaceRoot: '/tmp/ws', generation: 1 };
const base = { session, uiHost: 'headless' as const, timeouts: FAST_TIMEOUTS };

describe('runtime: startGeneration with real sidecars', () => {
  it('starts nothing at all when there are no plugins', async () => {
    const { factory, stats } = countingFactory();
    const gen = await startGeneration({ ...base, plugins: [], sidecarFactory: factory });
    assert.equal(gen.sidecars.size, 0);
    assert.deepEqual(gen.failures, []);
    assert.deepEqual(stats.created, []);
    assert.deepEqual(liveDescendants(), []);
    await gen.stop();
  });

  it('starts every plugin with its session context, in id order, and stop leaves no process', async () => {
    const gen = await startGeneration({ ...base, plugins: [fixtureSpec('b'), fixtureSpec('a'), fixtureSpec('c')] });
    assert.deepEqual([...gen.sidecars.keys()], ['a', 'b', 'c']);
    assert.deepEqual([gen.generation, gen.sessionId, gen.workspaceRoot], [1, 's-1', '/tmp/ws']);
    const pids = [...gen.sidecars.values()].map((s) => s.pid);
    for (const s of gen.sidecars.values()) assert.equal(s.state, 'running');
    assert.ok(pids.every(alive));
    const first = gen.stop();
    assert.equal(gen.stop(), first, 'stop is idempotent');
    await first;
    for (const s of gen.sidecars.values()) assert.equal(s.state, 'stopped');
    assert.ok(!pids.some(alive));
    assert.deepEqual(liveDescendants(), []);
  });

  it('never has more than 4 sidecars handshaking at once', async () => {
    const log = await tempLog();
    try {
      const plugins = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'].map((id) =>
        fixtureSpec(id, { mode: 'slow', delayMs: 150, log: log.file }),
      );
      const { factory, stats } = countingFactory();
      const gen = await startGeneration({ ...base, plugins, sidecarFactory: factory });
      try {
        assert.equal(gen.sidecars.size, 7);
        assert.equal(stats.maxInFlight, 4, 'the host launched exactly 4 at a time');
        const spawnLog = await readSpawnLog(log.file);
        assert.equal(spawnLog.spawned.length, 7);
        // Process boot time varies under load, so the processes' own log can only bound it.
        assert.ok(spawnLog.maxHandshaking <= 4, `${spawnLog.maxHandshaking} processes between spawn and ready`);
      } finally {
        await gen.stop();
      }
    } finally {
      await log.remove();
    }
  });

  it('honours a smaller concurrency parameter', async () => {
    const { factory, stats } = countingFactory();
    const plugins = ['a', 'b', 'c'].map((id) => fixtureSpec(id, { mode: 'slow', delayMs: 50 }));
    const gen = await startGeneration({ ...base, plugins, sidecarFactory: factory, maxConcurrent: 1 });
    assert.equal(stats.maxInFlight, 1);
    assert.equal(gen.sidecars.size, 3);
    await gen.stop();
  });

  it('case 26: five never-answering optional sidecars all fail inside one shared budget, never more than 4 spawned', async () => {
    const plugins = ['h1', 'h2', 'h3', 'h4', 'h5'].map((id) => fixtureSpec(id, { mode: 'hang' }));
    const { factory, stats } = countingFactory();
    const watch = watchProcesses();
    const began = Date.now();
    const gen = await startGeneration({ ...base, plugins, sidecarFactory: factory, budgetMs: 300 });
    const took = Date.now() - began;
    watch.stop();
    assert.equal(gen.sidecars.size, 0);
    assert.deepEqual(
      gen.failures.map((f) => f.pluginId),
      ['h1', 'h2', 'h3', 'h4', 'h5'],
    );
    // All fail when the one budget runs out (timer slack on a loaded machine allowed).
    for (const f of gen.failures)
      assert.ok(f.elapsedMs >= 295 && f.elapsedMs < 600, `${f.pluginId} failed after ${f.elapsedMs} ms`);
    for (const f of gen.failures.slice(0, 4)) {
      assert.equal(f.stage, 'handshake');
      assert.match(f.message, /startup budget of 300 ms expired while "h\d" was still starting/);
    }
    assert.match(gen.failures[4].message, new RegExp(STOPPED_BEFORE_LAUNCH));
    assert.equal(stats.maxInFlight, 4);
    assert.deepEqual(stats.created, ['h1', 'h2', 'h3', 'h4'], 'the fifth was never created');
    assert.equal(new Set(stats.pids).size, 4, 'four processes were spawned');
    assert.ok(watch.max <= 4, `saw ${watch.max} processes at once`);
    assert.ok(took < 300 + 2_000, `startup took ${took} ms`);
    assert.deepEqual(liveDescendants(), [], 'every hung process was killed');
    await gen.stop();
  });

  it('case 27: a failing required runtime fails the generation and stops the others', async () => {
    const { factory, stats } = countingFactory();
    const plugins = [
      fixtureSpec('a'),
      fixtureSpec('b', { mode: 'fail', required: true }),
      fixtureSpec('c', { mode: 'slow', delayMs: 100 }),
    ];
    await assert.rejects(startGeneration({ ...base, plugins, sidecarFactory: factory }), (err: unknown) => {
      assert.ok(err instanceof GenerationError);
      assert.equal(err.kind, 'required_failed');
      assert.equal(err.pluginId, 'b');
      assert.match(err.message, /required plugin "b" did not start/);
      assert.deepEqual(
        err.failures.map((f) => f.pluginId),
        ['b'],
      );
      return true;
    });
    assert.deepEqual(stats.created, ['a', 'b', 'c'], 'the others had started');
    assert.deepEqual(liveDescendants(), [], 'and were stopped');
  });

  it('names the first failing required plugin in id order, not in time order', async () => {
    const plugins = [
      fixtureSpec('a-slow', { mode: 'fail', delayMs: 200, required: true }),
      fixtureSpec('b-fast', { mode: 'fail', required: true }),
    ];
    await assert.rejects(
      startGeneration({ ...base, plugins }),
      (err: unknown) => err instanceof GenerationError && err.pluginId === 'a-slow' && err.failures.length === 2,
    );
    assert.deepEqual(liveDescendants(), []);
  });

  it('an optional failure is a warning: the plugin is absent and the others keep running', async () => {
    const warnings: string[] = [];
    const logger = { trace() {}, debug() {}, info() {}, error() {}, warn: (m: string) => warnings.push(m) };
    const plugins = [fixtureSpec('a'), fixtureSpec('b', { mode: 'fail' }), fixtureSpec('c')];
    const gen = await startGeneration({ ...base, plugins, logger });
    try {
      assert.deepEqual([...gen.sidecars.keys()], ['a', 'c']);
      for (const s of gen.sidecars.values()) assert.ok(s.state === 'running' && alive(s.pid));
      assert.equal(gen.failures.length, 1);
      assert.equal(gen.failures[0].pluginId, 'b');
      assert.match(gen.failures[0].stderrTail, /failing on purpose/);
      assert.ok(warnings.some((w) => /optional plugin "b" did not start/.test(w)));
      assert.equal(liveDescendants().length, 2);
    } finally {
      await gen.stop();
    }
  });

  it('refuses two plugins replacing the same slot before spawning anything', async () => {
    const { factory, stats } = countingFactory();
    const plugins = [
      fixtureSpec('one', { replaces: ['context', 'system_prompt'] }),
      fixtureSpec('two', { replaces: ['system_prompt'] }),
      fixtureSpec('three'),
    ];
    await assert.rejects(startGeneration({ ...base, plugins, sidecarFactory: factory }), (err: unknown) => {
      assert.ok(err instanceof GenerationError);
      assert.equal(err.kind, 'slot_collision');
      assert.match(err.message, /"system_prompt" is replaced by both "one" and "two"/);
      return true;
    });
    assert.deepEqual(stats.created, []);
  });

  it('cancelling the build stops what was starting', async () => {
    const controller = new AbortController();
    const pending = startGeneration({
      ...base,
      plugins: [fixtureSpec('a'), fixtureSpec('h', { mode: 'hang' })],
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(pending, (err: unknown) => err instanceof GenerationError && err.kind === 'cancelled');
    assert.deepEqual(liveDescendants(), []);
  });
});
