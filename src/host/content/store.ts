// Per-connection store of externalized content (HOST_SPEC §5): the host mints refs for payloads
// over 64 KiB and serves them back through `host/content/read` in 256 KiB chunks.
import { createHash, randomBytes } from 'node:crypto';
import { LIMITS, ProtocolError } from '../../protocol';
import type { ContentReadParams, ContentReadResult, ExternalizedField } from '../../protocol';
import { EncodedResult, joinFrame } from '../wire';

interface StoredObject {
  bytes: Buffer;
  sha256: string;
}

export interface ContentStoreLimits {
  maxObjects: number;
  maxObjectBytes: number;
  chunkBytes: number;
}

export const DEFAULT_CONTENT_LIMITS: ContentStoreLimits = {
  maxObjects: 64,
  maxObjectBytes: LIMITS.contentRefObjectBytes,
  chunkBytes: LIMITS.contentRefChunkBytes,
};

export class ContentStore {
  // Map keeps insertion order: the first key is the oldest object, evicted at the cap.
  private readonly objects = new Map<string, StoredObject>();
  private readonly limits: ContentStoreLimits;

  constructor(limits: Partial<ContentStoreLimits> = {}) {
    this.limits = { ...DEFAULT_CONTENT_LIMITS, ...limits };
  }

  get size(): number {
    return this.objects.size;
  }

  /**
   * Stores `bytes` (held, not copied: the caller never mutates them) and returns its descriptor for
   * `jsonPointer`; refuses objects over 8 MiB. `sha256` is the bytes' digest when already known.
   */
  put(jsonPointer: string, bytes: Buffer, sha256?: string): ExternalizedField {
    if (bytes.length > this.limits.maxObjectBytes) {
      throw new ProtocolError('frame_too_large', `content of ${bytes.length} bytes exceeds the ${this.limits.maxObjectBytes}-byte object limit`);
    }
    const contentRef = `content_${randomBytes(12).toString('hex')}`;
    sha256 ??= createHash('sha256').update(bytes).digest('hex');
    this.objects.set(contentRef, { bytes, sha256 });
    while (this.objects.size > this.limits.maxObjects) {
      const oldest = this.objects.keys().next().value as string;
      this.objects.delete(oldest);
    }
    return { jsonPointer, contentRef, totalBytes: bytes.length, sha256 };
  }

  /** The whole object, or undefined when unknown or evicted. */
  get(contentRef: string): { bytes: Buffer; sha256: string } | undefined {
    return this.objects.get(contentRef);
  }

  /** Serves `host/content/read`: one chunk from `offset`, `nextOffset` only while more remains. */
  read(params: ContentReadParams): ContentReadResult {
    const obj = this.objects.get(params.contentRef);
    if (!obj) throw new ProtocolError('content_ref_expired', 'The referenced content has expired or is unknown.');
    const total = obj.bytes.length;
    if (!Number.isInteger(params.offset) || params.offset < 0 || params.offset > total) {
      throw new ProtocolError('content_ref_expired', `offset ${params.offset} is outside 0..${total}`);
    }
    const end = Math.min(total, params.offset + this.limits.chunkBytes);
    // base64 straight from the stored buffer: toString(…, start, end) makes no intermediate slice.
    const result: ContentReadResult = {
      contentRef: params.contentRef,
      offset: params.offset,
      dataBase64: obj.bytes.toString('base64', params.offset, end),
      totalBytes: total,
      sha256: obj.sha256,
      encoding: 'utf8',
    };
    if (end < total) result.nextOffset = end;
    return result;
  }

  /** `read`, answered as a pre-encoded frame: the base64 text is copied into the frame once. */
  readEncoded(params: ContentReadParams): EncodedResult {
    return new EncodedPage(this.read(params));
  }

  /** Refs die with the connection. */
  clear(): void {
    this.objects.clear();
  }
}

/** One page as JSON with the key order of JSON.stringify(result), built without stringifying the data. */
class EncodedPage extends EncodedResult {
  constructor(private readonly page: ContentReadResult) {
    super(page);
  }

  frame(prefix: string, suffix: string, maxFrameBytes: number): Buffer {
    const p = this.page;
    const head = `${prefix}{"contentRef":${JSON.stringify(p.contentRef)},"offset":${p.offset},"dataBase64":"`;
    const next = p.nextOffset === undefined ? '' : `,"nextOffset":${p.nextOffset}`;
    const tail = `","totalBytes":${p.totalBytes},"sha256":${JSON.stringify(p.sha256)},"encoding":${JSON.stringify(p.encoding)}${next}}${suffix}`;
    return joinFrame([{ text: head }, { text: p.dataBase64, ascii: true }, { text: tail }], maxFrameBytes);
  }
}
