import * as assert from 'node:assert/strict';
import { StartQueue, startGeneration } from '../../../src/host/generations';
import { countingFactory, FAST_TIMEOUTS, fixtureSpec } from './helpers';

const tick = () => new Promise((r) => setImmediate(r));

describe('runtime: the window start queue', () => {
  it('grants at most its limit, then the highest priority, then the first to ask', async () => {
    const q = new StartQueue(2);
    const order: string[] = [];
    const take = (name: string, priority: () => number) =>
      q.acquire(priority).then((release) => {
        order.push(name);
        return release;
      });
    const a = await take('a', () => 0);
    const b = await take('b', () => 0);
    let inUse = 'none';
    const waiting = [take('c', () => 0), take('d', () => (inUse === 'd' ? 1 : 0)), take('e', () => 0)];
    await tick();
    assert.deepEqual(order, ['a', 'b']);
    assert.equal(q.queued, 3);
    inUse = 'd'; // the user moves into d's folder while it waits: read when a slot frees up
    a();
    a(); // a second release of the same slot gives nothing away
    await tick();
    assert.deepEqual(order, ['a', 'b', 'd']);
    b();
    await tick();
    assert.deepEqual(order, ['a', 'b', 'd', 'c']);
    assert.equal(q.active, 2);
    for (const r of await Promise.all(waiting.slice(0, 2))) r();
    await tick();
    assert.deepEqual(order, ['a', 'b', 'd', 'c', 'e']);
    (await waiting[2])();
    assert.deepEqual([q.active, q.queued], [0, 0]);
  });

  it('forgets a waiter whose start is cancelled and refuses a limit below one', async () => {
    const q = new StartQueue(1);
    const held = await q.acquire(() => 0);
    const ctl = new AbortController();
    const cancelled = q.acquire(() => 5, ctl.signal);
    const next = q.acquire(() => 0);
    ctl.abort(new Error('folder closed'));
    await assert.rejects(cancelled, /folder closed/);
    held();
    (await next)();
    assert.deepEqual([q.active, q.queued], [0, 0]);
    assert.throws(() => new StartQueue(0), RangeError);
    assert.throws(() => q.setLimit(0), RangeError);
  });

  it('bounds the handshakes of several sessions together, real sidecars (one queue, three folders)', async () => {
    const q = new StartQueue(2);
    const { factory, stats } = countingFactory();
    const gens = await Promise.all(
      ['f1', 'f2', 'f3'].map((folder, n) =>
        startGeneration({
          session: { sessionId: `s-${folder}`, workspaceRoot: `/tmp/${folder}`, generation: 1 },
          uiHost: 'headless',
          timeouts: FAST_TIMEOUTS,
          plugins: ['a', 'b', 'c'].map((id) => fixtureSpec(`${folder}-${id}`, { mode: 'slow', delayMs: 60 })),
          sidecarFactory: factory,
          maxConcurrent: 4, // each session alone would allow 4: the window allows 2 in all
          startSlots: q,
          startPriority: () => (n === 2 ? 1 : 0),
        }),
      ),
    );
    try {
      assert.deepEqual(
        gens.map((g) => g.sidecars.size),
        [3, 3, 3],
      );
      assert.equal(stats.maxInFlight, 2, 'never more than the window queue allows, across folders');
      // The folder in use (f3, priority 1) took the slots as they freed up: its three were among the first five.
      const firstFive = stats.created.slice(0, 5);
      assert.equal(firstFive.filter((id) => id.startsWith('f3-')).length, 3, stats.created.join(' '));
      assert.deepEqual([q.active, q.queued], [0, 0]);
    } finally {
      await Promise.all(gens.map((g) => g.stop()));
    }
  });

  it('a folder waiting in the queue does not spend its startup budget there', async () => {
    const q = new StartQueue(1);
    const hold = await q.acquire(() => 0); // another folder's handshake holds the only slot
    const { factory } = countingFactory();
    const pending = startGeneration({
      session: { sessionId: 's-wait', workspaceRoot: '/tmp/wait', generation: 1 },
      uiHost: 'headless',
      timeouts: FAST_TIMEOUTS,
      plugins: [fixtureSpec('w1')],
      sidecarFactory: factory,
      budgetMs: 1500,
      startSlots: q,
    });
    await new Promise((r) => setTimeout(r, 1800)); // longer than its whole budget
    hold();
    const gen = await pending;
    try {
      assert.deepEqual(gen.failures, []);
      assert.equal(gen.sidecars.get('w1')?.state, 'running');
    } finally {
      await gen.stop();
    }
  });
});
