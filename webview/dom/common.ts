// Pieces shared by the surface views: severity icons, progress bars, result lines.
import type { Severity } from '../../src/webviewProtocol/messages';
import { clampProgress } from '../logic/surfaceModel';
import { h, icon, srOnly } from './h';
import { text } from '../text';

const SEVERITY: Record<Severity, { icon: string; label: 'info' | 'warning' | 'error' }> = {
  info: { icon: 'info', label: 'info' },
  warn: { icon: 'warning', label: 'warning' },
  error: { icon: 'error', label: 'error' },
};

export function severityIcon(sev: Severity | undefined): HTMLSpanElement {
  const s = SEVERITY[sev ?? 'info'] ?? SEVERITY.info;
  return h('span', { class: `severity severity-${sev ?? 'info'}` }, icon(s.icon), srOnly(`${text(s.label)}: `));
}

/**
 * A progress bar for a payload that has a `progress` key: a finite number is a clamped 0..1
 * fraction; anything else there is "indeterminate". No key, no bar.
 */
export function progressBar(payload: object, label: string): HTMLElement | undefined {
  if (!('progress' in payload)) return undefined;
  const p = clampProgress((payload as { progress?: unknown }).progress);
  const bar = document.createElement('vscode-progress-bar');
  bar.setAttribute('aria-label', label);
  if (p === undefined) bar.indeterminate = true;
  else {
    bar.max = 1;
    bar.value = p;
  }
  const wrap = h('div', { class: 'progress' }, bar);
  if (p !== undefined) wrap.appendChild(h('span', { class: 'progress-text' }, `${Math.round(p * 100)}%`));
  return wrap;
}

/** The polite live line under a card or form that reports what happened to a click. */
export class ResultLine {
  readonly el = h('div', { class: 'result', role: 'status', 'aria-live': 'polite' });

  busy(text: string): void {
    this.set('loading', 'busy', text);
  }
  ok(text: string): void {
    this.set('check', 'ok', text);
  }
  error(text: string): void {
    this.set('error', 'error', text);
  }
  clear(): void {
    this.el.replaceChildren();
    this.el.className = 'result';
  }
  private set(name: string, cls: string, text: string): void {
    this.el.className = `result result-${cls}`;
    this.el.replaceChildren(
      icon(name, name === 'loading' ? 'codicon-modifier-spin' : ''),
      h('span', { dir: 'auto' }, text),
    );
  }
}

export function staleBadge(): HTMLElement {
  return h('span', { class: 'badge stale-badge', title: text('staleTitle') }, text('staleBadge'));
}
