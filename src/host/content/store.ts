// Per-connection store of externalized content (HOST_SPEC §5): the host mints refs for payloads
// over 64 KiB and serves them back through `host/content/read` in 256 KiB chunks.
import { createHash, randomBytes } from 'node:crypto';
import { LIMITS, ProtocolError } from '../../protocol';
import type { ContentReadParams, ContentReadResult, ExternalizedField } from '../../protocol';
import { EncodedResult, partsFrame, type FrameParts } from '../wire';

/**
 * What an object is held as: its UTF-8 bytes, or, when every character is ASCII, the JSON string
 * itself (its characters are then its bytes one for one). Holding the string spares a copy of up
 * to 8 MiB per payload, which on a small VM costs ~25 ms in fresh-memory page faults alone.
 */
export type StoredContent = Buffer | AsciiText;

/** A string the caller has checked to be all ASCII (`Buffer.byteLength(text) === text.length`). */
export interface AsciiText {
  ascii: string;
}

export interface StoredObject {
  content: StoredContent;
  /** Size in bytes. */
  size: number;
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
   * Stores `content` (held, not copied: the caller never mutates a Buffer) and returns its
   * descriptor for `jsonPointer`; refuses objects over 8 MiB. `sha256` is the digest of its bytes
   * when already known.
   */
  put(jsonPointer: string, content: StoredContent, sha256?: string): ExternalizedField {
    const size = contentSize(content);
    if (size > this.limits.maxObjectBytes) {
      throw new ProtocolError(
        'frame_too_large',
        `content of ${size} bytes exceeds the ${this.limits.maxObjectBytes}-byte object limit`,
      );
    }
    const contentRef = `content_${randomBytes(12).toString('hex')}`;
    sha256 ??= contentSha256(content);
    this.objects.set(contentRef, { content, size, sha256 });
    while (this.objects.size > this.limits.maxObjects) {
      const oldest = this.objects.keys().next().value as string;
      this.objects.delete(oldest);
    }
    return { jsonPointer, contentRef, totalBytes: size, sha256 };
  }

  /** The whole object, or undefined when unknown or evicted. */
  get(contentRef: string): StoredObject | undefined {
    return this.objects.get(contentRef);
  }

  /** Serves `host/content/read`: one chunk from `offset`, `nextOffset` only while more remains. */
  read(params: ContentReadParams): ContentReadResult {
    return this.page(params).result;
  }

  /** `read`, answered as a pre-encoded frame: the base64 text is copied into the frame once. */
  readEncoded(params: ContentReadParams): EncodedResult {
    return new EncodedPage(this.page(params));
  }

  private page(params: ContentReadParams): Page {
    const obj = this.objects.get(params.contentRef);
    if (!obj) throw new ProtocolError('content_ref_expired', 'The referenced content has expired or is unknown.');
    const total = obj.size;
    if (!Number.isInteger(params.offset) || params.offset < 0 || params.offset > total) {
      throw new ProtocolError('content_ref_expired', `offset ${params.offset} is outside 0..${total}`);
    }
    const end = Math.min(total, params.offset + this.limits.chunkBytes);
    const pieces = base64Pieces(obj.content, params.offset, end);
    const result: ContentReadResult = {
      contentRef: params.contentRef,
      offset: params.offset,
      // Joined with `+`: V8 keeps the pieces as they are until someone reads the characters.
      dataBase64: pieces.length === 1 ? pieces[0] : pieces.reduce((a, b) => a + b),
      totalBytes: total,
      sha256: obj.sha256,
      encoding: 'utf8',
    };
    if (end < total) result.nextOffset = end;
    return { result, pieces };
  }

  /** Refs die with the connection. */
  clear(): void {
    this.objects.clear();
  }
}

interface Page {
  result: ContentReadResult;
  /** `result.dataBase64` in pieces of the base64 of at most PIECE_BYTES bytes each. */
  pieces: string[];
}

// A 256 KiB page is 350 KB of base64. As one string it is a V8 "large object": fresh memory from
// the OS for every page, and on this kind of machine (a small VM) touching fresh memory costs more
// than the encoding (~1 ms a page). Pieces of 72 KiB (96 KiB of text, a multiple of 3 bytes so the
// pieces join into exactly the base64 of the whole range) stay under V8's 128 KiB large-object size,
// in memory reused from one page to the next (docs/bench.md measured 48 KiB pieces too).
const PIECE_BYTES = 72 * 1024;
// Where the bytes of an ASCII string's piece are written on their way to base64 or the digest; every
// use is synchronous, so one buffer serves every store.
const scratch = Buffer.allocUnsafe(PIECE_BYTES);

/** Bytes `start..end` (at most PIECE_BYTES) of `content`; for text, a view of the shared scratch. */
function piece(content: StoredContent, start: number, end: number): Buffer {
  if (Buffer.isBuffer(content)) return content.subarray(start, end);
  // slice() of a flat string is a view, not a copy; write() copies its characters as bytes.
  return scratch.subarray(0, scratch.write(content.ascii.slice(start, end), 0, 'latin1'));
}

function base64Pieces(content: StoredContent, start: number, end: number): string[] {
  const pieces: string[] = [];
  for (let at = start; at < end || pieces.length === 0; at += PIECE_BYTES)
    pieces.push(piece(content, at, Math.min(end, at + PIECE_BYTES)).toString('base64'));
  return pieces;
}

export function contentSize(content: StoredContent): number {
  return Buffer.isBuffer(content) ? content.length : content.ascii.length;
}

/** sha256 (hex) of the content's bytes; text is hashed piece by piece, never copied whole. */
export function contentSha256(content: StoredContent): string {
  const hash = createHash('sha256');
  if (Buffer.isBuffer(content)) return hash.update(content).digest('hex');
  for (let at = 0; at < content.ascii.length; at += PIECE_BYTES)
    hash.update(piece(content, at, Math.min(content.ascii.length, at + PIECE_BYTES)));
  return hash.digest('hex');
}

/** The content as text (UTF-8 decoded when held as bytes). */
export function contentText(content: StoredContent): string {
  return Buffer.isBuffer(content) ? content.toString('utf8') : content.ascii;
}

/** One page as JSON with the key order of JSON.stringify(result), built without stringifying the data. */
class EncodedPage extends EncodedResult {
  constructor(private readonly page: Page) {
    super(page.result);
  }

  frame(prefix: string, suffix: string, maxFrameBytes: number): FrameParts {
    const p = this.page.result;
    const head = `${prefix}{"contentRef":${JSON.stringify(p.contentRef)},"offset":${p.offset},"dataBase64":"`;
    const next = p.nextOffset === undefined ? '' : `,"nextOffset":${p.nextOffset}`;
    const tail = `","totalBytes":${p.totalBytes},"sha256":${JSON.stringify(p.sha256)},"encoding":${JSON.stringify(p.encoding)}${next}}${suffix}`;
    return partsFrame(
      [{ text: head }, ...this.page.pieces.map((text) => ({ text, ascii: true })), { text: tail }],
      maxFrameBytes,
    );
  }
}
