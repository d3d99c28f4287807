// One DOM view per surface, patched in place when the surface is re-published.
import {
  surfaceKey,
  viewText,
  type CardPayload,
  type NotificationPayload,
  type StatusPayload,
  type Surface,
} from '../../src/webviewProtocol/messages';
import { renderMarkdown } from '../logic/markdown';
import { fieldText } from '../logic/surfaceModel';
import { ResultLine, progressBar, severityIcon, staleBadge } from './common';
import type { ViewContext } from './context';
import { FormView } from './formView';
import { h, newId, placeAt, replace } from './h';
import { markdownToDom } from './markdownDom';
import { text } from '../text';

export interface SurfaceView {
  readonly el: HTMLElement;
  readonly kind: Surface['kind'];
  update(s: Surface): void;
}

/** Skip work (and DOM churn) when nothing visible changed. */
function unchanged(last: { revision: number; stale: boolean } | undefined, s: Surface): boolean {
  return !!last && last.revision === s.revision && last.stale === s.stale;
}

class StatusView implements SurfaceView {
  readonly kind = 'status';
  readonly el = h('div', { class: 'surface status', role: 'group' });
  private last: Surface | undefined;

  update(s: Surface): void {
    if (unchanged(this.last, s) || s.kind !== 'status') return;
    this.last = s;
    const p: StatusPayload = s.payload;
    this.el.classList.toggle('stale', s.stale);
    this.el.setAttribute('aria-label', text('statusLabel', p.label));
    replace(
      this.el,
      h(
        'div',
        { class: 'status-line' },
        severityIcon(p.severity),
        h('span', { class: 'status-label', dir: 'auto' }, p.label),
        p.detail ? h('span', { class: 'status-detail', dir: 'auto' }, p.detail) : null,
        s.stale ? staleBadge() : null,
      ),
      progressBar(p, text('progressLabel', p.label)) ?? null,
    );
  }
}

class NotificationView implements SurfaceView {
  readonly kind = 'notification';
  readonly el = h('div', { class: 'surface notification', role: 'group' });
  private last: Surface | undefined;

  update(s: Surface): void {
    if (unchanged(this.last, s) || s.kind !== 'notification') return;
    this.last = s;
    const p: NotificationPayload = s.payload;
    this.el.setAttribute('aria-label', text('notificationLabel', p.title));
    replace(
      this.el,
      h(
        'div',
        { class: 'status-line' },
        severityIcon(p.severity),
        h('span', { class: 'note-title', dir: 'auto' }, p.title),
        h(
          'time',
          { class: 'note-time', datetime: new Date(s.updatedAt).toISOString() },
          new Date(s.updatedAt).toLocaleTimeString(),
        ),
      ),
      p.body ? h('div', { class: 'note-body', dir: 'auto' }, p.body) : null,
    );
  }
}

type ActionButton = HTMLElement & { disabled: boolean; secondary: boolean };

/**
 * What a card view shows for a surface: a card as it is; a protocol v2 panel (a card without
 * Markdown) and view (its primitives as text lines) until they get views of their own.
 */
function cardPayloadOf(s: Surface): CardPayload | undefined {
  if (s.kind === 'card' || s.kind === 'panel') return s.payload;
  if (s.kind === 'view') return { text: viewText(s.payload.body).join('\n') };
  return undefined;
}

class CardView implements SurfaceView {
  // A labelled region (its title), so a screen reader lists every card by name.
  readonly el = h('article', { class: 'surface card', role: 'region' });
  private readonly header = h('header', { class: 'surface-header' });
  private readonly body = h('div', { class: 'card-body' });
  private readonly actions = h('div', { class: 'actions' });
  private readonly result = new ResultLine();
  private readonly titleId = newId('t');
  /** Buttons by action id, patched in place so focus stays on a button across re-publishes. */
  private buttons = new Map<string, ActionButton>();
  /** Actions sent and not answered yet: a second press is ignored (the button keeps focus). */
  private readonly running = new Set<string>();
  private last: Surface | undefined;

