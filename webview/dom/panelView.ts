// A protocol v2 panel (HOST_SPEC_V2 §7.2): a labelled region at the top of its extension's area,
// patched in place on every re-publish. Every part (title, text, each field, the progress bar,
// each button) is its own long-lived node changed only when its value changed, so focus, scroll,
// selection and anything typed elsewhere survive a panel updated many times a second. It can be
// collapsed; the view remembers that across reloads (ViewState, keyed by the surface key).
import { type PanelPayload, type Surface } from '../../src/webviewProtocol/messages';
import { clampProgress, fieldText } from '../logic/surfaceModel';
import { ActionRow, ActionRunner } from './actionButtons';
import { staleBadge } from './common';
import type { ViewContext } from './context';
import { text } from '../text';
import { h, icon, newId } from './h';

type ProgressBar = HTMLElement & { value: number; max: number; indeterminate: boolean };

/** Sets a text node's content only when it differs (no mutation, no re-announcement). */
function setText(el: Node, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

export class PanelView {
  readonly kind = 'panel';
  readonly el = h('section', { class: 'surface panel', role: 'region' });
  private readonly toggle: HTMLButtonElement;
  private readonly title = h('span', { class: 'surface-title', dir: 'auto' });
  private readonly badge = h('span', { class: 'panel-badge' });
  private readonly body: HTMLElement;
  private readonly text = h('p', { class: 'card-text', dir: 'auto', hidden: true });
  private readonly fields = h('dl', { class: 'kv', hidden: true });
  private readonly progress = h('div', { class: 'progress', hidden: true });
  private readonly bar = document.createElement('vscode-progress-bar') as ProgressBar;
  private readonly pct = h('span', { class: 'progress-text' });
  private readonly runner: ActionRunner;
  private readonly actions: ActionRow;
  private last: Surface | undefined;

  constructor(
    ctx: ViewContext,
    private readonly key: string,
  ) {
    const bodyId = newId('p');
    const collapsed = ctx.state.isCollapsed(key);
    this.toggle = h(
      'button',
      { class: 'panel-toggle', type: 'button', 'aria-expanded': String(!collapsed), 'aria-controls': bodyId },
      icon('chevron-down', 'chevron'),
      this.title,
    );
    this.toggle.addEventListener('click', () => {
      const open = this.toggle.getAttribute('aria-expanded') !== 'true';
      this.toggle.setAttribute('aria-expanded', String(open));
      this.body.hidden = !open;
      ctx.state.setCollapsed(this.key, !open);
    });
    this.runner = new ActionRunner(ctx);
    this.actions = new ActionRow(h('div', { class: 'actions' }), this.runner);
    this.progress.append(this.bar, this.pct);
    this.body = h(
      'div',
      { class: 'panel-body', id: bodyId, hidden: collapsed },
      this.text,
      this.fields,
      this.progress,
      this.actions.el,
      this.runner.result.el,
    );
    this.el.append(h('h3', { class: 'panel-header' }, this.toggle, this.badge), this.body);
  }

  update(s: Surface): void {
    if (s.kind !== 'panel' || (this.last && this.last.revision === s.revision && this.last.stale === s.stale)) return;
    this.last = s;
    this.runner.surface = s;
    const p: PanelPayload = s.payload;
    const title = p.title || s.surfaceId;
    setText(this.title, title);
    const label = `${s.pluginId}: ${title}`;
    if (this.el.getAttribute('aria-label') !== label) this.el.setAttribute('aria-label', label);
    this.el.classList.toggle('stale', s.stale);
    if (s.stale !== this.badge.hasChildNodes()) this.badge.replaceChildren(...(s.stale ? [staleBadge()] : []));
    setText(this.text, p.text ?? '');
    this.text.hidden = !p.text;
    this.updateFields(p.fields ?? []);
    this.updateProgress(p, title);
    this.actions.update(p.actions ?? [], s.stale);
  }

  /** dt/dd pairs reused by position; only the text that changed is written. */
  private updateFields(fields: readonly { key: string; value?: unknown }[]): void {
    const cells = this.fields.children;
    while (cells.length > fields.length * 2) this.fields.lastElementChild!.remove();
    fields.forEach((f, i) => {
      if (!cells[i * 2]) this.fields.append(h('dt', { dir: 'auto' }), h('dd', { dir: 'auto' }));
      setText(cells[i * 2], f.key);
      setText(cells[i * 2 + 1], fieldText(f.value));
    });
    this.fields.hidden = fields.length === 0;
  }

  private updateProgress(p: PanelPayload, title: string): void {
    const has = 'progress' in p;
    this.progress.hidden = !has;
    if (!has) return;
    const v = clampProgress(p.progress);
    const label = text('progressLabel', title);
    if (this.bar.getAttribute('aria-label') !== label) this.bar.setAttribute('aria-label', label);
    if (this.bar.indeterminate !== (v === undefined)) this.bar.indeterminate = v === undefined;
    if (v !== undefined) {
      if (this.bar.max !== 1) this.bar.max = 1;
      if (this.bar.value !== v) this.bar.value = v;
    }
    setText(this.pct, v === undefined ? '' : `${Math.round(v * 100)}%`);
  }
}
