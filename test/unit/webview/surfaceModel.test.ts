import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { surfaceKey, surfaceOwner, type Surface, type SurfaceKind } from '../../../src/protocol';
import { RECENT_NOTIFICATIONS, SurfaceModel, clampProgress, fieldText } from '../../../webview/logic/surfaceModel';
import { card, form, notification, republish, status } from './fixtures';

/**
 * The order the view drew when it regrouped and re-sorted every surface on each delta, kept as the
 * reference the incremental model must match: folders by name, plugins by id, panels first in
 * first-appearance order, then statuses, then cards/forms/views, then notifications (the recent
 * few), each newest first by first appearance.
 */
class ResortingModel {
  private readonly entries = new Map<string, { surface: Surface; order: number }>();
  private counter = 0;
  reset(surfaces: readonly Surface[]): void {
    this.entries.clear();
    const sorted = [...surfaces].sort(
      (a, b) => a.firstRevision! - b.firstRevision! || a.updatedAt - b.updatedAt || a.revision - b.revision,
    );
    for (const s of sorted) this.entries.set(surfaceKey(s), { surface: s, order: ++this.counter });
  }
  upsert(s: Surface): void {
    const existing = this.entries.get(surfaceKey(s));
    if (existing && existing.surface.revision > s.revision) return;
    this.entries.set(surfaceKey(s), { surface: s, order: existing?.order ?? ++this.counter });
  }
  remove(key: string): void {
    this.entries.delete(key);
  }
  drawn(): unknown {
    const rank: Record<SurfaceKind, number> = { panel: -1, status: 0, form: 1, card: 1, view: 1, notification: 2 };
    const all = [...this.entries.values()];
    const folders = [...new Map(all.map((e) => [e.surface.sessionKey, e.surface.folderName])).entries()].sort(
      ([ka, a], [kb, b]) => a.localeCompare(b) || (ka < kb ? -1 : ka > kb ? 1 : 0),
    );
    return folders.map(([sessionKey, folderName]) => {
      const mine = all.filter((e) => e.surface.sessionKey === sessionKey);
      const plugins = [...new Set(mine.map((e) => e.surface.pluginId))].sort();
      return [
        folderName,
        plugins.map((pluginId) => {
          const group = mine.filter((e) => e.surface.pluginId === pluginId);
          group.sort(
            (a, b) =>
              rank[a.surface.kind] - rank[b.surface.kind] ||
              (a.surface.kind === 'panel' ? a.order - b.order : b.order - a.order),
          );
          let notes = 0;
          const shown = group.filter((e) => e.surface.kind !== 'notification' || ++notes <= RECENT_NOTIFICATIONS);
          const stale = group.every((e) => e.surface.stale);
          return [pluginId, stale, shown.map((e) => surfaceKey(e.surface))];
        }),
      ];
    });
  }
}

function drawn(m: SurfaceModel): unknown {
  return m
    .groups()
    .map((f) => [f.folderName, f.plugins.map((p) => [p.pluginId, p.stale, p.surfaces.map((s) => surfaceKey(s))])]);
}

