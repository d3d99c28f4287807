// Per-connection store of externalized content (HOST_SPEC §5): the host mints refs for payloads
// over 64 KiB and serves them back through `host/content/read` in 256 KiB chunks.
import { createHash, randomBytes } from 'node:crypto';
import { LIMITS, ProtocolError } from '../../protocol';
import type { ContentReadParams, ContentReadResult, ExternalizedField } from '../../protocol';

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

  /** Stores `bytes` and returns its descriptor for `jsonPointer`; refuses objects over 8 MiB. */
  put(jsonPointer: string, bytes: Buffer): ExternalizedField {
    if (bytes.length > this.limits.maxObjectBytes) {
      throw new ProtocolError('frame_too_large', `content of ${bytes.length} bytes exceeds the ${this.limits.maxObjectBytes}-byte object limit`);
    }
    const contentRef = `content_${randomBytes(12).toString('hex')}`;
    const sha256 = createHash('sha256').update(bytes).digest('hex');
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
    const result: ContentReadResult = {
      contentRef: params.contentRef,
      offset: params.offset,
      dataBase64: obj.bytes.subarray(params.offset, end).toString('base64'),
      totalBytes: total,
      sha256: obj.sha256,
      encoding: 'utf8',
    };
    if (end < total) result.nextOffset = end;
    return result;
  }

  /** Refs die with the connection. */
  clear(): void {
    this.objects.clear();
  }
}
