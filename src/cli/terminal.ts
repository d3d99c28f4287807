// Sidecar-sourced text on a terminal. Text that is already redacted can still drive the terminal:
// ESC[2J clears it, OSC 0 retitles the window, OSC 52 writes the clipboard, and a bare newline
// forges whole output lines ("plugin other: running"). In text mode every such character is shown
// visibly instead (`\u001b`), so one sidecar string is always exactly one visible span on one
// line. `--json` needs none of this: JSON.stringify already escapes C0, and we escape the rest.

// C0 controls, DEL, C1 controls, the Unicode line/paragraph separators and the bidi overrides
// that can make text read differently from what it is.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_KEEP_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function visible(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** One sidecar string as one safe span of a text line. */
export function term(text: unknown): string {
  return String(text ?? '').replace(UNSAFE, visible);
}

/**
 * Streamed model text, whose newlines and tabs are the content itself: everything else that
 * could drive the terminal is still shown visibly.
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

/** JSON for a JSON line: JSON.stringify escapes C0 but leaves DEL, C1 and U+2028/9 raw. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, visible);
}
