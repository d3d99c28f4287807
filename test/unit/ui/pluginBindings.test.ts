// The UI hub's one record per bound plugin (src/host/ui/pluginBindings.ts): a plugin's current
// binding and a build's staged one sit in one record, found by the plugin id, and the record goes
// when it holds neither.
import { strict as assert } from 'node:assert';
import { move, PluginBindings, type Binding } from '../../../src/host/ui/pluginBindings';

function binding(pluginId: string, generation: number, staged = false): Binding {
  let commit!: () => void;
  const committed = new Promise<void>((r) => (commit = r));
  return {
    pluginId,
    sessionId: 's',
    generation,
    state: staged ? { kind: 'staged', policy: 'hold', held: new Map(), committed, commit } : { kind: 'live' },
    life: new AbortController(),
  };
}

describe('UI hub: one record per bound plugin', () => {
  it('keeps the current and the staged binding of a plugin in one record, each found by the plugin id', () => {
    const r = new PluginBindings();
    const live = binding('p', 1);
    const next = binding('p', 2, true);
    r.set('p', 'current', live);
    r.set('p', 'staged', next);
    r.set('q', 'current', binding('q', 1));
    assert.equal(r.current('p'), live);
    assert.equal(r.staged('p'), next);
    assert.equal(r.staged('q'), undefined);
    assert.deepEqual(r.ids(), ['p', 'q'], 'one record per plugin');
    assert.deepEqual(
      r.currents().map((b) => `${b.pluginId}@${b.generation}`),
      ['p@1', 'q@1'],
    );
    assert.deepEqual(
      r.stagedAll().map((b) => `${b.pluginId}@${b.generation}`),
      ['p@2'],
    );
  });

  it('lists each kind of binding in the order it was set: a replacement keeps its place, a cleared one gives it up', () => {
    const r = new PluginBindings();
    r.set('b', 'current', binding('b', 1));
    r.set('a', 'current', binding('a', 1));
    r.set('a', 'staged', binding('a', 2, true));
    r.set('c', 'staged', binding('c', 2, true));
    r.set('b', 'staged', binding('b', 2, true));
    r.set('a', 'staged', binding('a', 3, true)); // a new build staged again: a keeps its place
    const staged = () => r.stagedAll().map((b) => `${b.pluginId}@${b.generation}`);
    assert.deepEqual(staged(), ['a@3', 'c@2', 'b@2']);
    r.set('c', 'staged', undefined);
    r.set('c', 'staged', binding('c', 4, true)); // cleared, then staged again: last
    assert.deepEqual(staged(), ['a@3', 'b@2', 'c@4']);
    assert.deepEqual(
      r.currents().map((b) => b.pluginId),
      ['b', 'a'],
    );
    assert.deepEqual(r.ids(), ['b', 'a', 'c'], 'bound plugins first, then the plugins only staged');
  });

  it('drops a record once it holds neither binding, and only then', () => {
    const r = new PluginBindings();
    r.set('p', 'current', binding('p', 1));
    r.set('p', 'staged', binding('p', 2, true));
    r.set('p', 'staged', undefined);
    assert.deepEqual(r.ids(), ['p'], 'the current binding keeps the record');
    r.set('p', 'current', undefined);
    assert.deepEqual(r.ids(), [], 'nothing left: the record is gone');
    assert.equal(r.current('p'), undefined);
  });

  it('move() takes a binding through its table and aborts its prompts when it leaves staged and live', () => {
    const b = binding('p', 2, true);
    move(b, 'commit');
    assert.equal(b.state.kind, 'live');
    assert.equal(b.life.signal.aborted, false);
    move(b, 'crash');
    assert.equal(b.state.kind, 'crashed');
    assert.equal(b.life.signal.aborted, true, 'a crashed binding drops its prompts');
    assert.throws(() => move(b, 'commit'), /crashed/, 'a move the table lacks throws');
  });
});
