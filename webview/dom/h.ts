// Tiny element factory. Text goes in through text nodes only; attribute names are our own
// constants. There is deliberately no way to pass an HTML string.

export type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === 'class') e.className = v === true ? '' : v;
    else e.setAttribute(k, v === true ? '' : v);
  }
  append(e, ...children);
  return e;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

/** A codicon, hidden from screen readers (the text next to it carries the meaning). */
export function icon(name: string, extra = ''): HTMLSpanElement {
  return h('span', { class: `codicon codicon-${name}${extra ? ` ${extra}` : ''}`, 'aria-hidden': 'true' });
}

/** Text only a screen reader announces. */
export function srOnly(text: string): HTMLSpanElement {
  return h('span', { class: 'sr-only' }, text);
}

/** Put `child` at `index` of `parent` unless it is already there (moving nothing that is in place). */
export function placeAt(parent: Element, child: Element, index: number): void {
  if (parent.children[index] !== child) parent.insertBefore(child, parent.children[index] ?? null);
}

let seq = 0;
/** A request id that matches the extension's id check. */
export function newId(prefix: string): string {
  return `${prefix}${(++seq).toString(36)}-${Date.now().toString(36)}`;
}

/** replaceChildren that skips absent children. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}
