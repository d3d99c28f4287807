import * as assert from 'node:assert/strict';
import { renderMarkdown, type SafeNode } from '../../../webview/logic/markdown';

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

  it('parses 1 MiB of Markdown', function () {
    this.timeout(120_000); // correctness, not speed: speed is not asserted in unit tests
    const chunk = '## Section\n\nSome *emphasis*, `code`, a [link](https://example.com) and text.\n\n- one\n- two\n\n';
    const md = chunk.repeat(Math.ceil((1024 * 1024) / chunk.length)).slice(0, 1024 * 1024);
    const nodes = renderMarkdown(md);
    assert.ok(elements(nodes).filter((e) => e.tag === 'h2').length > 10_000);
  });
});
