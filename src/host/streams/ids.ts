import { randomBytes } from 'node:crypto';

/** A fresh stream id: `es_` + 24 hex digits, as the reference host mints them. */
export function mintStreamId(): string {
  return `es_${randomBytes(12).toString('hex')}`;
}
