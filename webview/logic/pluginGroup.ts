// One plugin's surfaces in the order the view shows them: its panels first, in first-publication
// order (they hold their place, HOST_SPEC_V2 §7.2), then statuses, then cards, forms and views,
// then its most recent notifications, each of those newest first by first appearance (a status
// re-published every second keeps its place). Each rank keeps its own list sorted by that first
// appearance, so a delta inserts or removes one entry instead of the group being sorted again.
import { surfaceOwner, type Surface, type SurfaceKind } from '../../src/webviewProtocol/messages';

/** How many notifications per plugin the view lists (the extension shows them as toasts). */
export const RECENT_NOTIFICATIONS = 5;

const PANELS = 0;
const NOTIFICATIONS = 3;
const RANK: Record<SurfaceKind, number> = {
  panel: PANELS,
  status: 1,
  form: 2,
  card: 2,
  view: 2,
  notification: NOTIFICATIONS,
};

/** A surface as the view holds it: its key, and when it first appeared (the model's counter). */
export interface Entry {
  readonly key: string;
  surface: Surface;
  readonly order: number;
}

export class PluginGroup {
  /** The surface owner key of the contract floor (written once, there). */
  readonly id: string;
  readonly sessionKey: string;
  readonly pluginId: string;
  /** Per rank, ascending by `order`. */
  private readonly ranks: Entry[][] = [[], [], [], []];
  private count = 0;
  private fresh = 0;

  constructor(s: { sessionKey: string; pluginId: string }) {
    this.id = surfaceOwner(s);
    this.sessionKey = s.sessionKey;
    this.pluginId = s.pluginId;
  }

  get size(): number {
    return this.count;
  }

  /** Every surface of the plugin is stale (it stopped): the engine marks them all at once. */
  get stale(): boolean {
    return this.fresh === 0;
  }

  /** What the view lists, in order. */
  shown(): Entry[] {
    const out = [...this.ranks[PANELS]];
    for (let r = PANELS + 1; r < NOTIFICATIONS; r++) pushNewestFirst(out, this.ranks[r], Infinity);
    pushNewestFirst(out, this.ranks[NOTIFICATIONS], RECENT_NOTIFICATIONS);
    return out;
  }

  /** How many `shown()` lists, without building the list. */
  get shownCount(): number {
    const [panels, statuses, middle, notes] = this.ranks;
    return panels.length + statuses.length + middle.length + Math.min(notes.length, RECENT_NOTIFICATIONS);
  }

  get surfaces(): Surface[] {
    return this.shown().map((e) => e.surface);
  }

  add(e: Entry): void {
    const list = this.ranks[RANK[e.surface.kind]];
    list.splice(indexAfter(list, e.order), 0, e);
    this.count++;
    if (!e.surface.stale) this.fresh++;
  }

  delete(e: Entry): void {
    const list = this.ranks[RANK[e.surface.kind]];
    list.splice(indexAfter(list, e.order) - 1, 1);
    this.count--;
    if (!e.surface.stale) this.fresh--;
  }

  /** The entry's surface was re-published as `next`; true when that moved it (its kind's rank changed). */
  replace(e: Entry, next: Surface): boolean {
    const moved = RANK[next.kind] !== RANK[e.surface.kind];
    if (moved) this.delete(e);
    else this.fresh += Number(!next.stale) - Number(!e.surface.stale);
    e.surface = next;
    if (moved) this.add(e);
    return moved;
  }
}

/** The index just past every entry of `list` (ascending by order) whose order is ≤ `order`. */
function indexAfter(list: readonly Entry[], order: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].order <= order) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function pushNewestFirst(out: Entry[], list: readonly Entry[], max: number): void {
  for (let i = list.length - 1, n = 0; i >= 0 && n < max; i--, n++) out.push(list[i]);
}
