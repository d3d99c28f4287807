// The whole view: prompts on top, then folders → plugins → surfaces. Every update is a
// reconciliation against keyed DOM nodes: existing nodes are patched or moved, never rebuilt, so
// focus, scroll position and typed text survive, and nothing jumps.
import { promptFields } from '../../src/webviewProtocol/forms';
import {
  promptDraftKey,
  surfaceKey,
  type EmptyState,
  type HostToView,
  type Surface,
  type ViewPrompt,
} from '../../src/webviewProtocol/messages';
import { SurfaceModel, type FolderGroup, type PluginGroup } from '../logic/surfaceModel';
import { isAllowedLink } from '../../src/webviewProtocol/links';
import type { ViewState } from '../state';
import type { VsCodeApi } from '../vscodeApi';
import type { ResultMessage, ViewContext } from './context';
import { Announcer, PanelPacer, panelNews, shouldAnnounce, spokenText } from './announcer';
import { renderEmptyState } from './emptyState';
import { FormView } from './formView';
import { h, icon, placeAt, srOnly } from './h';
import { createSurfaceView, type SurfaceView } from './surfaceViews';
import { text, useStrings } from '../text';

interface PluginNode {
  el: HTMLElement;
  header: HTMLButtonElement;
  name: HTMLElement;
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

export class App {
  private readonly model = new SurfaceModel();
  private readonly views = new Map<string, SurfaceView>();
  private readonly folders = new Map<string, FolderNode>();
  private readonly plugins = new Map<string, PluginNode>();
  private readonly prompts = new Map<string, FormView>();
  private readonly waiting = new Map<string, (r: ResultMessage) => void>();
  private readonly promptsEl = h('div', {
    class: 'prompts',
    role: 'region',
    'aria-label': text('questions'),
    hidden: true,
  });
  private readonly groupsEl = h('div', { class: 'groups' });
  private readonly emptyEl = h('div', { class: 'empty', hidden: true });
  private readonly announcer = new Announcer();
  private readonly pacer = new PanelPacer();
  private emptyState: EmptyState = null;
  private readonly ctx: ViewContext;

  constructor(
    root: HTMLElement,
    private readonly api: VsCodeApi,
    private readonly state: ViewState,
  ) {
    this.ctx = {
      post: (m) => api.postMessage(m),
      state,
      expect: (id, cb) => this.waiting.set(id, cb),
    };
    root.replaceChildren(this.promptsEl, this.groupsEl, this.emptyEl, this.announcer.el);
    root.addEventListener('click', (e) => this.onLinkClick(e));
    root.addEventListener('auxclick', (e) => this.onLinkClick(e));
    root.addEventListener('keydown', (e) => this.onKey(e));
  }

  handle(m: HostToView): void {
    switch (m.type) {
      case 'snapshot':
        useStrings(m.strings);
        this.promptsEl.setAttribute('aria-label', text('questions'));
        this.model.reset(m.surfaces);
        this.emptyState = m.emptyState;
        this.state.mergeFromHost(m.drafts);
        for (const id of [...this.prompts.keys()]) if (!m.prompts.some((p) => p.promptId === id)) this.closePrompt(id);
        for (const p of m.prompts) this.showPrompt(p);
        this.state.prune(
          (k) => this.model.get(k)?.kind === 'form' || m.prompts.some((p) => promptDraftKey(p.promptId) === k),
        );
        break;
      case 'upsert': {
        const key = surfaceKey(m.surface);
        const before = this.model.get(key);
        const outcome = this.model.upsert(m.surface);
        const say = () =>
          m.surface.kind === 'panel'
            ? this.pacer.admit(key, panelNews(before, m.surface))
            : shouldAnnounce(before, m.surface);
        if (outcome.applied && say()) this.announcer.say(spokenText(m.surface) ?? '');
        break;
      }
      case 'remove':
        this.model.remove(m.key);
        break;
      case 'emptyState':
        this.emptyState = m.emptyState;
        break;
      case 'prompt':
        this.showPrompt(m.prompt);
        return;
      case 'promptClosed':
        this.closePrompt(m.promptId);
        return;
      case 'actionResult':
      case 'submitResult': {
        const cb = this.waiting.get(m.requestId);
        this.waiting.delete(m.requestId);
        cb?.({ accepted: m.accepted, message: m.message });
        return;
      }
      default:
        return;
    }
    this.render();
  }

