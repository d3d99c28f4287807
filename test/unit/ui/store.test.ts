import { strict as assert } from 'node:assert';
import { surfaceKey, type SurfaceChange } from '../../../src/protocol';
import { SurfaceStore } from '../../../src/host/ui';

const origin = (sessionKey: string, pluginId: string, generation = 1) => ({
  sessionKey,
  folderName: sessionKey,
  pluginId,
  generation,
});

describe('ui: SurfaceStore', () => {
  it('keys by (session, plugin, surface), marks stale, clears stale, removes sessions, resets', () => {
    let t = 100;
    const store = new SurfaceStore({ now: () => t++ });
    const changes: SurfaceChange[] = [];
    const sub = store.onDidChange((c) => changes.push(c));
    store.upsert(origin('a', 'p'), 's', { kind: 'status', payload: { label: 'x' } });
    store.upsert(origin('a', 'q'), 's', { kind: 'status', payload: { label: 'y' } });
    store.upsert(origin('b', 'p'), 's', { kind: 'card', payload: { title: 'z' } });
    assert.equal(store.snapshot().length, 3);
    store.markPluginStale('a', 'p');
    assert.deepEqual(
      store
        .snapshot()
        .filter((s) => s.stale)
        .map((s) => [s.sessionKey, s.pluginId]),
      [['a', 'p']],
    );
    store.clearStale('a', 'p');
    assert.equal(store.get('a', 'p', 's'), undefined);
    assert.deepEqual(changes.at(-1), {
      type: 'remove',
      key: surfaceKey({ sessionKey: 'a', pluginId: 'p', surfaceId: 's' }),
    });
    store.removeSession('b');
    assert.deepEqual(
      store.snapshot().map((s) => s.pluginId),
      ['q'],
    );
    sub.dispose();
    store.clear();
    assert.equal(
      changes.some((c) => c.type === 'reset'),
      false,
      'a disposed listener hears nothing',
    );
    assert.equal(store.snapshot().length, 0);
  });

  it('keeps only a bounded list of notifications and never stores them as surfaces', () => {
    const store = new SurfaceStore({ maxNotifications: 3 });
    const changes: SurfaceChange[] = [];
    store.onDidChange((c) => changes.push(c));
    for (let i = 0; i < 5; i++)
      store.upsert(origin('a', 'p'), `n${i}`, { kind: 'notification', payload: { title: `t${i}` } });
    assert.deepEqual(
      store.notifications().map((n) => n.surfaceId),
      ['n2', 'n3', 'n4'],
    );
    assert.equal(store.snapshot().length, 0);
    assert.equal(changes.length, 0);
  });

  it('a throwing listener does not stop the others', () => {
    const store = new SurfaceStore();
    let heard = 0;
    store.onDidChange(() => {
      throw new Error('broken front end');
    });
    store.onDidChange(() => heard++);
    store.upsert(origin('a', 'p'), 's', { kind: 'status', payload: { label: 'x' } });
    assert.equal(heard, 1);
  });
});
