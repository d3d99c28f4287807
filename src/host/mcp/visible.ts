// Text the host authors or relays as metadata to MCP clients (issue 45 item 8): Claude Code and
// Codex draw tool descriptions, titles and error texts in a terminal, where ESC drives it, C1
// controls are read as ESC by some terminals, and bidi and zero-width characters make text read
// differently from what it is. Each such character is shown visibly instead (`\u001b`, `\u202e`),
// as the CLI's own text output does: one class of characters for both (src/host/visible.ts).
// A tool result's content is not touched here: it is the tool's answer for the model (docs/cli.md).

import { visibleLine, visibleLines } from '../visible';

export { visibleLine, visibleLines };

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
