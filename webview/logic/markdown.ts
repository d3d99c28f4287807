// Card Markdown → a tree of allow-listed nodes. markdown-it parses with raw HTML disabled; we never
// use its HTML output. Instead its tokens become plain objects holding only tags from a fixed list,
// text, and URLs that passed the link/image checks, and the DOM builder creates elements from
// those with createElement/createTextNode. Nothing sidecar-provided is ever parsed as HTML.
import MarkdownIt from 'markdown-it';
import { isAllowedImage, isAllowedLink } from '../../src/webviewProtocol/links';

function createParser() {
  const md = new MarkdownIt('default', { html: false, linkify: false, typographer: false });
  // Links and images that fail this become literal text in markdown-it's own output.
  md.validateLink = (url: string) => isAllowedLink(url);
  return md;
}
type Parser = ReturnType<typeof createParser>;
type Token = ReturnType<Parser['parse']>[number];

export type SafeTag =
  | 'p'
  | 'h1'
  | 'h2'
  | 'h3'
  | 'h4'
  | 'h5'
  | 'h6'
  | 'ul'
  | 'ol'
  | 'li'
  | 'blockquote'
  | 'pre'
  | 'code'
  | 'em'
  | 'strong'
  | 's'
  | 'a'
  | 'img'
  | 'hr'
  | 'br'
  | 'table'
  | 'thead'
  | 'tbody'
  | 'tr'
  | 'th'
  | 'td'
  | 'span'
  | 'div';

export interface SafeElement {
  tag: SafeTag;
  /** Only for `a`: an http/https/mailto URL. */
  href?: string;
  /** Only for `img`: an https URL. */
  src?: string;
  alt?: string;
  title?: string;
  align?: 'left' | 'center' | 'right';
  /** Only for `div`: text past the node budget, shown as plain text (white-space: pre-wrap). */
  plain?: true;
  children: SafeNode[];
}
export type SafeNode = string | SafeElement;

const BLOCK_TAGS = new Set<string>([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'em',
  'strong',
  's',
]);

let parser: Parser | undefined;
function md(): Parser {
  return (parser ??= createParser());
}

/** markdown-it types attribute values loosely; ours are always strings. */
function attr(t: Token, name: string): string {
  const v = t.attrGet(name);
  return typeof v === 'string' ? v : '';
}

function alignOf(t: Token): SafeElement['align'] {
  const style = attr(t, 'style');
  const m = /text-align:(left|center|right)/.exec(style);
  return m ? (m[1] as SafeElement['align']) : undefined;
}

function el(tag: SafeTag, children: SafeNode[] = []): SafeElement {
  return { tag, children };
}

/** One page's node budget and the nesting cap (see MARKDOWN_LIMITS); `nodes` counts down. */
class Budget {
  nodes: number;
  constructor(readonly limits: MarkdownLimits) {
    this.nodes = limits.maxNodes;
  }
  /** Past this the page ends at the next top-level block. */
  get full(): boolean {
    return this.nodes <= this.limits.maxNodes / 4;
  }
  /** Past this the rest of the block is plain text. */
  get spent(): boolean {
    return this.nodes <= 0;
  }
  /** Append a node; a string next to a string joins it (markdown-it emits many text tokens). */
  add(into: SafeNode[], n: SafeNode): void {
    const last = into.length - 1;
    if (typeof n === 'string' && last >= 0 && typeof into[last] === 'string') {
      into[last] = (into[last] as string) + n;
      return;
    }
    into.push(n);
    this.nodes--;
  }
}

/** The text of inline tokens, markup dropped (what is past the node budget becomes). */
function inlineText(tokens: readonly Token[]): string {
  let s = '';
  for (const t of tokens) {
    if (t.type === 'softbreak' || t.type === 'hardbreak') s += '\n';
    else if (t.type === 'image') s += t.children ? t.children.map((c: Token) => c.content).join('') : t.content;
    else s += t.content;
  }
  return s;
}

