// Strict decoding of a protocol v2 `view` payload (HOST_SPEC_V2 §7.3): a tree of host primitives
// with the reference's limits (200 nodes, 8 levels, UTF-8 byte caps) and structural rules, then
// redaction of every sidecar string at every depth. Written as code so that every refusal says
// what to change ("more than 200 nodes", "body[0].children[3]: a text node takes no children").
import {
  ProtocolError,
  VIEW_LIMITS,
  VIEW_NODE_KINDS,
  VIEW_TONES,
  type ViewNode,
  type ViewNodeKind,
  type ViewPayload,
  type ViewTone,
} from '../../protocol';
import { redact } from '../redact';

const NODE_MEMBERS = ['kind', 'value', 'key', 'label', 'tone', 'progress', 'actionId', 'children'];
const PAYLOAD_MEMBERS = ['slot', 'anchor', 'body'];
const CONTAINERS: ReadonlySet<ViewNodeKind> = new Set(['row', 'stack']);

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

function fail(message: string): never {
  throw new ProtocolError('invalid_params', `invalid view surface payload: ${message}`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Counts nodes as it goes so a huge tree is refused after at most 201 nodes, not after walking it all. */
class Walk {
  nodes = 0;
}

function text(
  node: Record<string, unknown>,
  member: string,
  at: string,
  max: number,
  required: boolean,
): string | undefined {
  const v = node[member];
  if (v === undefined) {
    if (required) fail(`${at}: a ${String(node.kind)} node needs a non-empty "${member}"`);
    return undefined;
  }
  if (typeof v !== 'string') fail(`${at}.${member} must be a string`);
  if (required && v === '') fail(`${at}: a ${String(node.kind)} node needs a non-empty "${member}"`);
  if (bytes(v) > max) fail(`${at}.${member} is ${bytes(v)} bytes, over the ${max} bytes a view allows`);
  return v;
}

function decodeNode(raw: unknown, at: string, depth: number, walk: Walk): ViewNode {
  if (++walk.nodes > VIEW_LIMITS.nodes)
    fail(`more than ${VIEW_LIMITS.nodes} nodes (count every nested node); split the view or show less`);
  if (depth > VIEW_LIMITS.depth)
    fail(`${at} is nested ${depth} levels deep, more than the ${VIEW_LIMITS.depth} a view allows`);
  if (!isRecord(raw)) fail(`${at} must be an object`);
  for (const k of Object.keys(raw))
    if (!NODE_MEMBERS.includes(k)) fail(`${at}: unknown member '${k}' (known: ${NODE_MEMBERS.join(', ')})`);
  const kind = raw.kind;
  if (typeof kind !== 'string' || !(VIEW_NODE_KINDS as readonly string[]).includes(kind))
    fail(`${at}.kind ${JSON.stringify(kind)} is not a view node kind (known: ${VIEW_NODE_KINDS.join(', ')})`);
  const k = kind as ViewNodeKind;
  const node: ViewNode = { kind: k };
  const tone = text(raw, 'tone', at, VIEW_LIMITS.label, k === 'pip');
  // A tone outside the six renders as none (our policy): only the six are kept, as meaning.
  if (tone !== undefined && (VIEW_TONES as readonly string[]).includes(tone)) node.tone = tone as ViewTone;
  const children = raw.children;
  if (CONTAINERS.has(k)) {
    if (!Array.isArray(children) || children.length === 0) fail(`${at}: a ${k} node needs at least one child`);
    node.children = children.map((c, i) => decodeNode(c, `${at}.children[${i}]`, depth + 1, walk));
    return node;
  }
  if (children !== undefined) fail(`${at}: a ${k} node takes no children`);
  switch (k) {
    case 'text':
    case 'markdown':
      node.value = redact(text(raw, 'value', at, VIEW_LIMITS.value, true)!);
      break;
    case 'kv': {
      node.key = redact(text(raw, 'key', at, VIEW_LIMITS.label, true)!);
      const value = text(raw, 'value', at, VIEW_LIMITS.value, false);
      if (value !== undefined) node.value = redact(value);
      break;
    }
    case 'meter': {
      const p = raw.progress;
      if (typeof p !== 'number' || !Number.isFinite(p) || p < 0 || p > 1)
        fail(`${at}: a meter node needs a "progress" between 0 and 1`);
      node.progress = p;
      const label = text(raw, 'label', at, VIEW_LIMITS.label, false);
      if (label !== undefined) node.label = redact(label);
      break;
    }
    case 'button':
      node.actionId = text(raw, 'actionId', at, VIEW_LIMITS.label, true);
      node.label = redact(text(raw, 'label', at, VIEW_LIMITS.label, true)!);
      break;
    default: // pip (its tone is read above), divider: nothing else
      break;
  }
  // Members a kind does not take are accepted and ignored, as the reference's validator does.
  return node;
}

/** Decodes and redacts a view payload; throws ProtocolError(invalid_params) on any deviation. */
export function decodeViewPayload(raw: unknown): ViewPayload {
  if (!isRecord(raw)) fail('the payload must be an object {slot?, anchor?, body}');
  for (const k of Object.keys(raw))
    if (!PAYLOAD_MEMBERS.includes(k)) fail(`unknown member '${k}' (known: ${PAYLOAD_MEMBERS.join(', ')})`);
  const out: ViewPayload = { body: [] };
  if (raw.slot !== undefined) {
    if (typeof raw.slot !== 'string' || raw.slot === '') fail('slot must be a non-empty string');
    if (bytes(raw.slot) > VIEW_LIMITS.slot)
      fail(`slot is ${bytes(raw.slot)} bytes, over the ${VIEW_LIMITS.slot} a view allows`);
    out.slot = raw.slot;
  }
  if (raw.anchor !== undefined) {
    if (out.slot !== undefined) fail('a view takes a slot or an anchor, not both');
    if (typeof raw.anchor !== 'string' || !/^tool:.+/s.test(raw.anchor)) fail('anchor must be "tool:<callId>"');
    if (bytes(raw.anchor) > VIEW_LIMITS.anchor)
      fail(`anchor is ${bytes(raw.anchor)} bytes, over the ${VIEW_LIMITS.anchor} a view allows`);
    out.anchor = raw.anchor;
  }
  if (!Array.isArray(raw.body) || raw.body.length === 0) fail('body must be a non-empty array of nodes');
  const walk = new Walk();
  out.body = raw.body.map((n, i) => decodeNode(n, `body[${i}]`, 1, walk));
  return out;
}
