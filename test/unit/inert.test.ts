// Extension text handed to VS Code surfaces that make links (issue 38 item 2): notifications and the
// quick input's prompt parse `[label](href)` with VS Code's linked-text rule (its regex, read in the
// shipped workbench of VS Code 1.139, is the oracle here), and Markdown renders inline links,
// reference definitions and autolinks (markdown-it, CommonMark, is the oracle). After `inert` none of
// them finds a link, and the text reads the same once the zero-width spaces are taken out.
import { strict as assert } from 'node:assert';
import MarkdownIt from 'markdown-it';
import { inert } from '../../src/host/inert';

/** VS Code's linkedText rule (vs/base/common/linkedText.ts): what notifications and quick input link. */
const LINKED_TEXT = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const md = new MarkdownIt('default', { html: false, linkify: false });
const links = (text: string) =>
  md
    .parseInline(text, {})
    .flatMap((t) => t.children ?? [])
    .filter((t) => t.type === 'link_open').length +
  md.parse(text, {}).filter((t) => t.type === 'inline' && (t.children ?? []).some((c) => c.type === 'link_open'))
    .length;

const HOSTILE = [
  '[Restart now](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%20~%5Cn%22%7D)',
  'see [docs](https://example.com) and [file](file:///etc/passwd)',
  '[x](command:reasonix.runAction?{"plugin":"a","action":"b"} "a title")',
  '[ref]\n\n[ref]: command:workbench.action.closeWindow',
  'an autolink <command:workbench.action.closeWindow> and <https://example.com>',
  'nested [[x](command:a)](command:b)',
];

describe('extension text is inert wherever VS Code makes links (issue 38)', () => {
  for (const text of HOSTILE) {
    it(`no link survives: ${JSON.stringify(text).slice(0, 60)}`, () => {
      const out = inert(text);
      assert.equal(
        [...text.matchAll(LINKED_TEXT)].length > 0 || links(text) > 0,
        true,
        'the oracle sees a link before',
      );
      assert.deepEqual([...out.matchAll(LINKED_TEXT)], [], 'VS Code linked text finds none');
      assert.equal(links(out), 0, 'Markdown renders none');
      assert.equal(out.replaceAll('\u200b', ''), text, 'it reads the same');
    });
  }

  it('text without link syntax is returned as it is (the same string)', () => {
    for (const text of ['plain', 'a [bracket] and (parens)', 'x < y and a: b', '']) assert.equal(inert(text), text);
  });
});
