// The offsets of a JSON text's members, so a finding about `runtime.tools[0].name` can point at
// that member in the editor. VS Code gives extensions no JSON parser; this is the minimal one the
// diagnostics need (objects, arrays, scalars, strict JSON as JSON.parse reads it, BOM tolerated).

export type JsonPath = readonly (string | number)[];

export interface JsonNode {
  type: 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';
  /** Offset of the value's first character and its length, in UTF-16 units of the text. */
  offset: number;
  length: number;
  /** For a member of an object: where its quoted key starts (the member runs from here to the value's end). */
  keyOffset?: number;
  key?: string;
  children?: JsonNode[];
}

/** Parses `text`; undefined when it is not JSON (the caller reports JSON.parse's own message). */
export function parseTree(text: string): JsonNode | undefined {
  const scanned = scan(text);
  return 'root' in scanned ? scanned.root : undefined;
}

/** Where a text that is not JSON stops being JSON (JSON.parse's messages no longer say), or undefined. */
export function syntaxErrorAt(text: string): number | undefined {
  const scanned = scan(text);
  return 'errorAt' in scanned ? Math.min(scanned.errorAt, Math.max(text.length - 1, 0)) : undefined;
}

function scan(text: string): { root: JsonNode } | { errorAt: number } {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
  };
  const fail = (): never => {
    throw new SyntaxError(`unexpected input at ${i}`);
  };
  const str = (): string => {
    const start = i;
    if (text[i] !== '"') fail();
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail();
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): JsonNode => {
    ws();
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const children: JsonNode[] = [];
      ws();
      if (text[i] === '}') i++;
      else
        for (;;) {
          ws();
          const keyOffset = i;
          const key = str();
          ws();
          if (text[i++] !== ':') fail();
          children.push({ ...value(), key, keyOffset });
          ws();
          if (text[i] === ',') i++;
          else if (text[i++] === '}') break;
          else fail();
        }
      return { type: 'object', offset: start, length: i - start, children };
    }
    if (c === '[') {
      i++;
      const children: JsonNode[] = [];
      ws();
      if (text[i] === ']') i++;
      else
        for (;;) {
          children.push(value());
          ws();
          if (text[i] === ',') i++;
          else if (text[i++] === ']') break;
          else fail();
        }
      return { type: 'array', offset: start, length: i - start, children };
    }
    if (c === '"') {
      str();
      return { type: 'string', offset: start, length: i - start };
    }
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 64));
    if (!m) return fail();
    i += m[0].length;
    const type = m[0] === 'null' ? 'null' : m[0] === 'true' || m[0] === 'false' ? 'boolean' : 'number';
    return { type, offset: start, length: i - start };
  };
  try {
    const root = value();
    ws();
    return i === text.length ? { root } : { errorAt: i };
  } catch {
    return { errorAt: i };
  }
}

/** The node at `path` (object keys and array indices), or undefined. The last duplicate key wins, as in JSON.parse. */
export function nodeAt(root: JsonNode, path: JsonPath): JsonNode | undefined {
  let node: JsonNode | undefined = root;
  for (const step of path) {
    if (!node?.children) return undefined;
    node =
      typeof step === 'number'
        ? node.type === 'array'
          ? node.children[step]
          : undefined
        : node.type === 'object'
          ? lastWithKey(node.children, step)
          : undefined;
  }
  return node;
}

function lastWithKey(children: JsonNode[], key: string): JsonNode | undefined {
  for (let i = children.length - 1; i >= 0; i--) if (children[i].key === key) return children[i];
  return undefined;
}

/** The deepest existing node along `path`, and how many steps of it exist. */
export function nearestNode(root: JsonNode, path: JsonPath): { node: JsonNode; depth: number } {
  let best = { node: root, depth: 0 };
  for (let d = 1; d <= path.length; d++) {
    const n = nodeAt(root, path.slice(0, d));
    if (!n) break;
    best = { node: n, depth: d };
  }
  return best;
}

/** Parses a finding's path as the decoder writes it: `runtime.tools[0].name`, `requires[1]`. */
export function parsePath(text: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of text.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  return out;
}
