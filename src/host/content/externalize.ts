// Content-ref externalization of intercept/event payloads (HOST_SPEC §5): outbound, a payload
// whose JSON is over 64 KiB travels as `payload:null` plus a descriptor into the connection's
// store; inbound, a `replace` may point back at an object in that store instead of inlining it.
import { LIMITS, ProtocolError, type ExternalizedField } from '../../protocol';
import { contentSha256, contentSize, contentText, type ContentStore, type StoredContent } from './store';

/**
 * A payload serialized once, so a dispatch to many sidecars does not re-stringify it. Its UTF-8
 * bytes and their digest are made at most once too, and only when it is externalized: every
 * store of the dispatch holds the same (never mutated) buffer.
 */
export class SerializedPayload {
  private utf8Bytes: Buffer | undefined;
  private asciiOnly: boolean | undefined;
  private digest: string | undefined;

  constructor(
    readonly value: unknown,
    readonly json: string,
  ) {}

  /** UTF-8 size of `json`. */
  get bytes(): number {
    return this.utf8Bytes?.length ?? (this.isAscii() ? this.json.length : Buffer.byteLength(this.json, 'utf8'));
  }

  /** Whether the UTF-8 size exceeds `limit`; the string length alone decides outside 1×–3× of it. */
  exceeds(limit: number): boolean {
    if (this.json.length > limit) return true; // UTF-8 never takes fewer bytes than UTF-16 units
    if (this.json.length * 3 <= limit) return false; // nor more than 3 per unit
    return this.bytes > limit;
  }

  /** Whether every character is ASCII: then the UTF-8 size equals the length, and only then. */
  isAscii(): boolean {
    return (this.asciiOnly ??= Buffer.byteLength(this.json, 'utf8') === this.json.length);
  }

  utf8(): Buffer {
    // Node 20 encodes UTF-8 character by character (~200 ms for 8 MiB here); an ASCII string's
    // latin1 copy is the same bytes, ~10× faster.
    return (this.utf8Bytes ??= Buffer.from(this.json, this.isAscii() ? 'latin1' : 'utf8'));
  }

  /**
   * What a content store holds for it: the JSON string itself when it is ASCII (no copy), else its
   * UTF-8 bytes. Every store of a dispatch holds the same, never mutated, value.
   */
  content(): StoredContent {
    return this.isAscii() ? { ascii: this.json } : this.utf8();
  }

  sha256(): string {
    return (this.digest ??= contentSha256(this.content()));
  }
}

export function serializePayload(value: unknown): SerializedPayload {
  return new SerializedPayload(value, JSON.stringify(value ?? null));
}

/** The `payload`/`externalized` pair of an outbound intercept or event. */
export interface OutboundPayload {
  payload: unknown;
  externalized?: ExternalizedField[];
}

/**
 * Inline when the JSON is at most 65,536 bytes; otherwise stored under `/payload`. An object over
 * 8 MiB cannot be sent at all: the store refuses it with `frame_too_large`.
 */
export function externalizePayload(
  store: ContentStore,
  payload: SerializedPayload,
  fieldBytes: number = LIMITS.externalizeFieldBytes,
): OutboundPayload {
  if (!payload.exceeds(fieldBytes)) return { payload: payload.value };
  // Over the object cap the store refuses it before anything is hashed.
  const field = store.put(
    '/payload',
    payload.content(),
    payload.bytes <= LIMITS.contentRefObjectBytes ? payload.sha256() : undefined,
  );
  return { payload: null, externalized: [field] };
}

/** The replacement-bearing members of an InterceptResult. */
export interface ReplacementCarrier {
  replacement?: unknown;
  externalized?: ExternalizedField[];
}

/**
 * The replacement a sidecar answered with, read back from our store when externalized; `undefined`
 * when it sent none. Throws ProtocolError: inline value and envelope together, more than one
 * descriptor or a pointer other than `/replacement` → protocol_error; an object over 8 MiB →
 * frame_too_large; a ref we do not hold → content_ref_expired; length or sha256 mismatch, or
 * bytes that are not JSON → protocol_error.
 */
export function resolveReplacement(store: ContentStore, result: ReplacementCarrier): unknown {
  const envelope = result.externalized;
  if (envelope === undefined || envelope.length === 0) return result.replacement;
  if (result.replacement !== undefined && result.replacement !== null) {
    throw new ProtocolError('protocol_error', 'replacement is both inline and externalized');
  }
  if (envelope.length > 1)
    throw new ProtocolError('protocol_error', `expected one externalized descriptor, got ${envelope.length}`);
  const field = envelope[0];
  if (field.jsonPointer !== '/replacement') {
    throw new ProtocolError(
      'protocol_error',
      `externalized pointer must be /replacement, got ${JSON.stringify(field.jsonPointer)}`,
    );
  }
  if (field.totalBytes > LIMITS.contentRefObjectBytes) {
    throw new ProtocolError(
      'frame_too_large',
      `externalized replacement of ${field.totalBytes} bytes exceeds ${LIMITS.contentRefObjectBytes}`,
    );
  }
  const stored = store.get(field.contentRef);
  if (!stored) throw new ProtocolError('content_ref_expired', `content ref ${field.contentRef} is unknown or expired`);
  if (contentSize(stored.content) !== field.totalBytes) {
    throw new ProtocolError(
      'protocol_error',
      `externalized replacement is ${contentSize(stored.content)} bytes, descriptor says ${field.totalBytes}`,
    );
  }
  // Hash what we actually hold rather than trusting the stored digest alone.
  if (contentSha256(stored.content) !== field.sha256)
    throw new ProtocolError('protocol_error', 'externalized replacement sha256 mismatch');
  try {
    return JSON.parse(contentText(stored.content));
  } catch {
    throw new ProtocolError('protocol_error', 'externalized replacement is not valid JSON');
  }
}