  private showPrompt(p: ViewPrompt): void {
    if (this.prompts.has(p.promptId)) return;
    const view = new FormView(this.ctx, { kind: 'prompt', promptId: p.promptId });
    const r = p.request;
    view.update({
      title: r.payload.title ?? `${r.pluginId} asks`,
      message: r.payload.fields.length ? r.payload.message : undefined,
      fields: promptFields(r),
      stale: false,
    });
    view.el.setAttribute('data-prompt-id', p.promptId);
    this.prompts.set(p.promptId, view);
    this.promptsEl.append(view.el);
    this.promptsEl.hidden = false;
    this.renderEmpty();
  }

  private closePrompt(id: string): void {
    const view = this.prompts.get(id);
    if (!view) return;
    this.prompts.delete(id);
    view.el.remove();
    this.state.prune((k) => k !== promptDraftKey(id));
    this.promptsEl.hidden = this.prompts.size === 0;
    this.renderEmpty();
  }

  private render(): void {
    const groups = this.model.groups();
    const multiFolder = groups.length > 1;
    const liveFolders = new Set<string>();
    const livePlugins = new Set<string>();
    const liveSurfaces = new Set<string>();
    groups.forEach((g, i) => {
      liveFolders.add(g.sessionKey);
      const folder = this.folderNode(g);
      folder.header.hidden = !multiFolder;
      folder.header.lastElementChild!.textContent = g.folderName;
      placeAt(this.groupsEl, folder.el, i);
      g.plugins.forEach((p, j) => {
        livePlugins.add(p.id);
        const node = this.pluginNode(p);
        this.updatePluginHeader(node, p);
        placeAt(folder.body, node.el, j);
        p.surfaces.forEach((s, k) => {
          const key = surfaceKey(s);
          liveSurfaces.add(key);
          const view = this.surfaceView(s, key);
          view.update(s);
          placeAt(node.body, view.el, k);
        });
      });
    });
    prune(this.views, liveSurfaces);
    prune(this.plugins, livePlugins);
    prune(this.folders, liveFolders);
    this.renderEmpty();
  }

  private renderEmpty(): void {
    const empty = this.model.size === 0 && this.prompts.size === 0;
    this.emptyEl.hidden = !empty;
    if (empty) renderEmptyState(this.emptyEl, this.emptyState, () => this.api.postMessage({ type: 'manageTrust' }));
  }

  private surfaceView(s: Surface, key: string): SurfaceView {
    const existing = this.views.get(key);
    if (existing && existing.kind === s.kind) return existing;
    existing?.el.remove();
    const view = createSurfaceView(this.ctx, s);
    view.el.dataset.key = key;
    this.views.set(key, view);
    return view;
  }

  private folderNode(g: FolderGroup): FolderNode {
    let n = this.folders.get(g.sessionKey);
    if (!n) {
      const header = h('h2', { class: 'folder-header' }, icon('folder'), h('span', { dir: 'auto' }));
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
    const collapsed = this.state.isCollapsed(p.id);
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
      this.state.setCollapsed(p.id, !open);
    });
    n = { el, header, name, badge, badgeSuffix, body };
    this.plugins.set(p.id, n);
    return n;
  }

  private updatePluginHeader(n: PluginNode, p: PluginGroup): void {
    n.el.classList.toggle('stale', p.stale);
    const count = p.surfaces.length;
    const items = text(count === 1 ? 'itemOne' : 'itemMany', String(count));
    n.badge.textContent = p.stale ? text('staleBadge') : String(count);
    n.badgeSuffix.textContent = p.stale ? `, ${items}` : items.slice(String(count).length);
  }

  /** Markdown links open through the extension (which re-checks and asks VS Code to confirm). */
  private onLinkClick(e: MouseEvent): void {
    const a = e.target instanceof Element ? e.target.closest('a') : null;
    if (!a) return;
    e.preventDefault();
    const href = a.getAttribute('href');
    if (href && a.closest('.markdown') && isAllowedLink(href)) this.api.postMessage({ type: 'openLink', url: href });
  }

  /** Arrow keys move between plugin headers, like a tree's top level. */
  private onKey(e: KeyboardEvent): void {
    const t = e.target;
    if (!(t instanceof HTMLElement) || !t.classList.contains('plugin-header')) return;
    const headers = [...this.groupsEl.querySelectorAll<HTMLElement>('.plugin-header')];
    const i = headers.indexOf(t);
    const next =
      e.key === 'ArrowDown'
        ? i + 1
        : e.key === 'ArrowUp'
          ? i - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? headers.length - 1
              : -2;
    if (next === -2 || next < 0 || next >= headers.length) return;
    e.preventDefault();
    headers[next].focus();
  }
}

/** Remove the nodes whose keys are no longer live. */
function prune(nodes: Map<string, { el: Element }>, live: Set<string>): void {
  for (const [k, v] of nodes) {
    if (live.has(k)) continue;
    v.el.remove();
    nodes.delete(k);
  }
}
