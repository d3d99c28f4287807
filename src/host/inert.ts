// Extension text made inert for the VS Code surfaces that turn text into links. Notifications and
// the quick input's prompt read `[label](command:…)` (also https: and file:) as a link run with
// commands allowed, and Markdown renders `[label](…)`, `[label]: …` definitions and `<scheme:…>`
// autolinks (issue 38 item 2): one click ran a command with arguments a sidecar chose. A zero-width
// space is put where each such construct needs two characters to touch, so nothing looks different
// and nothing is a link. The webview's own Markdown (cards) is not this: it allow-lists its links.
const ZWSP = '\u200b';

/** `text` with every link construct broken: `](`, `]:` and `<scheme:` get a zero-width space inside. */
export function inert(text: string): string {
  if (!text.includes(']') && !text.includes('<')) return text;
  return text.replace(/\](?=[(:])/g, `]${ZWSP}`).replace(/<(?=[A-Za-z][A-Za-z0-9+.-]*:)/g, `<${ZWSP}`);
}
