// How much of a tool result the model reads (HOST_SPEC_V2 §12 "size", our policy). A result must
// fit the 8 MiB frame and neither member is externalizable, so a tool can send far more text than a
// model context should take; past the cap the content is cut (never inside a surrogate pair) and a
// note says so, so the model knows it did not see everything.

/** Characters of `content` the model receives: about 25,000 tokens. */
export const MAX_TOOL_CONTENT_CHARS = 100_000;

export interface ModelContent {
  content: string;
  /** Set when the content was cut: how long it was, in characters. */
  truncatedFrom?: number;
}

/** The note appended to a cut result; it names the host so the model does not blame the tool. */
export function truncationNote(shown: number, total: number): string {
  return `\n\n[truncated by the Reasonix host: the tool returned ${total} characters; the first ${shown} are shown]`;
}

export function contentForModel(content: string, max = MAX_TOOL_CONTENT_CHARS): ModelContent {
  if (content.length <= max) return { content };
  let end = max;
  const last = content.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // a high surrogate whose pair would be cut off
  return { content: content.slice(0, end) + truncationNote(end, content.length), truncatedFrom: content.length };
}
