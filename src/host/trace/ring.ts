// A protocol trace of one sidecar (issue 42): every frame both ways, redacted, in a bounded ring,
// each with its direction, method, id, the frame it answers or is answered by, the latency
// between the two, and its size. Fed by the connection's frame tap (src/host/wire); read by the
// faces (Show Protocol Trace, copy as NDJSON) and replayed by `reasonix-host replay`.
import { redact } from '../redact';

export type TraceDirection = 'in' | 'out';

export interface TraceEntry {
  /** 1, 2, … in the order the host saw the frames. */
  seq: number;
  /** Wall-clock time (ms since the epoch). */
  at: number;
  /** `out`: host → sidecar; `in`: sidecar → host. */
  dir: TraceDirection;
  kind: 'request' | 'notification' | 'response' | 'error' | 'invalid';
  method?: string;
  id?: string | number | null;
  /** The frame's size on the wire, in bytes (newline included). */
  bytes: number;
  /** The frame, redacted: a JSON value, or the text of a line that is not JSON (`invalid`). */
  frame: unknown;
  /** True when the frame was longer than the entry keeps; `frame` is then its text's beginning. */
  truncated?: boolean;
  /** A request: its answer's seq; an answer: its request's seq. */
  pairedSeq?: number;
  /** On an answer: milliseconds since its request. */
  latencyMs?: number;
  /** `extension/intercept` and `extension/event`: the hook point. */
  hookPoint?: string;
  /** `host/ui/publish` / `host/ui/request`: `<kind>:<surfaceId>`. */
  surface?: string;
}

export interface TraceRingOptions {
  /** At most this many frames (default 2,000). */
  maxEntries?: number;
  /** At most this many bytes of frames (default 8 MiB); the oldest go first. */
  maxBytes?: number;
  /** A frame longer than this keeps only its beginning (default 256 KiB). */
  maxFrameChars?: number;
  now?: () => number;
}

type Listener = (e: TraceEntry) => void;

export class TraceRing {
  private entries: TraceEntry[] = [];
  private bytes = 0;
  private seq = 0;
  /** Open requests per direction and id → the request's entry. */
  private readonly open = new Map<string, TraceEntry>();
  private readonly listeners = new Set<Listener>();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly maxFrameChars: number;
  private readonly now: () => number;

  constructor(opts: TraceRingOptions = {}) {
    this.maxEntries = opts.maxEntries ?? 2_000;
    this.maxBytes = opts.maxBytes ?? 8 * 1024 * 1024;
    this.maxFrameChars = opts.maxFrameChars ?? 256 * 1024;
    this.now = opts.now ?? Date.now;
  }

  /** The connection's frame tap (what ValidatedConnection's `frameTap` returns). */
  readonly tap = (dir: TraceDirection, text: string, bytes?: number): void => {
    this.record(dir, text, bytes);
  };

  /** `bytes` defaults to the text's UTF-8 length plus its newline (an outbound frame may come with it). */
  record(dir: TraceDirection, text: string, bytes?: number): TraceEntry {
    if (text.endsWith('\n')) text = text.slice(0, -1);
    const e = this.describe(dir, text, bytes ?? Buffer.byteLength(text) + 1);
    this.entries.push(e);
    this.bytes += e.bytes;
    while (this.entries.length > this.maxEntries || (this.bytes > this.maxBytes && this.entries.length > 1)) {
      const gone = this.entries.shift()!;
      this.bytes -= gone.bytes;
    }
    for (const l of this.listeners) l(e);
    return e;
  }

  snapshot(): TraceEntry[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries = [];
    this.bytes = 0;
    this.open.clear();
  }

  onEntry(l: Listener): { dispose(): void } {
    this.listeners.add(l);
    return { dispose: () => this.listeners.delete(l) };
  }

