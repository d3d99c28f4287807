// The folders → plugins → surfaces part of the view, kept as keyed DOM nodes that follow the
// SurfaceModel: a snapshot places every group header, a delta patches the one surface it names and
// re-places only the plugin group it belongs to. Nodes are patched or moved, never rebuilt, so
// focus, scroll position and typed text survive, and nothing jumps.
//
// At scale (issue 43: 2,000 surfaces took seconds to show) a plugin group's surfaces are drawn
// only when the group is open (it and its folder expanded) and near the viewport; until then its
// body is a placeholder of about its height under a header that keeps its count. Drawing happens
// (1) at once for the groups within a screen of the viewport, (2) as a group comes within a screen
// while scrolling (IntersectionObserver), (3) when a header gets focus (that group and the one
// before it, so Tab and Shift+Tab find every surface in reading order), (4) when a group is
// expanded, and (5) for the rest, one group at a time in idle time, so a screen reader's reading
// cursor and find-in-page reach everything a moment later without a long task. A collapsed group
// costs nothing: it is not drawn, and a drawn one that is collapsed is not patched until opened.
import { surfaceKey, surfaceOwner, type Surface } from '../../src/webviewProtocol/messages';
import type { PluginGroup, SurfaceModel, UpsertOutcome } from '../logic/surfaceModel';
import { estimatedHeight } from '../logic/groupHeight';
import type { ViewContext } from './context';
import { folderGroupNode, folderStateKey, pluginGroupNode, setText, type GroupNode } from './groupNodes';
import { h, placeAt } from './h';
import { createSurfaceView, type SurfaceView } from './surfaceViews';

type FolderNode = ReturnType<typeof folderGroupNode> & { readonly sessionKey: string; plugins: PluginNode[] };
type PluginNode = GroupNode & {
  readonly id: string;
  folder: FolderNode;
  /** Every shown surface is drawn, and deltas patch them. */
  live: boolean;
  /** While not live: how many of its shown surfaces a slice has drawn so far (in order). */
  drawn: number;
};

/** How far beyond the viewport (CSS px, above and below) a group is drawn before it is scrolled to. */
const MARGIN_PX = 800;
/** A slice stops drawing when less idle time than this is left (one surface takes about half a ms). */
const MIN_IDLE_MS = 1;
/** A slice runs within this long even without idle time (a busy page still fills in). */
const IDLE_TIMEOUT_MS = 500;

export class GroupsView {
  readonly el = h('div', { class: 'groups' });
  private readonly views = new Map<string, SurfaceView>();
  private readonly folders = new Map<string, FolderNode>();
  private readonly plugins = new Map<string, PluginNode>();
  private readonly byBody = new Map<Element, PluginNode>();
  /** Plugin groups in document order (placeGroups keeps it). */
  private order: PluginNode[] = [];
  private readonly observer: IntersectionObserver;
  /** Groups within MARGIN_PX of the viewport, not live yet: the slices draw these first. */
  private readonly near = new Set<PluginNode>();
  private idle: number | undefined;
  /** A layout was read this frame for a delta (see drawIfNear); a check before the next frame is queued. */
  private measured = false;
  private frameCheck = false;

