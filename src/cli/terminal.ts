// Sidecar-sourced text on a terminal. Text that is already redacted can still drive the terminal:
// ESC[2J clears it, OSC 0 retitles the window, OSC 52 writes the clipboard, and a bare newline
// forges whole output lines ("plugin other: running"). Invisible format characters hide or
// reorder text without driving anything: U+200B splits a word a reader sees whole, a BOM or a
// word joiner sits unseen inside a name, the bidi controls make text read differently from what
// it is. In text mode every such character is shown visibly instead (`\u001b`, `\u200b`), so one
// sidecar string is always exactly one visible span on one line. `--json` keeps the value but
// escapes the same characters (JSON.stringify already escapes C0; we escape the rest).

import { visibleLine, visibleLines } from '../host/visible';

// The characters shown visibly are one class for every terminal the host writes to
// (src/host/visible.ts, which also serves what MCP clients draw). After JSON.stringify, C0 is
// already escaped: what is left of that class.
const UNSAFE_JSON = /[\u007f-\u009f\u2028\u2029\p{Cf}]/gu;

const hex4 = (n: number): string => `\\u${n.toString(16).padStart(4, '0')}`;

/** JSON's own escape: an astral character as its surrogate pair, so the line stays valid JSON. */
function visibleJson(ch: string): string {
  let out = '';
  for (let i = 0; i < ch.length; i++) out += hex4(ch.charCodeAt(i));
  return out;
}

/** One sidecar string as one safe span of a text line. */
export function term(text: unknown): string {
  return visibleLine(String(text ?? ''));
}

/**
 * Streamed model text, whose newlines and tabs are the content itself: everything else that
 * could drive the terminal or hide text is still shown visibly.
 */
export function termKeepLines(text: string): string {
  return visibleLines(text);
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
