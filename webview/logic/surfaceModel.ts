// What the webview shows of the engine's surface store: it applies the snapshot a `ready` brings,
// then each delta, to the one plugin group the delta names, and keeps what the renderer needs to
// patch the DOM in place. Pure (no DOM) so it is unit-tested in Node.
//
// It decides nothing about lifecycles: the engine's UI hub refuses a late publish of an older
// generation and clears a stopped generation's surfaces before the next one shows any, and the
// store carries `stale` on each surface; the view renders what it is told. Order: folders by
// name, plugins by id, then each plugin's surfaces as PluginGroup orders them, by first appearance
// here (the snapshot replays the store's first publications), so nothing jumps when a surface is
// re-published.
import { surfaceKey, surfaceOwner, type Surface } from '../../src/webviewProtocol/messages';
import { PluginGroup, type Entry } from './pluginGroup';

export { PluginGroup, RECENT_NOTIFICATIONS } from './pluginGroup';

export interface FolderGroup {
  sessionKey: string;
  folderName: string;
  /** By plugin id. */
  plugins: PluginGroup[];
}

type Held = Entry & { readonly group: PluginGroup };

export type UpsertOutcome =
  | { applied: false }
  /** `moved`: the surface is new, or changed rank, so its group's order changed around it. */
  | { applied: true; inserted: boolean; moved: boolean; group: PluginGroup };

export class SurfaceModel {
  private readonly entries = new Map<string, Held>();
  private readonly plugins = new Map<string, PluginGroup>();
  private readonly folders: FolderGroup[] = [];
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

  /** The plugin group of a surface owner (`surfaceOwner`), while it shows anything. */
  group(owner: string): PluginGroup | undefined {
    return this.plugins.get(owner);
  }

  /** Replace everything, placing surfaces in the order the store first published them. */
  reset(surfaces: readonly Surface[]): void {
    this.entries.clear();
    this.plugins.clear();
    this.folders.length = 0;
    const sorted = [...surfaces].sort(
      (a, b) =>
        (a.firstRevision !== undefined && b.firstRevision !== undefined ? a.firstRevision - b.firstRevision : 0) ||
        a.updatedAt - b.updatedAt ||
        a.revision - b.revision,
    );
    for (const s of sorted) this.upsert(s);
  }

  upsert(s: Surface): UpsertOutcome {
    const key = surfaceKey(s);
    const held = this.entries.get(key);
    if (held) {
      // Messages arrive in order; a revision older than the one shown can only be a replay.
      if (held.surface.revision > s.revision) return { applied: false };
      return { applied: true, inserted: false, moved: held.group.replace(held, s), group: held.group };
    }
    const group = this.plugins.get(surfaceOwner(s)) ?? this.addGroup(s);
    const entry: Held = { key, surface: s, order: ++this.counter, group };
    this.entries.set(key, entry);
    group.add(entry);
    return { applied: true, inserted: true, moved: true, group };
  }

  remove(key: string): boolean {
    const held = this.entries.get(key);
    if (!held) return false;
    this.entries.delete(key);
    held.group.delete(held);
    if (held.group.size === 0) this.dropGroup(held.group);
    return true;
  }

  /** Folders by name (then session), each with its plugin groups. */
  groups(): readonly FolderGroup[] {
    return this.folders;
  }

  private addGroup(s: Surface): PluginGroup {
    const group = new PluginGroup(s);
    this.plugins.set(group.id, group);
    let folder = this.folders.find((f) => f.sessionKey === s.sessionKey);
    if (!folder) {
      folder = { sessionKey: s.sessionKey, folderName: s.folderName, plugins: [] };
      const f = folder;
      insertAt(this.folders, f, (o) => o.folderName.localeCompare(f.folderName) || cmp(o.sessionKey, f.sessionKey));
    }
    insertAt(folder.plugins, group, (o) => cmp(o.pluginId, group.pluginId));
    return group;
  }

  private dropGroup(group: PluginGroup): void {
    this.plugins.delete(group.id);
    const i = this.folders.findIndex((f) => f.sessionKey === group.sessionKey);
    const folder = this.folders[i];
    folder.plugins.splice(folder.plugins.indexOf(group), 1);
    if (folder.plugins.length === 0) this.folders.splice(i, 1);
  }
}

/** Inserts `item` before the first element that sorts after it (`order(o) > 0`). */
function insertAt<T>(list: T[], item: T, order: (other: T) => number): void {
  const i = list.findIndex((o) => order(o) > 0);
  list.splice(i === -1 ? list.length : i, 0, item);
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
