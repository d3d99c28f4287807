import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ChangeBatcher, splitBatches, toWorkspaceRelative, type BatchTimers } from '../../../src/host/resources';

/** Manual clock: timers fire only when the test advances time. */
class FakeTimers implements BatchTimers {
  now = 0;
  private seq = 0;
  private readonly due = new Map<number, { at: number; fn: () => void }>();
  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.due.set(id, { at: this.now + ms, fn });
    return id;
  }
  clearTimeout(h: unknown): void {
    this.due.delete(h as number);
  }
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const next = [...this.due.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!next) break;
      this.due.delete(next[0]);
      this.now = next[1].at;
      next[1].fn();
    }
    this.now = until;
  }
}

const root = path.posix.join('/ws', 'project');
const abs = (rel: string) => path.posix.join(root, rel);

function harness(opts: { exclude?: string[]; coalesceMs?: number; maxWaitMs?: number } = {}) {
  const timers = new FakeTimers();
  const sent: string[][] = [];
  const b = new ChangeBatcher({ root, send: (p) => void sent.push(p), timers, pathApi: path.posix, ...opts });
  return { timers, sent, b };
}

describe('resources: change batcher', () => {
  it('maps absolute paths to workspace-relative POSIX paths and refuses paths outside the folder', () => {
    assert.equal(toWorkspaceRelative('/ws/p', '/ws/p/src/a.ts', path.posix), 'src/a.ts');
    assert.equal(toWorkspaceRelative('/ws/p', '/ws/p', path.posix), undefined);
    assert.equal(toWorkspaceRelative('/ws/p', '/ws/other/a.ts', path.posix), undefined);
    assert.equal(toWorkspaceRelative('/ws/p', 'relative/a.ts', path.posix), undefined);
    assert.equal(toWorkspaceRelative('C:\\ws\\p', 'C:\\ws\\p\\src\\a.ts', path.win32), 'src/a.ts');
    assert.equal(toWorkspaceRelative('C:\\ws\\p', 'D:\\x.ts', path.win32), undefined);
  });

  it('coalesces events over 250 ms of quiet into one de-duplicated batch', async () => {
    const { timers, sent, b } = harness();
    b.add(abs('a.ts'));
    timers.advance(200);
    b.add(abs('b.ts'));
    b.add(abs('a.ts'));
    timers.advance(249);
    assert.equal(sent.length, 0, 'nothing leaves before 250 ms of quiet');
    timers.advance(1);
    await b.flush();
    assert.deepEqual(sent, [['a.ts', 'b.ts']]);
  });

  it('delivers a continuous stream of events within the max wait', async () => {
    const { timers, sent, b } = harness({ maxWaitMs: 1000 });
    for (let t = 0; t < 1500; t += 100) {
      b.add(abs(`f${t}.txt`));
      timers.advance(100);
    }
    await b.flush();
    assert.ok(sent.length >= 2, 'a batch left although events never paused');
    assert.equal(sent[0].length, 10);
  });

  it('splits a 10,000-path burst into messages of at most 1,000 paths, losing none', async () => {
    const { timers, sent, b } = harness();
    const all = Array.from({ length: 10_000 }, (_, i) => `dir${i % 37}/file-${i}.txt`);
    for (const p of all) b.add(abs(p));
    for (const p of all.slice(0, 500)) b.add(abs(p)); // duplicates inside the burst
    timers.advance(250);
    await b.flush();
    assert.equal(sent.length, 10);
    assert.ok(sent.every((batch) => batch.length <= 1000));
    const delivered = sent.flat();
    assert.equal(delivered.length, 10_000);
    assert.deepEqual(new Set(delivered), new Set(all));
  });

  it('skips VCS and dependency folders and user exclusions', async () => {
    const { timers, sent, b } = harness({ exclude: ['**/*.log', 'build', '**/.DS_Store', 'tmp/{a,b}/**'] });
    const accepted = ['src/x.ts', 'logs/readme.md', 'buildscripts/x.sh', 'tmp/c/keep.txt'];
    const refused = [
      '.git/index',
      'node_modules/pkg/index.js',
      'packages/a/node_modules/x.js',
      'a/.svn/entries',
      'server.log',
      'deep/dir/out.log',
      'build/out.js',
      'mac/.DS_Store',
      'tmp/a/x',
      'tmp/b/y/z',
    ];
    for (const p of accepted) assert.equal(b.add(abs(p)), true, p);
    for (const p of refused) assert.equal(b.add(abs(p)), false, p);
    timers.advance(250);
    await b.flush();
    assert.deepEqual(sent, [accepted]);
  });

  it('applies changed exclusions to later events', async () => {
    const { timers, sent, b } = harness();
    assert.equal(b.add(abs('dist/a.js')), true);
    b.setExcludes(['dist']);
    assert.equal(b.add(abs('dist/b.js')), false);
    timers.advance(250);
    await b.flush();
    assert.deepEqual(sent, [['dist/a.js']]);
  });

  it('keeps batches in order with an asynchronous sender and reports send errors without losing later batches', async () => {
    const timers = new FakeTimers();
    const order: string[][] = [];
    const errors: unknown[] = [];
    let calls = 0;
    const b = new ChangeBatcher({
      root,
      timers,
      pathApi: path.posix,
      maxPathsPerMessage: 2,
      onError: (e) => errors.push(e),
      send: async (p) => {
        calls++;
        await new Promise((r) => setImmediate(r));
        if (calls === 1) throw new Error('pipe closed');
        order.push(p);
      },
    });
    for (const p of ['a', 'b', 'c', 'd', 'e']) b.add(abs(p));
    await b.flush();
    assert.equal(errors.length, 1);
    assert.deepEqual(order, [['c', 'd'], ['e']]);
  });

  it('uses real timers by default and drops everything after dispose', async () => {
    const sent: string[][] = [];
    let resolve!: () => void;
    const got = new Promise<void>((r) => (resolve = r));
    const b = new ChangeBatcher({
      root,
      pathApi: path.posix,
      coalesceMs: 5,
      send: (p) => {
        sent.push(p);
        resolve();
      },
    });
    b.add(abs('x'));
    await got;
    assert.deepEqual(sent, [['x']]);
    b.dispose();
    assert.equal(b.add(abs('y')), false);
    assert.equal(b.pendingCount, 0);
  });

  it('splitBatches keeps order and refuses a zero limit', () => {
    assert.deepEqual(splitBatches(['a', 'b', 'c'], 2), [['a', 'b'], ['c']]);
    assert.deepEqual(splitBatches([], 2), []);
    assert.throws(() => splitBatches(['a'], 0), RangeError);
  });
});