function inline(tokens: readonly Token[], into: SafeNode[], budget: Budget, depth: number): void {
  const stack: SafeNode[][] = [into];
  const top = () => stack[stack.length - 1];
  const add = (n: SafeNode) => budget.add(top(), n);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (budget.spent) {
      // Past the budget the rest of this run is one text node, after what is already built.
      budget.add(into, inlineText(tokens.slice(i)));
      return;
    }
    switch (t.type) {
      case 'text':
      case 'html_inline': // impossible with html:false; kept as text if it ever appears
        add(t.content);
        break;
      case 'softbreak':
        add('\n');
        break;
      case 'hardbreak':
        add(el('br'));
        break;
      case 'code_inline':
        add(el('code', [t.content]));
        budget.nodes--;
        break;
      case 'image': {
        const src = attr(t, 'src');
        const alt = t.children ? t.children.map((c: Token) => c.content).join('') : t.content;
        if (isAllowedImage(src)) {
          const img: SafeElement = { tag: 'img', src, alt, children: [] };
          const title = attr(t, 'title');
          if (title) img.title = title;
          add(img);
        } else add(alt);
        break;
      }
      case 'link_open': {
        if (depth + stack.length > budget.limits.maxDepth) {
          stack.push(top()); // too deep: the link's text stays, in its parent
          break;
        }
        const href = attr(t, 'href');
        const a: SafeElement = isAllowedLink(href) ? { tag: 'a', href, children: [] } : el('span');
        const title = attr(t, 'title');
        if (title && a.tag === 'a') a.title = title;
        add(a);
        stack.push(a.children);
        break;
      }
      case 'em_open':
      case 'strong_open':
      case 's_open': {
        if (depth + stack.length > budget.limits.maxDepth) {
          stack.push(top());
          break;
        }
        const e = el(t.tag as SafeTag);
        add(e);
        stack.push(e.children);
        break;
      }
      case 'link_close':
      case 'em_close':
      case 'strong_close':
      case 's_close':
        if (stack.length > 1) stack.pop();
        break;
      default:
        if (t.content) add(t.content);
    }
  }
}

/**
 * What one card's (or view node's) Markdown may render at a time: the issue-38 bounds. A page is at
 * most `pageChars` of source (cut at a blank line or line end where there is one), at most
 * `maxNodes` nodes (elements and text runs) and at most `maxDepth` elements deep. A page ends at
 * the first top-level block that begins after three quarters of the node budget is spent; what is
 * past a page is its `rest`, rendered on demand ("Show more", webview/dom/markdownBlock.ts); what is
 * past the whole budget inside one top-level block is shown as plain text; elements past the depth
 * keep their text in their parent. Chromium's cost for a paragraph with tens of thousands of inline
 * children (dir="auto") and markdown-it's for pathological emphasis both grow faster than linearly,
 * so these bound the work per page whatever the input.
 */
export interface MarkdownLimits {
  pageChars: number;
  maxNodes: number;
  maxDepth: number;
}
export const MARKDOWN_LIMITS: MarkdownLimits = { pageChars: 32 * 1024, maxNodes: 4000, maxDepth: 16 };

export interface MarkdownPage {
  nodes: SafeNode[];
  /** The source not rendered in this page ('' when it all was); render it as the next page. */
  rest: string;
}

