// The text of a reasonix-plugin.json from its bytes, read as the real Reasonix (1.38.11) reads it
// (measured with its `plugin install`, issue 45 item 6): UTF-8 with or without a byte order mark,
// UTF-16 little- or big-endian with a BOM or without one (a JSON text starts with an ASCII
// character, so its first two bytes tell the byte order), and GBK (the Chinese Windows code page)
// when the bytes are not UTF-8. Anything else is refused, naming what was found: UTF-32, or bytes
// that are neither UTF-8 nor GBK. Reasonix reads those last ones as GBK anyway and hands the
// model U+FFFD mojibake ("café" in Latin-1 becomes "caf\uFFFD"); we never decode with a
// replacement character, so a model or an MCP client never sees one that the file did not hold.

import { TextDecoder } from 'node:util';

export type ManifestText = { ok: true; text: string; encoding: string } | { ok: false; why: string };

const hex = (b: number) => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`;

function decoder(encoding: string): TextDecoder | undefined {
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
  } catch {
    return undefined; // a Node built without full ICU has no GBK (official builds have it)
  }
}

/** The first byte that is not valid UTF-8 (its offset), or -1. */
function firstBadUtf8(buf: Buffer): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    const n = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (n < 0 || i + n >= buf.length) return i; // not a lead byte, or cut short at the end
    for (let k = 1; k <= n; k++) if ((buf[i + k] & 0xc0) !== 0x80) return i;
    // Overlong 3/4-byte forms, surrogates and code points past U+10FFFF.
    const c1 = buf[i + 1];
    if (
      (b === 0xe0 && c1 < 0xa0) ||
      (b === 0xed && c1 > 0x9f) ||
      (b === 0xf0 && c1 < 0x90) ||
      (b === 0xf4 && c1 > 0x8f)
    )
      return i;
    i += n + 1;
  }
  return -1;
}

export function decodeManifestBytes(buf: Buffer): ManifestText {
  const [b0, b1, b2, b3] = [buf[0], buf[1], buf[2], buf[3]];
  if (b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0)
    return { ok: false, why: 'is UTF-32LE (byte order mark FF FE 00 00); save it as UTF-8' };
  if (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff)
    return { ok: false, why: 'is UTF-32BE (byte order mark 00 00 FE FF); save it as UTF-8' };
  if (buf.length >= 4 && b0 !== 0 && b1 === 0 && b2 === 0 && b3 === 0)
    return { ok: false, why: 'looks like UTF-32LE (three NUL bytes after the first); save it as UTF-8' };
  if (buf.length >= 4 && b0 === 0 && b1 === 0 && b2 === 0 && b3 !== 0)
    return { ok: false, why: 'looks like UTF-32BE (three NUL bytes before the first character); save it as UTF-8' };
  if (b0 === 0xef && b1 === 0xbb && buf[2] === 0xbf) return utf8(buf.subarray(3), 'UTF-8 with a byte order mark');
  if (b0 === 0xff && b1 === 0xfe) return utf16(buf.subarray(2), 'utf-16le', 'UTF-16LE with a byte order mark');
  if (b0 === 0xfe && b1 === 0xff) return utf16(buf.subarray(2), 'utf-16be', 'UTF-16BE with a byte order mark');
  if (buf.length >= 2 && b0 !== 0 && b1 === 0) return utf16(buf, 'utf-16le', 'UTF-16LE');
  if (buf.length >= 2 && b0 === 0 && b1 !== 0) return utf16(buf, 'utf-16be', 'UTF-16BE');
  return utf8(buf, 'UTF-8');
}

function utf8(buf: Buffer, encoding: string): ManifestText {
  const bad = firstBadUtf8(buf);
  if (bad < 0) return { ok: true, text: buf.toString('utf8'), encoding };
  // Not UTF-8: Reasonix then reads it as GBK, and so do we when every byte is valid GBK.
  const gbk = decoder('gbk');
  if (gbk) {
    try {
      return { ok: true, text: gbk.decode(buf), encoding: 'GBK' };
    } catch {
      // neither
    }
  }
  return {
    ok: false,
    why: `is not UTF-8 (byte ${hex(buf[bad])} at offset ${bad}) ${gbk ? 'nor GBK' : '(GBK is not available in this Node)'}; save it as UTF-8`,
  };
}

function utf16(buf: Buffer, label: 'utf-16le' | 'utf-16be', encoding: string): ManifestText {
  const d = decoder(label);
  if (buf.length % 2 === 0 && d) {
    try {
      return { ok: true, text: d.decode(buf), encoding };
    } catch {
      // an unpaired surrogate
    }
  }
  return {
    ok: false,
    why: `is ${encoding} but not valid ${encoding} (odd length or an unpaired surrogate); save it as UTF-8`,
  };
}
