// The whole view: prompts on top, then folders → plugins → surfaces (GroupsView). A snapshot
// places everything; a delta touches the one surface and plugin group it names.
import { promptFields } from '../../src/webviewProtocol/forms';
import {
  promptDraftKey,
  surfaceKey,
  type EmptyState,
  type HostToView,
  type ViewPrompt,
} from '../../src/webviewProtocol/messages';
import { SurfaceModel } from '../logic/surfaceModel';
import { isAllowedLink } from '../../src/webviewProtocol/links';
import type { ViewState } from '../state';
import type { VsCodeApi } from '../vscodeApi';
import type { ResultMessage, ViewContext } from './context';
import { Announcer, PanelPacer, panelNews, shouldAnnounce, spokenText } from './announcer';
import { renderEmptyState } from './emptyState';
import { FormView } from './formView';
import { GroupsView } from './groupsView';
import { h } from './h';
import { text, useStrings } from '../text';

/** The group headers arrow keys move between. */
const HEADERS = '.plugin-header, .folder-toggle';

export class App {
  private readonly model = new SurfaceModel();
  private readonly groups: GroupsView;
  private readonly prompts = new Map<string, FormView>();
  private readonly waiting = new Map<string, (r: ResultMessage) => void>();
  private readonly promptsEl = h('div', {
    class: 'prompts',
    role: 'region',
    'aria-label': text('questions'),
    hidden: true,
  });
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
    this.groups = new GroupsView(this.model, this.ctx);
    root.replaceChildren(this.promptsEl, this.groups.el, this.emptyEl, this.announcer.el);
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
        this.groups.renderAll();
        break;
      case 'upsert': {
        const key = surfaceKey(m.surface);
        const before = this.model.get(key);
        const outcome = this.model.upsert(m.surface);
        if (!outcome.applied) return;
        this.groups.upserted(key, m.surface, outcome);
        const say =
          m.surface.kind === 'panel'
            ? this.pacer.admit(key, panelNews(before, m.surface))
            : shouldAnnounce(before, m.surface);
        if (say) this.announcer.say(spokenText(m.surface) ?? '');
        break;
      }
      case 'remove': {
        const gone = this.model.get(m.key);
        if (!gone) return;
        this.model.remove(m.key);
        this.groups.removed(gone);
        break;
      }
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
    this.renderEmpty();
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

  private renderEmpty(): void {
    const empty = this.model.size === 0 && this.prompts.size === 0;
    // Written only when it changes: every delta passes here, and each write is a DOM mutation.
    if (this.emptyEl.hidden === empty) this.emptyEl.hidden = !empty;
    if (empty) renderEmptyState(this.emptyEl, this.emptyState, () => this.api.postMessage({ type: 'manageTrust' }));
  }

  /** Markdown links open through the extension (which re-checks and asks VS Code to confirm). */
  private onLinkClick(e: MouseEvent): void {
    const a = e.target instanceof Element ? e.target.closest('a') : null;
    if (!a) return;
    e.preventDefault();
    const href = a.getAttribute('href');
    if (href && a.closest('.markdown') && isAllowedLink(href)) this.api.postMessage({ type: 'openLink', url: href });
  }

  /**
   * Arrow keys, Home and End move between the group headers that show (folders and plugins, in
   * reading order; not those inside a collapsed folder), like a tree's expandable rows.
   */
  private onKey(e: KeyboardEvent): void {
    const t = e.target;
    if (!(t instanceof HTMLElement) || !t.matches(HEADERS)) return;
    const headers = [...this.groups.el.querySelectorAll<HTMLElement>(HEADERS)].filter(
      (el) => el === t || el.getClientRects().length > 0,
    );
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
