// A protocol v2 view (HOST_SPEC_V2 §7.3) drawn from the host's primitives with the theme's own
// variables: row (wraps when narrow), stack, kv, meter (a labelled meter exposing its value), pip
// (a small status mark), divider, markdown (the one safe renderer), text (plain), button (the
// one action path). Tone is meaning: ok/warn/err carry an icon and a word, never colour alone.
// Re-publishing patches the tree by position: a node whose kind is unchanged is kept and only
// its changed parts are written, so a focused button stays focused.
import type { Surface, ViewNode, ViewPayload, ViewTone } from '../../src/webviewProtocol/messages';
import { ActionRunner, type ActionButton } from './actionButtons';
import { staleBadge } from './common';
import type { ViewContext } from './context';
import { h, icon, srOnly } from './h';
import { showMarkdown } from './markdownBlock';
import { text } from '../text';
import type { ViewStringKey } from '../../src/webviewProtocol/strings';

/** What a screen reader hears with a tone, and the icon shown beside it (none for dim/strong/accent). */
const TONES: Record<ViewTone, { word?: ViewStringKey; icon?: string }> = {
  dim: {},
  strong: {},
  accent: {},
  ok: { word: 'ok', icon: 'pass' },
  warn: { word: 'warning', icon: 'warning' },
  err: { word: 'error', icon: 'error' },
};

/** The tone's word in the view's language ('' for the tones without one). */
function toneWord(tone: ViewTone | undefined): string {
  const w = TONES[tone ?? 'dim']?.word;
  return w ? text(w) : '';
}

type NodeEl = HTMLElement & { __node?: ViewNode };

function same(a: ViewNode | undefined, b: ViewNode): boolean {
  return (
    !!a &&
    a.kind === b.kind &&
    a.value === b.value &&
    a.key === b.key &&
    a.label === b.label &&
    a.tone === b.tone &&
    a.progress === b.progress &&
    a.actionId === b.actionId
  );
}

function toneMark(tone: ViewTone | undefined): Node[] {
  const t = tone ? TONES[tone] : undefined;
  if (!t?.icon) return [];
  return [icon(t.icon, 'tone-icon'), srOnly(`${toneWord(tone)}: `)];
}

export class ViewView {
  readonly kind = 'view';
  readonly el = h('section', { class: 'surface view', role: 'region' });
  private readonly badge = h('div', { class: 'view-badge', hidden: true });
  private readonly body = h('div', { class: 'v-stack view-body' });
  private readonly runner: ActionRunner;
  private last: Surface | undefined;
  private stale = false;

  constructor(ctx: ViewContext) {
    this.runner = new ActionRunner(ctx);
    this.el.append(this.badge, this.body, this.runner.result.el);
  }

  update(s: Surface): void {
    if (s.kind !== 'view' || (this.last && this.last.revision === s.revision && this.last.stale === s.stale)) return;
    this.last = s;
    this.runner.surface = s;
    this.stale = s.stale;
    const p: ViewPayload = s.payload;
    const label = `${s.pluginId}: ${s.surfaceId}`;
    if (this.el.getAttribute('aria-label') !== label) this.el.setAttribute('aria-label', label);
    // Known slots and anchors are placed by the front end; here every view renders in its
    // extension's area (docs/webview.md "Where views render"), and says where it asked to be.
    this.setData('slot', p.slot);
    this.setData('anchor', p.anchor);
    this.el.classList.toggle('stale', s.stale);
    this.badge.hidden = !s.stale;
    if (s.stale !== this.badge.hasChildNodes()) this.badge.replaceChildren(...(s.stale ? [staleBadge()] : []));
    this.patchChildren(this.body, p.body);
  }

  private setData(name: 'slot' | 'anchor', v: string | undefined): void {
    if (v === undefined) delete this.el.dataset[name];
    else if (this.el.dataset[name] !== v) this.el.dataset[name] = v;
  }

  private patchChildren(parent: HTMLElement, nodes: readonly ViewNode[]): void {
    const kids = parent.children;
    while (kids.length > nodes.length) parent.lastElementChild!.remove();
    nodes.forEach((n, i) => {
      const existing = kids[i] as NodeEl | undefined;
      const el = existing && existing.dataset.kind === n.kind ? existing : this.create(n);
      if (el !== existing) {
        if (existing) existing.replaceWith(el);
        else parent.append(el);
      }
      this.patch(el, n);
    });
  }

  private create(n: ViewNode): NodeEl {
    let el: NodeEl;
    switch (n.kind) {
      case 'button':
        el = this.runner.button(n.actionId ?? '');
        break;
      case 'divider':
        el = h('hr', { class: 'v-divider' });
        break;
      case 'meter':
        el = h(
          'div',
          { class: 'v-meter', role: 'meter', 'aria-valuemin': '0', 'aria-valuemax': '100' },
          h('span', { class: 'v-meter-label', dir: 'auto' }),
          h('span', { class: 'v-meter-track', 'aria-hidden': 'true' }, h('span', { class: 'v-meter-fill' })),
          h('span', { class: 'v-meter-value', 'aria-hidden': 'true' }),
        );
        break;
      case 'row':
      case 'stack':
        el = h('div', { class: `v-${n.kind}` });
        break;
      case 'markdown':
        el = h('div', { class: 'markdown v-markdown' });
        break;
      default:
        el = h('div', { class: `v-${n.kind}` });
    }
    el.dataset.kind = n.kind;
    return el;
  }

  private patch(el: NodeEl, n: ViewNode): void {
    if (n.kind === 'row' || n.kind === 'stack') {
      this.patchChildren(el, n.children ?? []);
      return;
    }
    if (n.kind === 'button') {
      this.runner.patch(el as ActionButton, n.label ?? n.actionId ?? '', this.stale);
      if (el.dataset.actionId !== n.actionId) el.dataset.actionId = n.actionId ?? '';
      return;
    }
    if (same(el.__node, n)) return;
    el.__node = n;
    if (n.tone) el.dataset.tone = n.tone;
    else delete el.dataset.tone;
    switch (n.kind) {
      case 'text':
        el.replaceChildren(...toneMark(n.tone), h('span', { dir: 'auto' }, n.value ?? ''));
        return;
      case 'markdown':
        showMarkdown(el, n.value ?? '');
        return;
      case 'kv':
        el.replaceChildren(
          h('span', { class: 'v-key', dir: 'auto' }, n.key ?? ''),
          h('span', { class: 'v-value', dir: 'auto' }, n.value ?? ''),
        );
        return;
      case 'meter':
        return patchMeter(el, n);
      case 'pip': {
        const t = TONES[n.tone ?? 'dim'];
        const word = toneWord(n.tone) || n.tone || text('mark');
        el.setAttribute('role', 'img');
        el.setAttribute('aria-label', word);
        el.title = word;
        el.replaceChildren(icon(t.icon ?? 'circle-filled', 'pip-icon'));
        return;
      }
      default:
        return;
    }
  }
}

function patchMeter(el: HTMLElement, n: ViewNode): void {
  const pct = Math.round(Math.min(1, Math.max(0, n.progress ?? 0)) * 100);
  const [label, track, value] = [...el.children] as HTMLElement[];
  label.textContent = n.label ?? '';
  label.hidden = !n.label;
  (track.firstElementChild as HTMLElement).style.inlineSize = `${pct}%`;
  value.textContent = `${pct}%`;
  el.setAttribute('aria-label', n.label || text('meter'));
  el.setAttribute('aria-valuenow', String(pct));
  el.setAttribute('aria-valuetext', `${pct}%`);
}
