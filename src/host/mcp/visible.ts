// Text the host authors or relays as metadata to MCP clients (issue 45 item 8): Claude Code and
// Codex draw tool descriptions, titles and error texts in a terminal, where ESC drives it, C1
// controls are read as ESC by some terminals, and bidi and zero-width characters make text read
// differently from what it is. Each such character is shown visibly instead (`\u001b`, `\u202e`),
// as the CLI's own text output does (src/cli/terminal.ts): the same class of characters.
// A tool result's content is not touched here: it is the tool's answer for the model (docs/cli.md).

// C0 controls, DEL, C1 controls, U+2028/U+2029 and the Unicode format category (Cf: zero-width
// space and joiners, LRM/RLM, the bidi embeddings, overrides and isolates, BOM, tag characters).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu;
// The same without LF and TAB, for descriptions, whose lines are part of the text.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_KEEP_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu;

function shown(ch: string): string {
  const cp = ch.codePointAt(0)!;
  return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`;
}

/** One line of metadata (a title, an error text): every unsafe character, newlines too, shown visibly. */
export function visibleLine(text: string): string {
  return text.replace(UNSAFE, shown);
}

/** Metadata of several lines (a description): newlines and tabs kept, everything else unsafe shown visibly. */
export function visibleLines(text: string): string {
  return text.replace(UNSAFE_KEEP_LINES, shown);
}

/**
 * An input schema as clients draw it: the `description` and `title` strings at every depth made
 * visible; every other member (a `pattern`, an `enum` value, a property name) is left as it is, since
 * it is what the arguments are checked against. Iterative, so a deep schema cannot overflow the stack.
 */
export function visibleSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const root = { ...schema };
  const stack: Record<string, unknown>[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    for (const [k, v] of Object.entries(node)) {
      if ((k === 'description' || k === 'title') && typeof v === 'string') node[k] = visibleLines(v);
      else if (Array.isArray(v)) {
        const copy = v.map((x) => (typeof x === 'object' && x !== null && !Array.isArray(x) ? { ...x } : x));
        node[k] = copy;
        for (const x of copy)
          if (typeof x === 'object' && x !== null && !Array.isArray(x)) stack.push(x as Record<string, unknown>);
      } else if (typeof v === 'object' && v !== null) {
        const copy = { ...(v as Record<string, unknown>) };
        node[k] = copy;
        stack.push(copy);
      }
    }
  }
  return root;
}
