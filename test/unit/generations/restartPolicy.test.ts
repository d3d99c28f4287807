import * as assert from 'node:assert/strict';
import { RestartPolicy } from '../../../src/host/generations';

describe('generations: bounded restart policy', () => {
  it('allows at most 4 restarts within 3 minutes, with growing delays', () => {
    let now = 0;
    const p = new RestartPolicy({ now: () => now });
    const delays: number[] = [];
    for (let i = 1; i <= 4; i++) {
      const d = p.onCrash('s/a');
      assert.equal(d.restart, true);
      if (d.restart) {
        assert.equal(d.attempt, i);
        delays.push(d.delayMs);
      }
      now += 1000;
    }
    assert.deepEqual(delays, [500, 1000, 2000, 4000]);
    const fifth = p.onCrash('s/a');
    assert.equal(fifth.restart, false);
    if (!fifth.restart) assert.match(fifth.reason, /5 times within 3 minutes/);
  });

  it('forgets crashes older than the window', () => {
    let now = 0;
    const p = new RestartPolicy({ now: () => now, windowMs: 1000 });
    for (let i = 0; i < 4; i++) p.onCrash('k');
    assert.equal(p.onCrash('k').restart, false);
    now = 1001;
    assert.equal(p.attempts('k'), 0);
    const d = p.onCrash('k');
    assert.ok(d.restart && d.attempt === 1 && d.delayMs === 500);
  });

  it('keeps separate budgets per plugin and resets on a manual restart', () => {
    const p = new RestartPolicy({ maxRestarts: 1, now: () => 0 });
    assert.equal(p.onCrash('a').restart, true);
    assert.equal(p.onCrash('a').restart, false);
    assert.equal(p.onCrash('b').restart, true);
    p.reset('a');
    assert.equal(p.onCrash('a').restart, true);
  });

  it('caps the backoff', () => {
    const p = new RestartPolicy({ maxRestarts: 10, initialDelayMs: 1000, maxDelayMs: 3000, now: () => 0 });
    const delays = Array.from({ length: 4 }, () => {
      const d = p.onCrash('x');
      return d.restart ? d.delayMs : -1;
    });
    assert.deepEqual(delays, [1000, 2000, 3000, 3000]);
  });
});
