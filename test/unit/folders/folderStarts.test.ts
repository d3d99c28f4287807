import * as assert from 'node:assert/strict';
import { FolderStarts, IN_USE_PRIORITY, PendingChanges } from '../../../src/host/folders';
import { manualClock } from '../../support/manualClock';

const flush = () => new Promise((r) => setImmediate(r));

function harness(idleMs = 0) {
  const log: string[] = [];
  const gates = new Map<string, () => void>();
  const c = manualClock();
  const starts = new FolderStarts({
    start: (key, reason, again) =>
      new Promise<void>((resolve) => {
        log.push(`start ${key} (${reason}${again ? ', again' : ''})`);
        gates.set(key, resolve);
      }),
    stop: async (key) => void log.push(`stop ${key}`),
    idleStopMs: () => idleMs,
    onDidChange: (key, state) => log.push(`${key}: ${state}`),
    clock: c.clock,
  });
  return { starts, log, gates, ...c };
}

describe('folders: started on first use', () => {
  it('starts a folder once however many callers use it meanwhile; they all wait for the start', async () => {
    const h = harness();
    h.starts.add('a');
    h.starts.add('b');
    assert.equal(h.starts.state('a'), 'not-started');
    let done = 0;
    const uses = [h.starts.use('a', 'hook'), h.starts.use('a', 'tool'), h.starts.use('a', 'view')].map((p) =>
      p.then(() => done++),
    );
    await flush();
    assert.deepEqual(h.log, ['a: starting', 'start a (hook)']);
    assert.equal(done, 0, 'nobody goes on before the extensions run');
    h.gates.get('a')!();
    await Promise.all(uses);
    assert.equal(done, 3);
    assert.equal(h.starts.state('a'), 'started');
    assert.equal(h.starts.state('b'), 'not-started', 'an unused folder stays down');
    assert.equal(h.starts.reason('a'), 'hook');
    await h.starts.use('a', 'action'); // running: at once, no second start
    assert.equal(h.log.filter((l) => l.startsWith('start')).length, 1);
  });

  it('a failed start still counts as started (the failure is reported by the caller, not retried by every use)', async () => {
    const starts = new FolderStarts({
      start: () => Promise.reject(new Error('boom')),
      stop: async () => undefined,
      idleStopMs: () => 0,
    });
    starts.add('a');
    await starts.use('a', 'user');
    assert.equal(starts.state('a'), 'started');
  });

  it('the folder the user is in outranks the others in the start queue', () => {
    const h = harness();
    for (const k of ['a', 'b', 'c']) h.starts.add(k);
    const [pa, pb] = [h.starts.priority('a'), h.starts.priority('b')];
    void h.starts.focus('b');
    assert.equal(pb(), IN_USE_PRIORITY);
    assert.ok(pa() < pb());
    void h.starts.focus('a'); // read at grant time: the move is seen by waiting starts
    assert.ok(pa() > pb());
  });

  it('stops a quiet folder after the idle time, never the one in use, and starts it again on use', async () => {
    const h = harness(60_000);
    for (const k of ['a', 'b']) h.starts.add(k);
    const started = [h.starts.focus('a'), h.starts.use('b', 'tool')];
    await flush();
    h.gates.get('a')!();
    h.gates.get('b')!();
    await Promise.all(started);
    h.advance(59_000);
    await flush();
    assert.equal(h.starts.state('b'), 'started', 'not yet quiet long enough');
    h.advance(16_000);
    await flush();
    assert.equal(h.starts.state('b'), 'idle-stopped');
    assert.equal(h.starts.state('a'), 'started', 'the folder in use never stops for being quiet');
    assert.ok(h.log.includes('stop b'));
    const again = h.starts.use('b', 'mcp');
    await flush();
    assert.equal(h.starts.state('b'), 'starting');
    h.gates.get('b')!();
    await again;
    assert.equal(h.starts.state('b'), 'started');
    assert.ok(h.log.includes('start b (mcp, again)'), 'told it is a start after an idle stop');
  });

  it('with no idle time (the default) nothing ever stops, and no timer runs', async () => {
    const h = harness(0);
    h.starts.add('a');
    const u = h.starts.use('a', 'user');
    await flush();
    h.gates.get('a')!();
    await u;
    h.advance(10 * 24 * 3600_000);
    assert.equal(h.starts.state('a'), 'started');
    assert.equal(h.timers.length, 0);
  });

  it('an idle sweep stops only started folders (a folder never used stays as it is)', async () => {
    const h = harness(1_000);
    h.starts.add('a');
    // Reach into the table through the public path: an idle sweep of a folder never started stops nothing.
    assert.deepEqual(await h.starts.sweep(), []);
    assert.equal(h.starts.state('a'), 'not-started');
  });
});

describe('folders: changes before the start', () => {
  it('keeps distinct paths up to the bound and counts what it left out', () => {
    const p = new PendingChanges(3);
    p.add(['a', 'b', 'a']);
    p.add(['c', 'd', 'e']);
    assert.equal(p.size, 3);
    assert.deepEqual(p.take(), { paths: ['a', 'b', 'c'], dropped: 2 });
    assert.deepEqual(p.take(), { paths: [], dropped: 0 });
  });
});
