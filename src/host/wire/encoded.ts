// A handler result that arrives already serialised: `host/content/read` answers carry up to
// 256 KiB as base64, and stringifying that text again, then copying the frame into a Buffer, cost
// two more passes over it per page. The handler writes the JSON straight into the frame's one
// buffer instead; the connection still validates `value`, which the JSON must be exactly.
import { ProtocolError } from '../../protocol';

export abstract class EncodedResult {
  constructor(readonly value: object) {}

  /**
   * The frame `prefix + JSON.stringify(value) + suffix` as one Buffer. Throws `frame_too_large`
   * when it would exceed `maxFrameBytes`.
   */
  abstract frame(prefix: string, suffix: string, maxFrameBytes: number): Buffer;
}

/** Builds a frame from text parts; `ascii` parts (base64, hex) are copied byte for byte. */
export function joinFrame(parts: readonly { text: string; ascii?: boolean }[], maxFrameBytes: number): Buffer {
  let size = 0;
  for (const p of parts) size += p.ascii ? p.text.length : Buffer.byteLength(p.text, 'utf8');
  if (size > maxFrameBytes) throw new ProtocolError('frame_too_large', `outbound frame of ${size} bytes exceeds the ${maxFrameBytes}-byte limit`);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const p of parts) at += out.write(p.text, at, p.ascii ? 'latin1' : 'utf8');
  return out;
}