  constructor(
    private readonly ctx: ViewContext,
    readonly kind: 'card' | 'panel' | 'view' = 'card',
  ) {
    this.el.setAttribute('aria-labelledby', this.titleId);
    this.el.append(this.header, this.body, this.actions, this.result.el);
  }

  update(s: Surface): void {
    const p = cardPayloadOf(s);
    if (unchanged(this.last, s) || !p) return;
    this.last = s;
    const title = p.title ?? s.surfaceId;
    this.el.classList.toggle('stale', s.stale);
    replace(
      this.header,
      h('h3', { class: 'surface-title', id: this.titleId, dir: 'auto' }, title),
      s.stale ? staleBadge() : null,
    );

    const body: Node[] = [];
    if (p.markdown) {
      const md = h('div', { class: 'markdown' });
      markdownToDom(renderMarkdown(p.markdown), md);
      body.push(md);
    }
    if (p.text) body.push(h('p', { class: 'card-text', dir: 'auto' }, p.text));
    if (p.fields?.length) {
      const dl = h('dl', { class: 'kv' });
      for (const f of p.fields)
        dl.append(h('dt', { dir: 'auto' }, f.key), h('dd', { dir: 'auto' }, fieldText(f.value)));
      body.push(dl);
    }
    const bar = progressBar(p, `${title} progress`);
    if (bar) body.push(bar);
    this.body.replaceChildren(...body);
    this.updateButtons(p.actions ?? [], s.stale);
  }

  private updateButtons(actions: readonly { actionId: string; label: string }[], stale: boolean): void {
    const next = new Map<string, ActionButton>();
    actions.forEach((a, i) => {
      let b = this.buttons.get(a.actionId);
      if (!b) {
        const button = document.createElement('vscode-button') as ActionButton;
        button.secondary = true;
        button.dataset.actionId = a.actionId;
        button.addEventListener('click', () => this.run(button));
        b = button;
      }
      if (b.textContent !== a.label) b.textContent = a.label;
      b.dataset.label = a.label;
      b.disabled = stale;
      next.set(a.actionId, b);
      placeAt(this.actions, b, i);
    });
    for (const [id, b] of this.buttons) if (!next.has(id)) b.remove();
    this.buttons = next;
    this.actions.hidden = actions.length === 0;
  }

  private run(button: ActionButton): void {
    const actionId = button.dataset.actionId ?? '';
    const label = button.dataset.label ?? actionId;
    if (!this.last || this.last.stale || button.disabled || this.running.has(actionId)) return;
    const requestId = newId('a');
    this.running.add(actionId);
    button.setAttribute('aria-busy', 'true');
    this.result.busy(text('running', label));
    this.ctx.expect(requestId, (r) => {
      this.running.delete(actionId);
      button.removeAttribute('aria-busy');
      if (r.accepted) this.result.ok(r.message || `${label}: done`);
      else this.result.error(r.message || `${label}: not accepted`);
    });
    this.ctx.post({ type: 'runAction', requestId, key: surfaceKey(this.last), actionId });
  }
}

class FormSurfaceView implements SurfaceView {
  readonly kind = 'form';
  private readonly form: FormView;
  private last: Surface | undefined;

  constructor(ctx: ViewContext, key: string) {
    this.form = new FormView(ctx, { kind: 'surface', key });
  }
  get el(): HTMLElement {
    return this.form.el;
  }

  update(s: Surface): void {
    if (unchanged(this.last, s) || s.kind !== 'form') return;
    this.last = s;
    this.form.update({
      title: s.payload.title ?? s.surfaceId,
      message: s.payload.message,
      fields: s.payload.fields,
      stale: s.stale,
    });
  }
}

export function createSurfaceView(ctx: ViewContext, s: Surface): SurfaceView {
  switch (s.kind) {
    case 'status':
      return new StatusView();
    case 'notification':
      return new NotificationView();
    case 'card':
    case 'panel':
    case 'view':
      return new CardView(ctx, s.kind);
    case 'form':
      return new FormSurfaceView(ctx, surfaceKey(s));
  }
}
