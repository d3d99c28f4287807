// Reading a file the host reads on a sidecar's or a package's behalf (reasonix-plugin.json,
// plugin-packages.json): only a regular file, never more than the cap plus one byte, whatever it
// claims to be. The size a file reports is no bound (a symlink to /dev/zero or /dev/urandom reports
// 0 and never ends) and opening a FIFO blocks until a writer comes, so the file is opened without
// blocking, judged by what the open descriptor is, and read into one buffer of cap + 1 bytes.
import { constants, promises as fs } from 'node:fs';

export type BoundedRead =
  | { ok: true; text: string }
  | {
      ok: false;
      /** The errno code when the file could not be opened or read (ENOENT: it does not exist). */
      code?: string;
      /** What is wrong, after the file's path: "is a FIFO, not a regular file; it is not read". */
      why: string;
    };

// O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer (POSIX;
// Windows has no FIFOs in the file system and no such flag, so it is 0 there).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function kind(st: import('node:fs').Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isDirectory()) return 'a directory';
  return 'not a file';
}

const human = (bytes: number): string =>
  bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`;

/**
 * The UTF-8 text of `file` when it is a regular file (a symlink is judged by what it points at) of
 * at most `cap` bytes; otherwise why not. Never throws, never blocks on a FIFO, never holds more
 * than cap + 1 bytes.
 */
export async function readBounded(
  file: string,
  cap: number,
  /** How the bytes become text (default UTF-8); `{ok: false, why}` refuses the file. */
  decode: (bytes: Buffer) => { ok: true; text: string } | { ok: false; why: string } = (b) => ({
    ok: true,
    text: b.toString('utf8'),
  }),
): Promise<BoundedRead> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, OPEN_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, code, why: code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? String(err)})` };
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return { ok: false, why: `is ${kind(st)}, not a regular file; it is not read` };
    const over = `over the ${cap} bytes${cap >= 1024 ? ` (${human(cap)})` : ''} it may have; it is not read`;
    if (st.size > cap) return { ok: false, why: `is ${st.size} bytes, ${over}` };
    // One buffer of cap + 1 bytes: a file that grows past its reported size stops here too.
    const buf = Buffer.allocUnsafe(cap + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, length, buf.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > cap) return { ok: false, why: `is ${over}` };
    }
    const decoded = decode(buf.subarray(0, length));
    return decoded.ok ? { ok: true, text: decoded.text } : { ok: false, why: decoded.why };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, code, why: `cannot be read (${code ?? String(err)})` };
  } finally {
    await handle.close().catch(() => undefined);
  }
}
