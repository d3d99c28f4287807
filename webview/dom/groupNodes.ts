// The header and body of a folder group and of a plugin group: a button that collapses the body
// (its state remembered in the webview state), named by its visible text plus words for screen
// readers ("alpha, 3 items", "archive, stopped, 2 items", "api, 40 items"), with a count badge
// that stays right while the body is collapsed or not drawn yet.
import type { ViewState } from '../state';
import { text } from '../text';
import { h, icon, newId, srOnly } from './h';

/** What a group header shows and says: its count, and whether all of it stopped. */
export interface Count {
  shown: number;
  stale: boolean;
}

export interface GroupNode {
  readonly el: HTMLElement;
  readonly toggle: HTMLButtonElement;
  readonly body: HTMLElement;
  /** Writes the count (and the stopped mark) only when it changed: each write is a DOM mutation. */
  setCount(c: Count): void;
  /** The body shows (not collapsed). */
  readonly open: boolean;
}

/** The webview-state key of a folder group's collapse (plugin groups use their `surfaceOwner`). */
export function folderStateKey(sessionKey: string): string {
  return `folder:${sessionKey}`;
}

/**
 * A collapsible group: `toggle` holds the chevron, `label` and the count; `onToggle(open)` runs
 * after a click (or Enter / Space) changed it, with the body already shown or hidden.
 */
function group(
  state: ViewState,
  stateKey: string,
  parts: {
    el: HTMLElement;
    header: HTMLElement | null;
    toggleClass: string;
    label: Node[];
    bodyClass: string;
    onToggle: (open: boolean) => void;
  },
): GroupNode {
  const collapsed = state.isCollapsed(stateKey);
  const bodyId = newId('g');
  const badge = h('span', { class: 'badge count' });
  const badgeSuffix = srOnly('');
  const toggle = h(
    'button',
    { class: parts.toggleClass, type: 'button', 'aria-expanded': String(!collapsed), 'aria-controls': bodyId },
    icon('chevron-down', 'chevron'),
    ...parts.label,
    srOnly(', '),
    badge,
    badgeSuffix,
  );
  const body = h('div', { class: parts.bodyClass, id: bodyId, hidden: collapsed });
  (parts.header ?? parts.el).append(toggle);
  parts.el.append(body);
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    body.hidden = !open;
    state.setCollapsed(stateKey, !open);
    parts.onToggle(open);
  });
  return {
    el: parts.el,
    toggle,
    body,
    get open() {
      return !body.hidden;
    },
    setCount(c) {
      parts.el.classList.toggle('stale', c.stale);
      const items = text(c.shown === 1 ? 'itemOne' : 'itemMany', String(c.shown));
      setText(badge, c.stale ? text('staleBadge') : String(c.shown));
      setText(badgeSuffix, c.stale ? `, ${items}` : items.slice(String(c.shown).length));
    },
  };
}

/** A plugin group: `<section class="plugin">`, its header button `.plugin-header`, body `.plugin-body`. */
export function pluginGroupNode(
  state: ViewState,
  owner: string,
  pluginId: string,
  onToggle: (open: boolean) => void,
): GroupNode {
  return group(state, owner, {
    el: h('section', { class: 'plugin', 'data-plugin': pluginId }),
    header: null,
    toggleClass: 'plugin-header',
    label: [h('span', { class: 'plugin-name', dir: 'auto' }, pluginId)],
    bodyClass: 'plugin-body',
    onToggle,
  });
}

/**
 * A folder group: `<section class="folder">` named "Folder <name>", its heading `.folder-header`
 * holding the button `.folder-toggle`, body `.folder-body`. The heading shows only with more than
 * one folder, and only then can the folder be collapsed.
 */
export function folderGroupNode(
  state: ViewState,
  sessionKey: string,
  folderName: string,
  onToggle: (open: boolean) => void,
): GroupNode & { readonly header: HTMLElement; readonly name: HTMLElement } {
  const el = h('section', { class: 'folder', 'aria-label': text('folderLabel', folderName) });
  const header = h('h2', { class: 'folder-header' });
  el.append(header);
  const name = h('span', { class: 'folder-name', dir: 'auto' }, folderName);
  const g = group(state, folderStateKey(sessionKey), {
    el,
    header,
    toggleClass: 'folder-toggle',
    label: [icon('folder'), name],
    bodyClass: 'folder-body',
    onToggle,
  });
  return Object.assign(g, { header, name });
}

export function setText(el: HTMLElement, value: string): void {
  if (el.textContent !== value) el.textContent = value;
}
