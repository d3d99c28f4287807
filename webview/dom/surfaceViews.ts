// One DOM view per surface, patched in place when the surface is re-published.
import {
  surfaceKey,
  type CardPayload,
  type NotificationPayload,
  type StatusPayload,
  type Surface,
} from '../../src/webviewProtocol/messages';
import { fieldText } from '../logic/surfaceModel';
import { ActionRow, ActionRunner } from './actionButtons';
import { progressBar, severityIcon, staleBadge } from './common';
import type { ViewContext } from './context';
import { FormView } from './formView';
import { h, newId, replace } from './h';
import { showMarkdown } from './markdownBlock';
import { text } from '../text';
import { PanelView } from './panelView';
import { ViewView } from './viewNodes';

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

class CardView implements SurfaceView {
  readonly kind = 'card';
  // A labelled region (its title), so a screen reader lists every card by name.
  readonly el = h('article', { class: 'surface card', role: 'region' });
  private readonly header = h('header', { class: 'surface-header' });
  private readonly body = h('div', { class: 'card-body' });
  private readonly runner: ActionRunner;
  private readonly actions: ActionRow;
  private readonly titleId = newId('t');
  private last: Surface | undefined;

  constructor(ctx: ViewContext) {
    this.runner = new ActionRunner(ctx);
    this.actions = new ActionRow(h('div', { class: 'actions' }), this.runner);
    this.el.setAttribute('aria-labelledby', this.titleId);
    this.el.append(this.header, this.body, this.actions.el, this.runner.result.el);
  }

  update(s: Surface): void {
    if (unchanged(this.last, s) || s.kind !== 'card') return;
    this.last = s;
    this.runner.surface = s;
    const p: CardPayload = s.payload;
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
      showMarkdown(md, p.markdown);
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
    this.actions.update(p.actions ?? [], s.stale);
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
      return new CardView(ctx);
    case 'panel':
      return new PanelView(ctx, surfaceKey(s));
    case 'view':
      return new ViewView(ctx);
    case 'form':
      return new FormSurfaceView(ctx, surfaceKey(s));
  }
}
