// Preview View… (issue 42): a v2 view payload from a JSON file, decoded by the same strict decoder
// a sidecar's `host/ui/publish` of kind `view` goes through (src/host/ui), so what previews is what
// the host would draw, and what it refuses is refused here with the decoder's own sentence, placed
// on the member it is about. The file holds the payload (`{slot?, anchor?, body}`) or a whole
// publish's params (`{surfaceId, kind: "view", payload, …}`).
import type { ViewPayload } from '../../protocol';
import { decodePublishPayload } from '../ui';
import { nearestNode, parsePath, parseTree, syntaxErrorAt, type JsonPath } from './jsonTree';

export interface ViewFinding {
  message: string;
  /** Where in the text (UTF-16 offsets): the member the finding is about, or where JSON stops. */
  offset: number;
  length: number;
  path: JsonPath;
}

export type ViewPreview = { ok: true; payload: ViewPayload; surfaceId?: string } | { ok: false; finding: ViewFinding };

const PREFIX = 'invalid view surface payload: ';
/** The member path a view decoder sentence starts with: `body[0].children[2].label`, `slot`. */
const AT = /^((?:body|slot|anchor)(?:\[\d+\]|\.(?:children|kind|value|key|label|tone|progress|actionId))*)/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function placed(text: string, message: string, path: JsonPath): ViewPreview {
  const root = parseTree(text);
  const near = root ? nearestNode(root, path) : undefined;
  const node = near?.node;
  // A member's finding covers its key too, so an unknown member is marked where it is named.
  const start = node?.keyOffset ?? node?.offset ?? 0;
  const end = node ? node.offset + node.length : 0;
  return { ok: false, finding: { message, offset: start, length: Math.max(end - start, 1), path } };
}

/** Decodes `text` as a view payload (or a publish of one). */
export function previewView(text: string): ViewPreview {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    const at = syntaxErrorAt(text) ?? 0;
    return { ok: false, finding: { message: `not JSON: ${(err as Error).message}`, offset: at, length: 1, path: [] } };
  }
  let payload = raw;
  let base: JsonPath = [];
  let surfaceId: string | undefined;
  if (isRecord(raw) && 'payload' in raw && 'kind' in raw) {
    if (raw.kind !== 'view')
      return placed(text, `this publish is of kind ${JSON.stringify(raw.kind)}: only a "view" previews here`, ['kind']);
    payload = raw.payload;
    base = ['payload'];
    if (typeof raw.surfaceId === 'string') surfaceId = raw.surfaceId;
  }
  try {
    const decoded = decodePublishPayload('view', payload);
    return { ok: true, payload: decoded.payload as ViewPayload, surfaceId };
  } catch (err) {
    const message = (err as Error).message.startsWith(PREFIX)
      ? (err as Error).message.slice(PREFIX.length)
      : (err as Error).message;
    const path = [...base, ...parsePath(AT.exec(message)?.[1] ?? '')];
    const unknown = /unknown member '([^']+)'/.exec(message);
    if (unknown) path.push(unknown[1]);
    return placed(text, message, path);
  }
}