  constructor(
    private readonly model: SurfaceModel,
    private readonly ctx: ViewContext,
  ) {
    this.observer = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          const n = this.byBody.get(e.target);
          if (n && e.isIntersecting) this.near.add(n);
          else if (n) this.near.delete(n);
        }
        this.backfill();
      },
      { rootMargin: `${MARGIN_PX}px 0px` },
    );
    this.el.addEventListener('focusin', (e) => this.onFocus(e.target));
  }

  /** After a snapshot: every group placed with its count, the open ones near the viewport drawn. */
  renderAll(): void {
    this.placeGroups();
    for (const n of this.order) {
      const p = this.model.group(n.id);
      if (!p) continue;
      n.setCount({ shown: p.shownCount, stale: p.stale });
      if (!n.live) this.pend(n, p);
      else if (this.isOpen(n)) this.renderPlugin(n, p, true);
    }
    for (const f of this.folders.values()) this.countFolder(f);
    this.drawNearViewport();
    this.backfill();
  }

  /** After the model applied an upsert of `s` (key `key`): its view, and its group's order when it moved. */
  upserted(key: string, s: Surface, outcome: UpsertOutcome & { applied: true }): void {
    const p = outcome.group;
    if (!this.plugins.has(p.id)) this.placeGroups();
    const n = this.plugins.get(p.id);
    if (!n) return;
    n.setCount({ shown: p.shownCount, stale: p.stale });
    this.countFolder(n.folder);
    if (!n.live) {
      this.pend(n, p);
      if (this.isOpen(n)) this.drawIfNear(n);
      return;
    }
    // A drawn group that is collapsed is brought up to date when it is opened again.
    if (!this.isOpen(n)) return;
    const view = this.views.get(key);
    // In place (the common case: a status or panel update): the surface's own nodes.
    if (!outcome.moved && view?.kind === s.kind) view.update(s);
    else this.renderPlugin(n, p, false, key);
  }

  /** After the model removed `s`: its node goes, its group closes up (or goes when empty). */
  removed(s: Surface): void {
    const key = surfaceKey(s);
    this.views.get(key)?.el.remove();
    this.views.delete(key);
    const p = this.model.group(surfaceOwner(s));
    const n = p && this.plugins.get(p.id);
    if (!p || !n) return this.placeGroups();
    n.setCount({ shown: p.shownCount, stale: p.stale });
    this.countFolder(n.folder);
    if (!n.live) this.pend(n, p);
    else if (this.isOpen(n)) this.renderPlugin(n, p, false);
  }

  private isOpen(n: PluginNode): boolean {
    return n.open && n.folder.open;
  }

  /** A group not live yet: its body is at least about its drawn height (nothing jumps when it is drawn). */
  private pend(n: PluginNode, p: PluginGroup): void {
    n.body.style.minHeight = `${estimatedHeight(p.shown().map((e) => e.surface.kind))}px`;
  }

  /** Draws an open group's surfaces now, all of them (once; later deltas patch them). */
  private draw(n: PluginNode): void {
    if (n.live || !this.isOpen(n)) return;
    const p = this.model.group(n.id);
    if (!p) return;
    n.live = true;
    this.near.delete(n);
    this.observer.unobserve(n.body);
    n.body.style.minHeight = ''; // drawn: its own height from now on
    this.renderPlugin(n, p, true);
  }

  /**
   * Draws the group's next surfaces in order while idle time is left (at least one); true when it
   * is live. Deltas that arrive meanwhile only change its count: going live re-places everything.
   */
  private slice(n: PluginNode, deadline: IdleDeadline): boolean {
    const p = this.model.group(n.id);
    if (!p || n.live) return true;
    const shown = p.shown();
    for (let k = n.drawn; k < shown.length; k++) {
      if (k > n.drawn && deadline.timeRemaining() < MIN_IDLE_MS) {
        n.drawn = k;
        return false;
      }
      const e = shown[k];
      const { view, created } = this.surfaceView(e.surface, e.key);
      if (created) view.update(e.surface);
      placeAt(n.body, view.el, k);
    }
    this.draw(n);
    return true;
  }

  /**
   * A delta reached a group that is not drawn: drawn now if it is near the viewport (a new group
   * in a small window shows with its first delta), but reading the layout costs a full layout
   * after each change, so that is done for the first such delta of a frame only; the others (a
   * burst of 2,000 as sidecars start) are checked once, just before the next frame is drawn.
   */
  private drawIfNear(n: PluginNode): void {
    if (!this.measured) {
      this.measured = true;
      if (nearViewport(n.body) === true) this.draw(n);
    }
    if (this.frameCheck) return;
    this.frameCheck = true;
    requestAnimationFrame(() => {
      this.frameCheck = false;
      this.measured = false;
      this.drawNearViewport();
    });
  }

  /** The open groups within MARGIN_PX of the viewport, drawn now (in order: each draw moves the rest). */
  private drawNearViewport(): void {
    for (const n of this.order) {
      if (n.live || !this.isOpen(n)) continue;
      const where = nearViewport(n.body);
      if (where === 'below') break;
      if (where) this.draw(n);
    }
  }

  /**
   * Draws the open groups not live yet, a few surfaces at a time while the page is idle (so a
   * scroll keeps its frames): those near the viewport first, then the rest in reading order.
   */
  private backfill(): void {
    if (this.idle !== undefined) return;
    this.idle = requestIdleCallback(
      (deadline) => {
        this.idle = undefined;
        const next = () =>
          [...this.near].find((n) => this.isOpen(n) && !n.live) ?? this.order.find((n) => this.isOpen(n) && !n.live);
        let n = next();
        while (n && this.slice(n, deadline) && deadline.timeRemaining() >= MIN_IDLE_MS) n = next();
        if (next()) this.backfill();
      },
      { timeout: IDLE_TIMEOUT_MS },
    );
  }

  /** A header got focus: its group and the one before it are drawn, so Tab / Shift+Tab reach their surfaces. */
  private onFocus(target: EventTarget | null): void {
    if (!(target instanceof HTMLElement)) return;
    const plugin = target.classList.contains('plugin-header') ? this.byBody.get(target.nextElementSibling!) : undefined;
    const folder = target.classList.contains('folder-toggle')
      ? [...this.folders.values()].find((f) => f.toggle === target)
      : undefined;
    const first = plugin ?? folder?.plugins[0];
    if (!first) return;
    const i = this.order.indexOf(first);
    if (plugin) this.draw(plugin);
    if (i > 0) this.draw(this.order[i - 1]);
  }

  /** A group was expanded or collapsed (by click, Enter or Space). */
  private toggled(n: PluginNode | FolderNode, open: boolean): void {
    if (!open) return;
    if ('sessionKey' in n) this.ctx.post({ type: 'folderOpened', sessionKey: n.sessionKey });
    for (const g of 'sessionKey' in n ? n.plugins : [n]) {
      const p = this.model.group(g.id);
      if (!p || !this.isOpen(g)) continue;
      if (g.live) this.renderPlugin(g, p, true);
      else if (g === n) this.draw(g);
    }
    // A folder's groups near the viewport now; the others as they come near, or when idle.
    this.drawNearViewport();
    this.backfill();
  }

  /**
   * Places the group's shown surfaces in order; `all` brings every view up to date (a snapshot),
   * else only `touched` and new ones. What is left past them is what the group no longer shows.
   */
  private renderPlugin(n: PluginNode, p: PluginGroup, all: boolean, touched?: string): void {
    const shown = p.shown();
    shown.forEach((e, k) => {
      const { view, created } = this.surfaceView(e.surface, e.key);
      if (all || created || e.key === touched) view.update(e.surface);
      placeAt(n.body, view.el, k);
    });
    while (n.body.children.length > shown.length) this.dropView(n.body.lastElementChild as HTMLElement);
  }

  /**
   * Folders and plugin groups in the model's order, the nodes of those gone dropped: after a
   * snapshot, or when a group appeared or went (never per surface).
   */
  private placeGroups(): void {
    const folders = new Set<string>();
    const plugins = new Set<string>();
    const order: PluginNode[] = [];
    this.model.groups().forEach((f, i) => {
      folders.add(f.sessionKey);
      const folder = this.folderNode(f.sessionKey, f.folderName);
      setText(folder.name, f.folderName);
      placeAt(this.el, folder.el, i);
      folder.plugins = f.plugins.map((p, j) => {
        plugins.add(p.id);
        const n = this.pluginNode(p, folder);
        placeAt(folder.body, n.el, j);
        order.push(n);
        return n;
      });
    });
    this.order = order;
    for (const [id, n] of this.plugins) {
      if (plugins.has(id)) continue;
      for (const el of Array.from(n.body.children)) this.dropView(el as HTMLElement);
      this.observer.unobserve(n.body);
      this.near.delete(n);
      this.byBody.delete(n.body);
      n.el.remove();
      this.plugins.delete(id);
    }
    for (const [key, n] of this.folders) {
      if (folders.has(key)) continue;
      n.el.remove();
      this.folders.delete(key);
    }
    // Folder headers show only with more than one folder; only then can a folder be collapsed.
    const several = this.folders.size > 1;
    for (const n of this.folders.values()) {
      n.header.hidden = !several;
      const collapsed = several && this.ctx.state.isCollapsed(folderStateKey(n.sessionKey));
      n.body.hidden = collapsed;
      n.toggle.setAttribute('aria-expanded', String(!collapsed));
    }
  }

  private countFolder(f: FolderNode): void {
    let shown = 0;
    let stale = true;
    for (const n of f.plugins) {
      const p = this.model.group(n.id);
      if (!p) continue;
      shown += p.shownCount;
      stale &&= p.stale;
    }
    f.setCount({ shown, stale: stale && f.plugins.length > 0 });
  }

  private dropView(el: HTMLElement): void {
    this.views.delete(el.dataset.key ?? '');
    el.remove();
  }

  private surfaceView(s: Surface, key: string): { view: SurfaceView; created: boolean } {
    const existing = this.views.get(key);
    if (existing && existing.kind === s.kind) return { view: existing, created: false };
    existing?.el.remove();
    const view = createSurfaceView(this.ctx, s);
    view.el.dataset.key = key;
    this.views.set(key, view);
    return { view, created: true };
  }

  private folderNode(sessionKey: string, folderName: string): FolderNode {
    let n = this.folders.get(sessionKey);
    if (!n) {
      const made: FolderNode = Object.assign(
        folderGroupNode(this.ctx.state, sessionKey, folderName, (open) => this.toggled(made, open)),
        { sessionKey, plugins: [] as PluginNode[] },
      );
      n = made;
      this.folders.set(sessionKey, n);
    }
    return n;
  }

  private pluginNode(p: PluginGroup, folder: FolderNode): PluginNode {
    let n = this.plugins.get(p.id);
    if (n) {
      n.folder = folder;
      return n;
    }
    const made: PluginNode = Object.assign(
      pluginGroupNode(this.ctx.state, p.id, p.pluginId, (open) => this.toggled(made, open)),
      { id: p.id, folder, live: false, drawn: 0 },
    );
    n = made;
    this.plugins.set(p.id, n);
    this.byBody.set(n.body, n);
    this.observer.observe(n.body);
    return n;
  }
}

/** Within MARGIN_PX of the viewport (true), or past it below (`'below'`), or above it (false). */
function nearViewport(el: Element): boolean | 'below' {
  const r = el.getBoundingClientRect();
  if (r.top > window.innerHeight + MARGIN_PX) return 'below';
  return r.bottom >= -MARGIN_PX;
}
