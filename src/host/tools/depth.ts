// How deep a tool call's arguments may nest (issue 45 item 7). JSON.parse reads any depth, but
// JSON.stringify, ajv and most JSON code recurse, and a few thousand levels overflow the stack
// ("Maximum call stack size exceeded"). The host refuses deeper arguments before anything recursive
// sees them, with an iterative walk, so the model gets a clear error instead.

/** Levels of objects and arrays a tool call's arguments may nest: the arguments object is level 1. */
export const MAX_TOOL_ARGUMENT_DEPTH = 64;

/** The level at which `value` first passes `max`, or undefined when it stays within it. */
export function depthPast(value: unknown, max = MAX_TOOL_ARGUMENT_DEPTH): number | undefined {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, level] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (level > max) return level;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (typeof child === 'object' && child !== null) stack.push([child, level + 1]);
  }
  return undefined;
}
