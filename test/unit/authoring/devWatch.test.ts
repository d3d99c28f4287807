// Restart on change (issue 42): which changes of a linked folder count, and the throttle that turns
// a burst of saves into one reload, never two at once.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { devChangeOf, RestartThrottle, type DevChange } from '../../../src/host/authoring';

const ROOT = path.resolve('/dev/ext');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('authoring: restart on change (issue 42)', () => {
  it('counts the manifest and sources, never node_modules, .git, caches, editor swap files or outside files', () => {
    const at = (...p: string[]) => path.join(ROOT, ...p);
    assert.equal(devChangeOf(ROOT, at('reasonix-plugin.json')), 'reasonix-plugin.json');
    assert.equal(devChangeOf(ROOT, at('src', 'index.js')), 'src/index.js');
    assert.equal(devChangeOf(ROOT, at('sidecar.py')), 'sidecar.py');
    assert.equal(devChangeOf(ROOT, at('bin', 'sidecar')), 'bin/sidecar');
    for (const ignored of [
      at('node_modules', 'x', 'index.js'),
      at('packages', 'a', 'node_modules', 'y.js'),
      at('.git', 'index'),
      at('__pycache__', 'sidecar.cpython-312.pyc'),
      at('.venv', 'lib', 'site.py'),
      at('.sidecar.js.swp'),
      at('sidecar.js~'),
      path.resolve('/dev/other/reasonix-plugin.json'),
      ROOT,
    ])
      assert.equal(devChangeOf(ROOT, ignored), undefined, ignored);
  });

  it('turns a burst of changes into one run with each folder’s latest file', async () => {
    const runs: DevChange[][] = [];
    const t = new RestartThrottle(async (c) => void runs.push(c), { quietMs: 60, minIntervalMs: 0 });
    try {
      for (let i = 0; i < 5; i++) {
        t.add({ root: '/a', file: `f${i}.js` });
        await sleep(10);
      }
      t.add({ root: '/b', file: 'reasonix-plugin.json' });
      await sleep(150);
      assert.deepEqual(runs, [
        [
          { root: '/a', file: 'f4.js' },
          { root: '/b', file: 'reasonix-plugin.json' },
        ],
      ]);
    } finally {
      t.dispose();
    }
  });

  it('never runs twice at once: changes during a run cause exactly one more run after it', async () => {
    let active = 0;
    let most = 0;
    const runs: string[] = [];
    const t = new RestartThrottle(
      async (c) => {
        active++;
        most = Math.max(most, active);
        runs.push(c.map((x) => x.file).join());
        await sleep(100);
        active--;
      },
      { quietMs: 20, minIntervalMs: 0 },
    );
    try {
      t.add({ root: '/a', file: 'one.js' });
      await sleep(50); // the first run is under way
      t.add({ root: '/a', file: 'two.js' });
      t.add({ root: '/a', file: 'three.js' });
      await sleep(250);
      assert.deepEqual(runs, ['one.js', 'three.js']);
      assert.equal(most, 1);
    } finally {
      t.dispose();
    }
  });

  it('spaces runs by the minimum interval, and runs nothing after dispose', async () => {
    const starts: number[] = [];
    const t = new RestartThrottle(async () => void starts.push(Date.now()), { quietMs: 10, minIntervalMs: 200 });
    t.add({ root: '/a', file: 'a.js' });
    await sleep(40);
    t.add({ root: '/a', file: 'b.js' });
    await sleep(300);
    assert.equal(starts.length, 2);
    assert.ok(starts[1] - starts[0] >= 190, `${starts[1] - starts[0]} ms apart`);
    t.add({ root: '/a', file: 'c.js' });
    t.dispose();
    await sleep(250);
    assert.equal(starts.length, 2);
  });
});
