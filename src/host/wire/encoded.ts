// A handler result that arrives already serialised: `host/content/read` answers carry up to
// 256 KiB as base64, and stringifying that text again, then copying the frame into a Buffer, cost
// two more passes over it per page. The handler hands the JSON's parts straight to the writer
// instead; the connection still validates `value`, which the JSON must be exactly.
import { ProtocolError } from '../../protocol';
import { FrameParts, type Frame } from './writer';

export abstract class EncodedResult {
  constructor(readonly value: object) {}

  /**
   * The frame `prefix + JSON.stringify(value) + suffix`, as one Buffer or in parts. Throws
   * `frame_too_large` when it would exceed `maxFrameBytes`.
   */
  abstract frame(prefix: string, suffix: string, maxFrameBytes: number): Frame;
}

/**
 * A frame from text parts, handed to the writer part by part (see FrameParts): `ascii` parts (base64,
 * hex; at most 256 KiB each) go as they are, the others as their UTF-8 bytes.
 */
export function partsFrame(parts: readonly { text: string; ascii?: boolean }[], maxFrameBytes: number): FrameParts {
  let size = 0;
  const out = parts.map((p) => {
    const part = p.ascii ? p.text : Buffer.from(p.text, 'utf8');
    size += part.length;
    return part;
  });
  if (size > maxFrameBytes)
    throw new ProtocolError(
      'frame_too_large',
      `outbound frame of ${size} bytes exceeds the ${maxFrameBytes}-byte limit`,
    );
  return new FrameParts(out, size);
}
