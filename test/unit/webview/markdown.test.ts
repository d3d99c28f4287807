import * as assert from 'node:assert/strict';
import { MARKDOWN_LIMITS, pageEnd, renderMarkdown as renderPage, type SafeNode } from '../../../webview/logic/markdown';

/** The first page's nodes (everything below fits in one page). */
const renderMarkdown = (source: string): SafeNode[] => renderPage(source).nodes;

function walk(nodes: SafeNode[], visit: (n: SafeNode) => void): void {
  for (const n of nodes) {
    visit(n);
    if (typeof n !== 'string') walk(n.children, visit);
  }
}
function text(nodes: SafeNode[]): string {
  let s = '';
  walk(nodes, (n) => {
    if (typeof n === 'string') s += n;
  });
  return s;
}
function elements(nodes: SafeNode[]) {
  const out: Exclude<SafeNode, string>[] = [];
  walk(nodes, (n) => {
    if (typeof n !== 'string') out.push(n);
  });
  return out;
}

describe('webview markdown → allow-listed nodes', () => {
  it('renders common Markdown structure', () => {
    const nodes = renderMarkdown(
      '# Title\n\nSome *em* and **strong** and `code` and ~~gone~~.\n\n- a\n- b\n\n> quote\n\n```\nx < y\n```\n\n| a | b |\n|:-:|--:|\n| 1 | 2 |\n',
    );
    const tags = elements(nodes).map((e) => e.tag);
    for (const t of ['h1', 'p', 'em', 'strong', 'code', 's', 'ul', 'li', 'blockquote', 'pre', 'table', 'th', 'td'])
      assert.ok(tags.includes(t as never), `has ${t}`);
    assert.ok(
      !tags.includes('p' as never) ||
        elements(nodes)
          .filter((e) => e.tag === 'li')
          .every((li) => li.children.every((c) => typeof c === 'string')),
      'tight list items hold text directly',
    );
    assert.equal(elements(nodes).find((e) => e.tag === 'th')?.align, 'center');
    assert.match(text(nodes), /x < y/);
  });

  it('keeps raw HTML as literal text', () => {
    const nodes = renderMarkdown('<script>alert(1)</script>\n\nhi <img src=x onerror=alert(1)> <b>bold</b>');
    assert.match(text(nodes), /<script>alert\(1\)<\/script>/);
    assert.match(text(nodes), /<img src=x onerror=alert\(1\)>/);
    assert.deepEqual(
      elements(nodes).map((e) => e.tag),
      ['p', 'p'],
    );
  });

  it('links only to http, https and mailto', () => {
    const nodes = renderMarkdown(
      '[a](https://x.example/a) [b](http://x.example/b) [c](mailto:c@x.example) [d](javascript:alert(1)) [e](command:workbench.action.quit) [f](data:text/html,x) [g](/rel) [h](vbscript:x) [i](file:///etc/passwd) <https://auto.example/>',
    );
    assert.deepEqual(
      elements(nodes)
        .filter((e) => e.tag === 'a')
        .map((e) => e.href),
      ['https://x.example/a', 'http://x.example/b', 'mailto:c@x.example', 'https://auto.example/'],
    );
    assert.match(text(nodes), /\[d\]\(javascript:alert\(1\)\)/);
  });

  it('shows images only from https, otherwise their alt text', () => {
    const nodes = renderMarkdown(
      '![one](https://img.example/1.png "t") ![two](http://img.example/2.png) ![three](data:image/png;base64,AAAA)',
    );
    const imgs = elements(nodes).filter((e) => e.tag === 'img');
    assert.deepEqual(
      imgs.map((i) => [i.src, i.alt, i.title]),
      [['https://img.example/1.png', 'one', 't']],
    );
    assert.match(text(nodes), /two/);
    assert.match(text(nodes), /three/);
  });

  it('produces only tags from the allow-list, whatever the input', () => {
    const allowed = new Set([
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
      'pre',
      'code',
      'em',
      'strong',
      's',
      'a',
      'img',
      'hr',
      'br',
      'table',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
      'span',
      'div',
    ]);
    const hostile = [
      '<iframe src=x>',
      '<svg onload=alert(1)>',
      '***\n\n---\n\n1. x\n2. y',
      'a  \nb',
      '[x]: javascript:alert(1)\n\n[x]',
      '>'.repeat(200) + ' deep',
      'ש'.repeat(10) + ' 🎉',
    ];
    for (const src of hostile)
      for (const e of elements(renderMarkdown(src)))
        assert.ok(allowed.has(e.tag), `${e.tag} from ${JSON.stringify(src)}`);
  });

  it('renders 1 MiB of Markdown page by page, every page within the bounds and all its text reached', function () {
    this.timeout(120_000); // correctness, not speed: speed is not asserted in unit tests
    const chunk = '## Section\n\nSome *emphasis*, `code`, a [link](https://example.com) and text.\n\n- one\n- two\n\n';
    const md = chunk.repeat(Math.ceil((1024 * 1024) / chunk.length)).slice(0, 1024 * 1024);
    const pages = allPages(md);
    assert.ok(pages.length > 30, `${pages.length} pages`);
    for (const p of pages) assertBounded(p);
    const h2 = pages.reduce((n, p) => n + elements(p).filter((e) => e.tag === 'h2').length, 0);
    assert.equal(h2, md.split('## Section').length - 1, 'every heading rendered, on some page');
    assert.equal(pages.flatMap((p) => elements(p)).filter((e) => e.plain).length, 0, 'nothing shown as plain text');
  });
});

