// What the view says when there is nothing to show, and what to do about it.
import type { EmptyState } from '../../src/webviewProtocol/messages';
import { h, icon } from './h';

const TEXT: Record<Exclude<EmptyState, null> | 'none', { icon: string; title: string; hint: string }> = {
  'no-extensions': {
    icon: 'extensions',
    title: 'No Reasonix extensions are installed.',
    hint: 'Install one with Reasonix, or link a development folder from the Extensions section of this sidebar. Its cards, forms and status appear here.',
  },
  untrusted: {
    icon: 'shield',
    title: 'This workspace is not trusted, so no Reasonix extensions run.',
    hint: 'Trust the workspace to start them.',
  },
  'all-stopped': {
    icon: 'debug-stop',
    title: 'All Reasonix extensions are stopped.',
    hint: 'Start or restart them from the Extensions section of this sidebar, or run “Reasonix: Reload Runtime” from the Command Palette.',
  },
  none: {
    icon: 'layout-sidebar-right',
    title: 'Nothing published yet.',
    hint: 'Cards, forms and status from your running Reasonix extensions appear here.',
  },
};

export function renderEmptyState(into: HTMLElement, state: EmptyState, onManageTrust: () => void): void {
  const t = TEXT[state ?? 'none'];
  const children: Node[] = [
    icon(t.icon, 'empty-icon'),
    h('p', { class: 'empty-title' }, t.title),
    h('p', { class: 'empty-hint' }, t.hint),
  ];
  if (state === 'untrusted') {
    const b = document.createElement('vscode-button');
    b.textContent = 'Manage Workspace Trust';
    b.addEventListener('click', onManageTrust);
    children.push(b);
  }
  into.dataset.state = state ?? 'none';
  into.replaceChildren(...children);
}
