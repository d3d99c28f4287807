// Text shown where characters drive or disguise what is drawn: a terminal (the CLI's text output,
// and MCP clients such as Claude Code and Codex, which draw tool descriptions and our error texts
// in one). ESC drives a terminal, C1 controls are read as ESC by some, a bare newline forges whole
// lines, and the Unicode format characters (zero-width space and joiners, LRM/RLM, the bidi
// embeddings, overrides and isolates, BOM, tag characters) hide or reorder text. Each such
// character is shown visibly instead (`\u001b`, `\u202e`, an astral one as `\u{e0001}`).

// C0 controls, DEL, C1 controls, U+2028/U+2029 and the whole Unicode format category (Cf). The `u`
// flag makes an astral Cf character one match.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu;
// The same without LF and TAB, for text whose lines are part of it (a description, streamed text).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_KEEP_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu;

/** `\u200b`; an astral character as `\u{e0001}` (one visible token per character). */
function shown(ch: string): string {
  const cp = ch.codePointAt(0)!;
  return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`;
}

/** One line: every unsafe character, newlines too, shown visibly. */
export function visibleLine(text: string): string {
  return text.replace(UNSAFE, shown);
}

/** Several lines: newlines and tabs kept, every other unsafe character shown visibly. */
export function visibleLines(text: string): string {
  return text.replace(UNSAFE_KEEP_LINES, shown);
}
