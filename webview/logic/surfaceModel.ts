// The webview's copy of the surface store: applies a snapshot, then deltas, and keeps what the
// renderer needs to patch the DOM in place. Pure (no DOM) so it is unit-tested in Node.
//
// Ordering: newest first by *first appearance*, so a status re-published every second keeps its
// place instead of jumping to the top (no layout jumps). Generations: per (session, plugin) only
// the newest generation seen is shown; anything older is dropped on arrival, so a late message
// from a stopped generation can never resurrect it.
import { surfaceKey, surfaceOwner, type Surface, type SurfaceKind } from '../../src/webviewProtocol/messages';

export interface PluginGroup {
  /** Stable id of the group: JSON [sessionKey, pluginId]. */
  id: string;
  sessionKey: string;
  pluginId: string;
  /** Every surface of the plugin is stale (the plugin stopped). */
  stale: boolean;
  surfaces: Surface[];
}
export interface FolderGroup {
  sessionKey: string;
  folderName: string;
  plugins: PluginGroup[];
}

/** How many notifications per plugin the view lists (the extension shows them as toasts). */
export const RECENT_NOTIFICATIONS = 5;

// Panels hold their place at the top of their extension's area (HOST_SPEC_V2 §7.2).
const KIND_RANK: Record<SurfaceKind, number> = { panel: -1, status: 0, form: 1, card: 1, view: 1, notification: 2 };

/** A plugin group's id: the surface owner key of the contract floor (written once, there). */
export const pluginScope = surfaceOwner;

export type UpsertOutcome = { applied: false } | { applied: true; inserted: boolean; dropped: string[] };

export class SurfaceModel {
  private readonly entries = new Map<string, { surface: Surface; order: number }>();
  private readonly generations = new Map<string, number>();
  private counter = 0;

  get size(): number {
    return this.entries.size;
  }

  get(key: string): Surface | undefined {
    return this.entries.get(key)?.surface;
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  /** Replace everything; oldest first so the newest get the highest order. */
  reset(surfaces: readonly Surface[]): void {
    this.entries.clear();
    this.generations.clear();
    for (const s of surfaces) {
      const scope = pluginScope(s);
      this.generations.set(scope, Math.max(this.generations.get(scope) ?? 0, s.generation));
    }
    const current = surfaces.filter((s) => s.generation === this.generations.get(pluginScope(s)));
    const sorted = [...current].sort(
      (a, b) =>
        (a.firstRevision !== undefined && b.firstRevision !== undefined ? a.firstRevision - b.firstRevision : 0) ||
        a.updatedAt - b.updatedAt ||
        a.revision - b.revision,
    );
    for (const s of sorted) this.entries.set(surfaceKey(s), { surface: s, order: ++this.counter });
  }

  upsert(s: Surface): UpsertOutcome {
    const scope = pluginScope(s);
    const known = this.generations.get(scope) ?? 0;
    if (s.generation < known) return { applied: false };
    const dropped: string[] = [];
    if (s.generation > known) {
      this.generations.set(scope, s.generation);
      for (const [k, e] of this.entries) {
        if (pluginScope(e.surface) === scope && e.surface.generation < s.generation) {
          this.entries.delete(k);
          dropped.push(k);
        }
      }
    }
    const key = surfaceKey(s);
    const existing = this.entries.get(key);
    if (existing && existing.surface.revision > s.revision) return { applied: false };
    this.entries.set(key, { surface: s, order: existing?.order ?? ++this.counter });
    return { applied: true, inserted: !existing, dropped };
  }

  remove(key: string): boolean {
    return this.entries.delete(key);
  }

  /** Folders (by name), plugins (by id), then statuses, cards/forms newest first, recent notifications. */
  groups(): FolderGroup[] {
    const folders = new Map<string, FolderGroup>();
    const plugins = new Map<string, PluginGroup & { orders: Map<string, number> }>();
    for (const [key, { surface: s, order }] of this.entries) {
      let folder = folders.get(s.sessionKey);
      if (!folder)
        folders.set(s.sessionKey, (folder = { sessionKey: s.sessionKey, folderName: s.folderName, plugins: [] }));
      const id = pluginScope(s);
      let plugin = plugins.get(id);
      if (!plugin) {
        plugin = { id, sessionKey: s.sessionKey, pluginId: s.pluginId, stale: true, surfaces: [], orders: new Map() };
        plugins.set(id, plugin);
        folder.plugins.push(plugin);
      }
      plugin.surfaces.push(s);
      plugin.orders.set(key, order);
      if (!s.stale) plugin.stale = false;
    }
    const out = [...folders.values()].sort(
      (a, b) => a.folderName.localeCompare(b.folderName) || cmp(a.sessionKey, b.sessionKey),
    );
    for (const f of out) {
      f.plugins.sort((a, b) => cmp(a.pluginId, b.pluginId));
      f.plugins = f.plugins.map((g) => {
        const p = plugins.get(g.id)!;
        const order = (s: Surface) => p.orders.get(surfaceKey(s)) ?? 0;
        // Panels in first-publication order (they hold their place); the rest newest first.
        const sorted = p.surfaces.sort(
          (a, b) =>
            KIND_RANK[a.kind] - KIND_RANK[b.kind] || (a.kind === 'panel' ? order(a) - order(b) : order(b) - order(a)),
        );
        let notes = 0;
        const surfaces = sorted.filter((s) => s.kind !== 'notification' || ++notes <= RECENT_NOTIFICATIONS);
        return { id: p.id, sessionKey: p.sessionKey, pluginId: p.pluginId, stale: p.stale, surfaces };
      });
    }
    return out;
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Progress as the view shows it: a 0..1 fraction, or undefined for "indeterminate". */
export function clampProgress(p: unknown): number | undefined {
  if (typeof p !== 'number' || !Number.isFinite(p)) return undefined;
  return Math.min(1, Math.max(0, p));
}

/** A card field value as plain text (objects as compact JSON, never as markup). */
export function fieldText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return String(v);
  }
}