  private describe(dir: TraceDirection, text: string, bytes: number): TraceEntry {
    const at = this.now();
    const seq = ++this.seq;
    const clean = redact(text);
    let frame: unknown;
    let truncated: boolean | undefined;
    if (clean.length > this.maxFrameChars) {
      frame = clean.slice(0, this.maxFrameChars);
      truncated = true;
    } else {
      try {
        frame = JSON.parse(clean);
      } catch {
        return { seq, at, dir, kind: 'invalid', bytes, frame: clean };
      }
    }
    const msg = (truncated ? peek(clean) : frame) as Record<string, unknown> | undefined;
    if (!msg || typeof msg !== 'object' || Array.isArray(msg))
      return { seq, at, dir, kind: 'invalid', bytes, frame, ...(truncated ? { truncated } : {}) };
    const method = typeof msg.method === 'string' ? msg.method : undefined;
    const id = msg.id as TraceEntry['id'];
    const hasId = id !== undefined && id !== null;
    const kind: TraceEntry['kind'] = method
      ? hasId
        ? 'request'
        : 'notification'
      : 'error' in msg
        ? 'error'
        : 'response';
    const e: TraceEntry = { seq, at, dir, kind, bytes, frame };
    if (truncated) e.truncated = true;
    if (method) e.method = method;
    if (id !== undefined) e.id = id;
    const params = msg.params as Record<string, unknown> | undefined;
    if (params && typeof params === 'object') {
      if ((method === 'extension/intercept' || method === 'extension/event') && typeof params.event === 'string')
        e.hookPoint = params.event;
      if (method?.startsWith('host/ui/') && typeof params.surfaceId === 'string')
        e.surface = `${String(params.kind ?? '')}:${params.surfaceId}`;
    }
    // Requests and answers pair by id within a direction: our requests are answered by `in`
    // frames, the sidecar's by `out` frames.
    if (kind === 'request') this.open.set(`${dir}#${String(id)}`, e);
    else if ((kind === 'response' || kind === 'error') && hasId) {
      const key = `${dir === 'in' ? 'out' : 'in'}#${String(id)}`;
      const req = this.open.get(key);
      if (req) {
        this.open.delete(key);
        req.pairedSeq = seq;
        e.pairedSeq = req.seq;
        e.method = req.method;
        e.latencyMs = at - req.at;
        if (req.hookPoint) e.hookPoint = req.hookPoint;
        if (req.surface) e.surface = req.surface;
      }
    }
    return e;
  }
}

/** The envelope members of a frame too long to keep whole (method and id are near its start). */
function peek(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const method = /"method"\s*:\s*"([^"\\]{1,200})"/.exec(text);
  if (method) out.method = method[1];
  const id = /"id"\s*:\s*("(?:[^"\\]{0,200})"|-?\d{1,20}|null)/.exec(text);
  if (id) out.id = JSON.parse(id[1]);
  if (/"error"\s*:/.test(text.slice(0, 4096)) && !method) out.error = true;
  return out;
}

export interface TraceFilter {
  method?: string;
  surface?: string;
  hookPoint?: string;
}

/** The entries a filter keeps (each given member must match exactly; method also by prefix ending in `/`). */
export function filterTrace(entries: readonly TraceEntry[], f: TraceFilter): TraceEntry[] {
  return entries.filter(
    (e) =>
      (!f.method || e.method === f.method || (f.method.endsWith('/') && !!e.method?.startsWith(f.method))) &&
      (!f.surface || e.surface === f.surface) &&
      (!f.hookPoint || e.hookPoint === f.hookPoint),
  );
}

/** One JSON object a line: the form `reasonix-host replay` reads. */
export function traceToNdjson(entries: readonly TraceEntry[]): string {
  return entries.map((e) => JSON.stringify(e)).join('\n') + (entries.length ? '\n' : '');
}

/** Reads NDJSON written by traceToNdjson; a line that is not such an entry throws naming its line. */
export function traceFromNdjson(text: string): TraceEntry[] {
  const out: TraceEntry[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let e: TraceEntry;
    try {
      e = JSON.parse(line) as TraceEntry;
    } catch (err) {
      throw new Error(`line ${i + 1} is not JSON: ${(err as Error).message}`);
    }
    if (!e || (e.dir !== 'in' && e.dir !== 'out') || typeof e.seq !== 'number' || !('frame' in e))
      throw new Error(`line ${i + 1} is not a trace entry (needs seq, dir "in"/"out" and frame)`);
    out.push(e);
  });
  return out;
}