const FENCE_LINE = /^ {0,3}(?:```|~~~)/gm;

/** Where a page of `source` ends: at most `max` characters, at a blank line or a line end if one is in the second half, never inside a surrogate pair, and before an unclosed code fence when one opened after the start. */
export function pageEnd(source: string, max: number): number {
  if (source.length <= max) return source.length;
  let end = source.lastIndexOf('\n\n', max - 2);
  if (end >= max / 2) end += 2;
  else {
    end = source.lastIndexOf('\n', max - 1);
    end = end >= max / 2 ? end + 1 : max;
  }
  const c = source.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  const fences = [...source.slice(0, end).matchAll(FENCE_LINE)];
  if (fences.length % 2 === 1) {
    const open = fences[fences.length - 1].index;
    if (open > 0) end = open;
  }
  return end;
}

/** The offset of line `line` (0-based) in `s`. */
function lineOffset(s: string, line: number): number {
  let at = 0;
  for (let i = 0; i < line; i++) {
    const nl = s.indexOf('\n', at);
    if (nl < 0) return s.length;
    at = nl + 1;
  }
  return at;
}

/** Parse one page of Markdown into allow-listed nodes (see MarkdownLimits for the bounds). */
export function renderMarkdown(markdown: string, limits: MarkdownLimits = MARKDOWN_LIMITS): MarkdownPage {
  // markdown-it's own normalisation, done first so its line numbers are ours.
  const source = markdown.replace(/\r\n?/g, '\n');
  const end = pageEnd(source, limits.pageChars);
  const head = source.slice(0, end);
  const budget = new Budget(limits);
  const root: SafeNode[] = [];
  const stack: SafeNode[][] = [root];
  const top = () => stack[stack.length - 1];
  const tokens = md().parse(head, {});
  // markdown-it drops what is nested past its maxNesting (100 levels; a list level is two): such a
  // page is shown as its source, as plain text, rather than lose it.
  const cap = md().options.maxNesting - 1;
  if (tokens.some((t) => t.level >= cap))
    return { nodes: [{ tag: 'div', plain: true, children: [head] }], rest: source.slice(end) };
  let blocks = 0; // top-level blocks begun
  let plain: string | undefined; // past the budget inside a top-level block: its text, markup dropped
  for (const t of tokens) {
    if (t.level === 0 && t.nesting !== -1 && t.map) {
      if (plain !== undefined) {
        root.push({ tag: 'div', plain: true, children: [plain] });
        plain = undefined;
      }
      if (budget.full && blocks > 0) {
        // The page is full: the rest begins at this block's first line.
        return { nodes: root, rest: head.slice(lineOffset(head, t.map[0])) + source.slice(end) };
      }
      blocks++;
    }
    if (plain !== undefined) {
      if (t.type === 'inline') plain += inlineText(t.children ?? []);
      else if (t.content) plain += t.content;
      if (t.block && t.nesting !== 1 && !plain.endsWith('\n')) plain += '\n';
      continue;
    }
    if (budget.spent && t.nesting !== -1 && stack.length > 1) {
      plain = t.type === 'inline' ? inlineText(t.children ?? []) : t.content;
      continue;
    }
    if (t.nesting === 1 && (t.hidden || stack.length > limits.maxDepth)) {
      stack.push(top()); // tight-list paragraphs (and blocks too deep): no element, children go to the parent
    } else if (t.nesting === 1) {
      const tag: SafeTag = BLOCK_TAGS.has(t.tag) ? (t.tag as SafeTag) : 'div';
      const e = el(tag);
      const align = tag === 'th' || tag === 'td' ? alignOf(t) : undefined;
      if (align) e.align = align;
      budget.add(top(), e);
      stack.push(e.children);
    } else if (t.nesting === -1) {
      if (stack.length > 1) stack.pop();
    } else if (t.type === 'inline') {
      inline(t.children ?? [], top(), budget, stack.length);
    } else if (t.type === 'fence' || t.type === 'code_block') {
      budget.add(top(), el('pre', [el('code', [t.content])]));
      budget.nodes -= 2;
    } else if (t.type === 'hr') {
      budget.add(top(), el('hr'));
    } else if (t.content) {
      budget.add(top(), el('p', [t.content]));
      budget.nodes--;
    }
  }
  if (plain !== undefined) root.push({ tag: 'div', plain: true, children: [plain] });
  return { nodes: root, rest: source.slice(end) };
}