/** Every page of `source`, as "Show more" would render them. */
function allPages(source: string): SafeNode[][] {
  const pages: SafeNode[][] = [];
  for (let rest = source; rest;) {
    const page = renderPage(rest);
    assert.ok(page.rest.length < rest.length, 'each page consumes source');
    pages.push(page.nodes);
    rest = page.rest;
  }
  return pages;
}
function count(nodes: SafeNode[]): number {
  let n = 0;
  walk(nodes, () => n++);
  return n;
}
function depth(nodes: SafeNode[]): number {
  let max = 0;
  for (const n of nodes) if (typeof n !== 'string') max = Math.max(max, 1 + depth(n.children));
  return max;
}
function assertBounded(nodes: SafeNode[]): void {
  // The budget is checked before each node; one block's close adds at most its plain-text node.
  assert.ok(count(nodes) <= MARKDOWN_LIMITS.maxNodes + 4, `${count(nodes)} nodes`);
  assert.ok(depth(nodes) <= MARKDOWN_LIMITS.maxDepth + 1, `${depth(nodes)} deep`);
}

describe('webview markdown bounds (issue 38)', () => {
  const rep = (s: string, n: number) => s.repeat(Math.ceil(n / s.length)).slice(0, n);
  const cases: [string, string, string][] = [
    ['300 KB of `*a`', rep('*a', 300 * 1024), 'a'],
    ['1 MB of one paragraph', rep('word *em* `c` ', 1024 * 1024), 'word'],
    ['80,000 inline children', rep('*x* ', 320_000), 'x'],
    ['a 20,000-item list', rep('- item\n', 140_000), 'item'],
    ['1,000-deep blockquotes', '>'.repeat(1000) + ' deep\n', 'deep'],
    ['1,000-deep emphasis', '*'.repeat(1000) + 'deep' + '*'.repeat(1000), 'deep'],
  ];
  for (const [name, source, word] of cases)
    it(`${name}: every page bounded, every word reached`, function () {
      this.timeout(120_000);
      const pages = allPages(source);
      for (const p of pages) assertBounded(p);
      const all = pages.map((p) => text(p)).join('');
      assert.equal(all.split(word).length, source.split(word).length, `every "${word}" is on some page`);
    });

  it('past the node budget inside one block, the rest of the block is plain text', () => {
    const page = renderPage(rep('- *x*\n', 60_000));
    const plain = elements(page.nodes).filter((e) => e.plain);
    assert.equal(plain.length, 1);
    assert.match(text(plain[0].children), /^x\nx\n/);
  });

  it('a page ends at a blank line, never inside a surrogate pair, and before an unclosed fence', () => {
    const para = 'para\n\n';
    const src = para.repeat(10_000);
    const end = pageEnd(src, 1000);
    assert.ok(end <= 1000 && src.slice(0, end).endsWith('\n\n'));
    const emoji = '🎉'.repeat(1000);
    assert.equal(pageEnd(emoji, 1001) % 2, 0, 'no half surrogate pair');
    const fenced = 'intro\n\n```\n' + 'code line\n'.repeat(200);
    assert.equal(pageEnd(fenced, 1000), 'intro\n\n'.length, 'the fence starts the next page');
    assert.equal(pageEnd('short', 1000), 5);
  });

  it('keeps CRLF sources whole across pages', () => {
    const src = 'line one\r\n\r\n'.repeat(20_000);
    const all = allPages(src)
      .map((p) => text(p))
      .join('');
    assert.equal(all.split('line one').length - 1, 20_000);
  });
});
