// Builds DOM from the allow-listed Markdown tree (logic/markdown.ts). Every element comes from
// createElement with a tag from the fixed list, every string from a text node; the only URL
// attributes are ones that passed isAllowedLink / isAllowedImage.
import { isAllowedImage, isAllowedLink } from '../../src/webviewProtocol/links';
import type { SafeNode } from '../logic/markdown';

const DIR_AUTO = new Set(['p', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'td', 'th']);

export function markdownToDom(nodes: readonly SafeNode[], into: Node): void {
  for (const n of nodes) {
    if (typeof n === 'string') {
      into.appendChild(document.createTextNode(n));
      continue;
    }
    const e = document.createElement(n.tag);
    if (DIR_AUTO.has(n.tag)) e.setAttribute('dir', 'auto');
    if (n.tag === 'a' && n.href && isAllowedLink(n.href)) {
      e.setAttribute('href', n.href);
      e.setAttribute('rel', 'noreferrer noopener');
      e.setAttribute('title', n.title ? `${n.title} — ${n.href}` : n.href);
    }
    if (n.tag === 'img') {
      if (!n.src || !isAllowedImage(n.src)) {
        into.appendChild(document.createTextNode(n.alt ?? ''));
        continue;
      }
      e.setAttribute('src', n.src);
      e.setAttribute('alt', n.alt ?? '');
      e.setAttribute('referrerpolicy', 'no-referrer');
      e.setAttribute('loading', 'lazy');
      if (n.title) e.setAttribute('title', n.title);
    }
    if (n.align) e.classList.add(`align-${n.align}`);
    if (n.plain && n.tag === 'div') {
      e.className = 'md-plain';
      e.setAttribute('dir', 'auto'); // one text node: cheap
    }
    markdownToDom(n.children, e);
    into.appendChild(e);
  }
}