describe('webview surface model', () => {
  it('groups by folder name then plugin id; statuses, then newest first, then recent notifications', () => {
    const m = new SurfaceModel();
    const a1 = card({ title: 'a1' }, { pluginId: 'b-plugin' });
    const a2 = form({ fields: [] }, { pluginId: 'b-plugin' });
    const st = status({ label: 's' }, { pluginId: 'b-plugin' });
    const other = card({}, { pluginId: 'a-plugin' });
    const zed = card({}, { sessionKey: 'ws-0', folderName: 'zed' });
    m.reset([a1, zed, a2, st, other]);
    const g = m.groups();
    assert.deepEqual(
      g.map((f) => f.folderName),
      ['app', 'zed'],
    );
    assert.deepEqual(
      g[0].plugins.map((p) => p.pluginId),
      ['a-plugin', 'b-plugin'],
    );
    assert.deepEqual(
      g[0].plugins[1].surfaces.map((s) => s.surfaceId),
      [st.surfaceId, a2.surfaceId, a1.surfaceId],
    );
  });

  it('keeps a re-published surface in its place (first-appearance order)', () => {
    const m = new SurfaceModel();
    const a = card({ title: 'a' });
    const b = card({ title: 'b' });
    m.reset([a, b]);
    const r = m.upsert(republish(a, { payload: { title: 'a2' } } as never));
    assert.ok(r.applied);
    assert.equal(r.inserted, false);
    assert.equal(r.moved, false, 'a re-publish of the same kind moves nothing in its group');
    const surfaces = m.groups()[0].plugins[0].surfaces;
    assert.deepEqual(
      surfaces.map((s) => s.surfaceId),
      [b.surfaceId, a.surfaceId],
    );
    assert.equal((surfaces[1].payload as { title: string }).title, 'a2');
  });

  it('applies each delta to its plugin group alone and draws what a full regroup and re-sort drew (property)', () => {
    const kinds: SurfaceKind[] = ['panel', 'status', 'card', 'form', 'view', 'notification'];
    const op = fc.oneof(
      fc.record({
        type: fc.constant('upsert' as const),
        session: fc.nat(1),
        plugin: fc.nat(2),
        id: fc.nat(7),
        kind: fc.constantFrom(...kinds),
        stale: fc.boolean(),
      }),
      fc.record({ type: fc.constant('remove' as const), session: fc.nat(1), plugin: fc.nat(2), id: fc.nat(7) }),
      fc.record({ type: fc.constant('snapshot' as const), seed: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const m = new SurfaceModel();
        const ref = new ResortingModel();
        // What the engine's store holds: its revision counter and each surface's first publication.
        const store = new Map<string, Surface>();
        let revision = 0;
        for (const o of ops) {
          if (o.type === 'snapshot') {
            const all = [...store.values()];
            const shuffled = all.map((_, i) => all[(i + o.seed) % all.length]);
            m.reset(shuffled);
            ref.reset(shuffled);
          } else {
            const origin = { sessionKey: `ws-${o.session}`, pluginId: `p${o.plugin}`, surfaceId: `s${o.id}` };
            const key = surfaceKey(origin);
            if (o.type === 'remove') {
              store.delete(key);
              m.remove(key);
              ref.remove(key);
            } else {
              const rev = ++revision;
              const s = {
                ...origin,
                folderName: o.session === 0 ? 'zed' : 'app',
                generation: 1,
                revision: rev,
                firstRevision: store.get(key)?.firstRevision ?? rev,
                updatedAt: rev,
                stale: o.stale,
                kind: o.kind,
                payload: {},
              } as Surface;
              store.set(key, s);
              const r = m.upsert(s);
              ref.upsert(s);
              assert.ok(r.applied && r.group.id === surfaceOwner(s), 'the delta names its group');
            }
          }
          assert.deepEqual(drawn(m), ref.drawn());
          assert.equal(m.size, store.size);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('ignores an out-of-order older revision of the same surface', () => {
    const m = new SurfaceModel();
    const a = card({ title: 'old' });
    const newer = republish(a, { payload: { title: 'new' } } as never);
    m.reset([newer]);
    assert.deepEqual(m.upsert(a), { applied: false });
  });

  it('marks a plugin group stale only when all of its surfaces are stale', () => {
    const m = new SurfaceModel();
    const a = card({}, { stale: true });
    const b = status({ label: 'x' }, { stale: false });
    m.reset([a, b]);
    assert.equal(m.groups()[0].plugins[0].stale, false);
    m.upsert(republish(b, { stale: true }));
    assert.equal(m.groups()[0].plugins[0].stale, true);
  });

  it('lists only the most recent notifications per plugin', () => {
    const m = new SurfaceModel();
    const notes = Array.from({ length: RECENT_NOTIFICATIONS + 3 }, (_, i) => notification({ title: `n${i}` }));
    m.reset(notes);
    const shown = m.groups()[0].plugins[0].surfaces.map((s) => (s.payload as { title: string }).title);
    assert.equal(shown.length, RECENT_NOTIFICATIONS);
    assert.equal(shown[0], `n${RECENT_NOTIFICATIONS + 2}`);
  });

  it('removes by key', () => {
    const m = new SurfaceModel();
    const a = card({});
    m.reset([a]);
    assert.equal(m.remove(surfaceKey(a)), true);
    assert.equal(m.size, 0);
    assert.deepEqual(m.groups(), []);
  });

  it('clamps progress to 0..1 and treats non-numbers as indeterminate', () => {
    assert.equal(clampProgress(-1), 0);
    assert.equal(clampProgress(0.25), 0.25);
    assert.equal(clampProgress(7), 1);
    assert.equal(clampProgress(Number.NaN), undefined);
    assert.equal(clampProgress(Infinity), undefined);
    assert.equal(clampProgress(null), undefined);
    assert.equal(clampProgress('0.5'), undefined);
  });

  it('shows card field values as plain text', () => {
    assert.equal(fieldText('<b>x</b>'), '<b>x</b>');
    assert.equal(fieldText(3), '3');
    assert.equal(fieldText(false), 'false');
    assert.equal(fieldText(null), '');
    assert.equal(fieldText({ a: [1] }), '{"a":[1]}');
  });
});
