// The folders → plugins → surfaces part of the view, kept as keyed DOM nodes that follow the
// SurfaceModel: a snapshot places everything, a delta patches the one surface it names and
// re-places only the plugin group it belongs to. Nodes are patched or moved, never rebuilt, so
// focus, scroll position and typed text survive, and nothing jumps.
import { surfaceKey, surfaceOwner, type Surface } from '../../src/webviewProtocol/messages';
import type { FolderGroup, PluginGroup, SurfaceModel, UpsertOutcome } from '../logic/surfaceModel';
import type { ViewContext } from './context';
import { h, icon, placeAt, srOnly } from './h';
import { createSurfaceView, type SurfaceView } from './surfaceViews';
import { text } from '../text';

interface PluginNode {
  el: HTMLElement;
  badge: HTMLElement;
  /** Words only a screen reader hears after the badge (" items"), so the name is "alpha, 3 items". */
  badgeSuffix: HTMLElement;
  body: HTMLElement;
}
interface FolderNode {
  el: HTMLElement;
  header: HTMLElement;
  body: HTMLElement;
}

export class GroupsView {
  readonly el = h('div', { class: 'groups' });
  private readonly views = new Map<string, SurfaceView>();
  private readonly folders = new Map<string, FolderNode>();
  private readonly plugins = new Map<string, PluginNode>();

  constructor(
    private readonly model: SurfaceModel,
    private readonly ctx: ViewContext,
  ) {}

  /** After a snapshot: every folder, plugin and surface placed and brought up to date. */
  renderAll(): void {
    this.placeGroups();
    for (const f of this.model.groups()) for (const p of f.plugins) this.renderPlugin(p, true);
  }

  /** After the model applied an upsert of `s` (key `key`): its view, and its group's order when it moved. */
  upserted(key: string, s: Surface, outcome: UpsertOutcome & { applied: true }): void {
    const p = outcome.group;
    const view = this.views.get(key);
    // In place (the common case: a status or panel update): the surface's own nodes, its header.
    if (!outcome.moved && view?.kind === s.kind) {
      view.update(s);
      this.updateHeader(this.pluginNode(p), p);
      return;
    }
    const isNew = !this.plugins.has(p.id);
    this.renderPlugin(p, false, key);
    if (isNew) this.placeGroups();
  }

  /** After the model removed `s`: its node goes, its group closes up (or goes when empty). */
  removed(s: Surface): void {
    const key = surfaceKey(s);
    this.views.get(key)?.el.remove();
    this.views.delete(key);
    const p = this.model.group(surfaceOwner(s));
    if (p) this.renderPlugin(p, false);
    else this.placeGroups();
  }

  /**
   * Places the group's shown surfaces in order; `all` brings every view up to date (a snapshot),
   * else only `touched` and new ones. What is left past them is what the group no longer shows.
   */
  private renderPlugin(p: PluginGroup, all: boolean, touched?: string): void {
    const node = this.pluginNode(p);
    this.updateHeader(node, p);
    const shown = p.shown();
    shown.forEach((e, k) => {
      const { view, created } = this.surfaceView(e.surface, e.key);
      if (all || created || e.key === touched) view.update(e.surface);
      placeAt(node.body, view.el, k);
    });
    while (node.body.children.length > shown.length) this.dropView(node.body.lastElementChild as HTMLElement);
  }

  /**
   * Folders and plugin groups in the model's order, the nodes of those gone dropped: after a
   * snapshot, or when a group appeared or went (never per surface).
   */
  private placeGroups(): void {
    const folders = new Set<string>();
    const plugins = new Set<string>();
    this.model.groups().forEach((f, i) => {
      folders.add(f.sessionKey);
      const folder = this.folderNode(f);
      setText(folder.header.lastElementChild as HTMLElement, f.folderName);
      placeAt(this.el, folder.el, i);
      f.plugins.forEach((p, j) => {
        plugins.add(p.id);
        placeAt(folder.body, this.pluginNode(p).el, j);
      });
    });
    for (const [id, n] of this.plugins) {
      if (plugins.has(id)) continue;
      for (const el of Array.from(n.body.children)) this.dropView(el as HTMLElement);
      n.el.remove();
      this.plugins.delete(id);
    }
    for (const [key, n] of this.folders) {
      if (folders.has(key)) continue;
      n.el.remove();
      this.folders.delete(key);
    }
    // Folder headers show only with more than one folder.
    for (const n of this.folders.values()) n.header.hidden = this.folders.size < 2;
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

  private folderNode(g: FolderGroup): FolderNode {
    let n = this.folders.get(g.sessionKey);
    if (!n) {
      const header = h('h2', { class: 'folder-header' }, icon('folder'), h('span', { dir: 'auto' }, g.folderName));
      const body = h('div', { class: 'folder-body' });
      n = {
        el: h('section', { class: 'folder', 'aria-label': text('folderLabel', g.folderName) }, header, body),
        header,
        body,
      };
      this.folders.set(g.sessionKey, n);
    }
    return n;
  }

  private pluginNode(p: PluginGroup): PluginNode {
    let n = this.plugins.get(p.id);
    if (n) return n;
    const state = this.ctx.state;
    const collapsed = state.isCollapsed(p.id);
    const bodyId = `g-${this.plugins.size}-${Date.now().toString(36)}`;
    const name = h('span', { class: 'plugin-name', dir: 'auto' }, p.pluginId);
    const badge = h('span', { class: 'badge count' });
    const badgeSuffix = srOnly('');
    // Named by its visible text plus words for screen readers (no aria-label that could differ
    // from what is seen): "alpha, 3 items", "archive, stopped, 2 items".
    const header = h(
      'button',
      { class: 'plugin-header', type: 'button', 'aria-expanded': String(!collapsed), 'aria-controls': bodyId },
      icon('chevron-down', 'chevron'),
      name,
      srOnly(', '),
      badge,
      badgeSuffix,
    );
    const body = h('div', { class: 'plugin-body', id: bodyId, hidden: collapsed });
    const el = h('section', { class: 'plugin', 'data-plugin': p.pluginId }, header, body);
    header.addEventListener('click', () => {
      const open = header.getAttribute('aria-expanded') !== 'true';
      header.setAttribute('aria-expanded', String(open));
      body.hidden = !open;
      state.setCollapsed(p.id, !open);
    });
    n = { el, badge, badgeSuffix, body };
    this.plugins.set(p.id, n);
    return n;
  }

  /** The count and the stopped mark; written only when they change (each write is a DOM mutation). */
  private updateHeader(n: PluginNode, p: PluginGroup): void {
    n.el.classList.toggle('stale', p.stale);
    const count = p.shownCount;
    const items = text(count === 1 ? 'itemOne' : 'itemMany', String(count));
    setText(n.badge, p.stale ? text('staleBadge') : String(count));
    setText(n.badgeSuffix, p.stale ? `, ${items}` : items.slice(String(count).length));
  }
}

function setText(el: HTMLElement, value: string): void {
  if (el.textContent !== value) el.textContent = value;
}
