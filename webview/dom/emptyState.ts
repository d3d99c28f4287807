// What the view says when there is nothing to show, and what to do about it.
import type { EmptyState } from '../../src/webviewProtocol/messages';
import { h, icon } from './h';
import { text } from '../text';
import type { ViewStringKey } from '../../src/webviewProtocol/strings';

const TEXT: Record<Exclude<EmptyState, null> | 'none', { icon: string; title: ViewStringKey; hint: ViewStringKey }> = {
  'no-extensions': {
    icon: 'extensions',
    title: 'noExtensionsTitle',
    hint: 'noExtensionsHint',
  },
  untrusted: {
    icon: 'shield',
    title: 'untrustedTitle',
    hint: 'untrustedHint',
  },
  'all-stopped': {
    icon: 'debug-stop',
    title: 'allStoppedTitle',
    hint: 'allStoppedHint',
  },
  none: {
    icon: 'layout-sidebar-right',
    title: 'nothingTitle',
    hint: 'nothingHint',
  },
};

export function renderEmptyState(into: HTMLElement, state: EmptyState, onManageTrust: () => void): void {
  const t = TEXT[state ?? 'none'];
  const children: Node[] = [
    icon(t.icon, 'empty-icon'),
    h('p', { class: 'empty-title' }, text(t.title)),
    h('p', { class: 'empty-hint' }, text(t.hint)),
  ];
  if (state === 'untrusted') {
    const b = document.createElement('vscode-button');
    b.textContent = text('manageTrust');
    b.addEventListener('click', onManageTrust);
    children.push(b);
  }
  into.dataset.state = state ?? 'none';
  into.replaceChildren(...children);
}
