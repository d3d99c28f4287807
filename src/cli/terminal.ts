// Sidecar-sourced text on a terminal. Text that is already redacted can still drive the terminal:
// ESC[2J clears it, OSC 0 retitles the window, OSC 52 writes the clipboard, and a bare newline
// forges whole output lines ("plugin other: running"). Invisible format characters hide or
// reorder text without driving anything: U+200B splits a word a reader sees whole, a BOM or a
// word joiner sits unseen inside a name, the bidi controls make text read differently from what
// it is. In text mode every such character is shown visibly instead (`\u001b`, `\u200b`), so one
// sidecar string is always exactly one visible span on one line. `--json` keeps the value but
// escapes the same characters (JSON.stringify already escapes C0; we escape the rest).

// The characters shown visibly, as one class: C0 controls, DEL, C1 controls, the Unicode
// line/paragraph separators and the whole Unicode format category (Cf: soft hyphen, zero-width
// space/joiners, LRM/RLM, bidi embeddings/overrides/isolates, word joiner and the invisible
// operators, BOM, interlinear annotations, tag characters). The `u` flag makes astral Cf
// characters (U+E0001, the tags) one match each.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_KEEP_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu;
// After JSON.stringify, C0 is already escaped: what is left of the class.
const UNSAFE_JSON = /[\u007f-\u009f\u2028\u2029\p{Cf}]/gu;

const hex4 = (n: number): string => `\\u${n.toString(16).padStart(4, '0')}`;

/** `\u200b`; an astral character as `\u{e0001}` (one visible token per character). */
function visible(ch: string): string {
  const cp = ch.codePointAt(0)!;
  return cp > 0xffff ? `\\u{${cp.toString(16)}}` : hex4(cp);
}

/** JSON's own escape: an astral character as its surrogate pair, so the line stays valid JSON. */
function visibleJson(ch: string): string {
  let out = '';
  for (let i = 0; i < ch.length; i++) out += hex4(ch.charCodeAt(i));
  return out;
}

/** One sidecar string as one safe span of a text line. */
export function term(text: unknown): string {
  return String(text ?? '').replace(UNSAFE, visible);
}

/**
 * Streamed model text, whose newlines and tabs are the content itself: everything else that
 * could drive the terminal or hide text is still shown visibly.
 */
export function termKeepLines(text: string): string {
  return text.replace(UNSAFE_KEEP_LINES, visible);
}

/** Several lines of sidecar text (a card's markdown), each escaped, continuation lines indented. */
export function termBlock(text: string, indent: string): string {
  return text
    .split('\n')
    .map((l) => indent + term(l))
    .join('\n');
}

/** JSON for a JSON line: JSON.stringify escapes C0 but leaves DEL, C1, U+2028/9 and Cf raw. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE_JSON, visibleJson);
}
