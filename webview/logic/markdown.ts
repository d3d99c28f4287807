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

function inline(tokens: readonly Token[], into: SafeNode[]): void {
  const stack: SafeNode[][] = [into];
  const top = () => stack[stack.length - 1];
  for (const t of tokens) {
    switch (t.type) {
      case 'text':
      case 'html_inline': // impossible with html:false; kept as text if it ever appears
        top().push(t.content);
        break;
      case 'softbreak':
        top().push('\n');
        break;
      case 'hardbreak':
        top().push(el('br'));
        break;
      case 'code_inline':
        top().push(el('code', [t.content]));
        break;
      case 'image': {
        const src = attr(t, 'src');
        const alt = t.children ? t.children.map((c: Token) => c.content).join('') : t.content;
        if (isAllowedImage(src)) {
          const img: SafeElement = { tag: 'img', src, alt, children: [] };
          const title = attr(t, 'title');
          if (title) img.title = title;
          top().push(img);
        } else top().push(alt);
        break;
      }
      case 'link_open': {
        const href = attr(t, 'href');
        const a: SafeElement = isAllowedLink(href) ? { tag: 'a', href, children: [] } : el('span');
        const title = attr(t, 'title');
        if (title && a.tag === 'a') a.title = title;
        top().push(a);
        stack.push(a.children);
        break;
      }
      case 'em_open':
      case 'strong_open':
      case 's_open': {
        const e = el(t.tag as SafeTag);
        top().push(e);
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
        if (t.content) top().push(t.content);
    }
  }
}

/** Parse Markdown into allow-listed nodes. */
export function renderMarkdown(source: string): SafeNode[] {
  const root: SafeNode[] = [];
  const stack: SafeNode[][] = [root];
  const top = () => stack[stack.length - 1];
  for (const t of md().parse(source, {})) {
    if (t.nesting === 1 && t.hidden) {
      stack.push(top()); // tight-list paragraphs: no element, children go to the list item
    } else if (t.nesting === 1) {
      const tag: SafeTag = BLOCK_TAGS.has(t.tag) ? (t.tag as SafeTag) : 'div';
      const e = el(tag);
      const align = tag === 'th' || tag === 'td' ? alignOf(t) : undefined;
      if (align) e.align = align;
      top().push(e);
      stack.push(e.children);
    } else if (t.nesting === -1) {
      if (stack.length > 1) stack.pop();
    } else if (t.type === 'inline') {
      inline(t.children ?? [], top());
    } else if (t.type === 'fence' || t.type === 'code_block') {
      top().push(el('pre', [el('code', [t.content])]));
    } else if (t.type === 'hr') {
      top().push(el('hr'));
    } else if (t.content) {
      top().push(el('p', [t.content]));
    }
  }
  return root;
}
