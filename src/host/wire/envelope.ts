// Lexical checks on an inbound frame's text that the parsed value cannot answer: JSON.parse turns
// the id `1e2` into the integer 100, but the reference host (Go, ids decoded as int64) refuses any
// id written with a fraction or an exponent as an invalid request (issue 11 item 6).

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * The raw text of the top-level member `key` of the JSON object in `text` (the first occurrence),
 * or undefined. Stops as soon as the member is found: `id` is near the front of every frame we
 * see, so the hot path reads a few dozen characters.
 */
export function topLevelMemberText(text: string, key: string): string | undefined {
  const n = text.length;
  let depth = 0;
  let expectKey = false;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === BACKSLASH) j += 2;
        else if (d === QUOTE) break;
        else j++;
      }
      if (depth === 1 && expectKey) {
        expectKey = false;
        const raw = text.slice(i + 1, j);
        let k = j + 1;
        while (k < n && isSpace(text.charCodeAt(k))) k++;
        k++; // the colon
        while (k < n && isSpace(text.charCodeAt(k))) k++;
        if (raw === key || (raw.includes('\\') && JSON.parse(`"${raw}"`) === key)) {
          let end = k;
          while (end < n && !isSpace(text.charCodeAt(end)) && text[end] !== ',' && text[end] !== '}') end++;
          return text.slice(k, end);
        }
        i = k;
        continue;
      }
      i = j + 1;
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      expectKey = c === 0x7b && depth === 1;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    } else if (c === 0x2c /* , */ && depth === 1) {
      expectKey = true;
    }
    i++;
  }
  return undefined;
}

/** Whether a numeric id was written as a plain integer (`12`, `-3`), not `1e2` or `1.0`. */
export function isIntegerIdText(text: string | undefined): boolean {
  return text === undefined || /^-?\d+$/.test(text);
}

/**
 * An integer id past 2^53 as the peer wrote it (`9223372036854775807`): JSON.parse rounds it, HOST_SPEC
 * §1 wants it echoed byte for byte, so the answer carries this text. Only such ids take this path.
 */
export class RawIntegerId {
  constructor(readonly text: string) {}
}

/** The stand-in the answer is serialised with, replaced by the raw id text (the id member comes first). */
const ID_MARK = '\u0000reasonix-raw-id\u0000';
const ID_MARK_JSON = JSON.stringify(ID_MARK);

/** `{"jsonrpc":"2.0","id":<raw>,…rest}` as JSON text, the id exactly as it arrived. */
export function withRawId(id: RawIntegerId, rest: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id: ID_MARK, ...rest }).replace(ID_MARK_JSON, id.text);
}
