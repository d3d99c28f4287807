import * as assert from 'node:assert/strict';
import { surfaceKey } from '../../../src/protocol';
import { RECENT_NOTIFICATIONS, SurfaceModel, clampProgress, fieldText } from '../../../webview/logic/surfaceModel';
import { card, form, notification, republish, status } from './fixtures';

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
    assert.deepEqual(r, { applied: true, inserted: false, dropped: [] });
    const surfaces = m.groups()[0].plugins[0].surfaces;
    assert.deepEqual(
      surfaces.map((s) => s.surfaceId),
      [b.surfaceId, a.surfaceId],
    );
    assert.equal((surfaces[1].payload as { title: string }).title, 'a2');
  });

  it('never shows an older generation and clears older ones when a newer one arrives', () => {
    const m = new SurfaceModel();
    const old = card({}, { generation: 1, stale: true });
    m.reset([old, card({}, { generation: 2, pluginId: 'demo' })]);
    assert.equal(m.get(surfaceKey(old)), undefined, 'snapshot keeps only the newest generation per plugin');
    assert.deepEqual(m.upsert(card({}, { generation: 1 })), { applied: false });
    const g3 = card({}, { generation: 3 });
    const r = m.upsert(g3);
    assert.ok(r.applied && r.dropped.length === 1);
    assert.deepEqual(m.keys(), [surfaceKey(g3)]);
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
