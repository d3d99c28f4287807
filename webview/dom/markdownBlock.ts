// The one place the view shows Markdown (card bodies, protocol v2 `markdown` view nodes). A source
// renders a page at a time within MARKDOWN_LIMITS (webview/logic/markdown.ts): the first page at
// once, each further page when "Show more" is pressed, so no card can hold the view however large
// its Markdown is (issue 38: one 6 MB card held a code-server window for over 21 minutes).
import { renderMarkdown } from '../logic/markdown';
import { text } from '../text';
import type { ActionButton } from './actionButtons';
import { h } from './h';
import { markdownToDom } from './markdownDom';

/** Replace what `into` shows with the first page of `source`, and a "Show more" button for the rest. */
export function showMarkdown(into: HTMLElement, source: string): void {
  const page = renderMarkdown(source);
  into.replaceChildren();
  markdownToDom(page.nodes, into);
  if (page.rest) into.append(moreButton(into, page.rest));
}

function moreButton(into: HTMLElement, rest: string): ActionButton {
  const button = document.createElement('vscode-button') as ActionButton;
  button.secondary = true;
  button.className = 'md-more';
  let left = rest;
  const label = () => {
    button.textContent = text('showMore');
    button.setAttribute('aria-label', text('showMoreLabel', left.length.toLocaleString()));
  };
  label();
  button.addEventListener('click', () => {
    if (!button.isConnected || !left) return;
    const page = renderMarkdown(left);
    left = page.rest;
    const next = h('div', { class: 'md-page', tabindex: '-1' });
    markdownToDom(page.nodes, next);
    into.insertBefore(next, button); // the button stays where it is (and keeps focus)
    if (left) label();
    else {
      const focused = document.activeElement === button;
      button.remove();
      if (focused) next.focus();
    }
  });
  return button;
}
