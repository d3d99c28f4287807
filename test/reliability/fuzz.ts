// The framing fuzzer (issue 12 §8): answers and junk lines written to the host's reader cut at
// random byte positions — inside multi-byte UTF-8 characters, between CR and LF, one byte at a
// time — plus oversize frames. Every answer must reach its call intact, every junk line must get
// exactly its documented answer (-32700 not JSON, -32600 not a JSON-RPC message), an oversize
// frame must end the connection with frame_too_large and fail what was pending, and nothing may
// throw. The in-process part controls the chunk boundaries exactly (a pipe would merge them);
// `fuzzRealSidecar` runs the same kind of traffic through a real child process and its pipe.
import { PassThrough } from 'node:stream';
import * as path from 'node:path';
import { ValidatedConnection } from '../../src/host/wire';
import { Sidecar } from '../../src/host/sidecar';
import { ProtocolError } from '../../src/protocol';
import { readLines } from '../fixtures/lib/ndjson';
import { scriptPlugin } from '../support/plugins';
import { cut } from '../unit/wire/streams';
import { Random } from './random';

export interface FuzzFigures {
  seed: number;
  chunkings: number;
  framesTried: number;
  junkLines: number;
  oversizeFrames: number;
  hostCrashes: number;
  wrongResults: number;
}

const ALPHABET = [
  'a',
  'Z',
  '7',
  ' ',
  '"',
  '\\',
  '\n',
  '\t',
  'é',
  'ß',
  '中',
  '文',
  '😀',
  '🧪',
  '\u2028',
  '\u0000',
  '}',
  '{',
  ',',
  ':',
];
const JUNK = [
  'not json at all',
  'console.log: ready ✔',
  '42',
  '[]',
  '{"x":1}',
  '"just a string"',
  'null',
  '{"jsonrpc":"2.0"}',
  '{"jsonrpc":"1.0","id":5,"result":{}}',
  '{"broken": ',
];
// What the host answers to each kind of junk line; blank lines get nothing.
const PARSE_ERROR = -32700;
const INVALID = -32600;

function junkAnswer(line: string): number | undefined {
  if (!line.trim()) return undefined;
  try {
    JSON.parse(line);
  } catch {
    return PARSE_ERROR;
  }
  return INVALID;
}

function randomText(rnd: Random): string {
  let s = '';
  const n = rnd.int(0, 40);
  for (let i = 0; i < n; i++) s += rnd.pick(ALPHABET);
  return s;
}

/** Cut points in `bytes`: a few random ones, half of them inside multi-byte characters. */
function cuts(rnd: Random, bytes: Buffer): number[] {
  if (rnd.chance(0.02)) return Array.from({ length: bytes.length - 1 }, (_, i) => i + 1); // byte by byte
  const inside: number[] = [];
  for (let i = 1; i < bytes.length; i++)
    if ((bytes[i] & 0xc0) === 0x80 || (bytes[i] === 0x0a && bytes[i - 1] === 0x0d)) inside.push(i);
  const out = new Set<number>();
  const n = rnd.int(0, 12);
  for (let i = 0; i < n; i++)
    out.add(inside.length && rnd.chance(0.5) ? rnd.pick(inside) : rnd.int(1, bytes.length - 1));
  return [...out].sort((a, b) => a - b);
}

class Rig {
  readonly toHost = new PassThrough();
  readonly fromHost = new PassThrough();
  readonly conn: ValidatedConnection;
  readonly answers: number[] = [];
  nextId = 1;
  ended: { reason: string } | undefined;
  constructor(maxFrameBytes: number) {
    readLines((line) => {
      const f = JSON.parse(line) as { id?: unknown; method?: string; error?: { code: number } };
      if (f.method === undefined && f.error) this.answers.push(f.error.code);
    }, this.fromHost);
    this.conn = new ValidatedConnection({
      input: this.toHost,
      output: this.fromHost,
      maxFrameBytes,
      handlers: { handler: () => undefined },
    });
    this.conn.markReady();
    this.conn.onEnd((e) => (this.ended = e));
  }
  dispose(): void {
    this.conn.dispose();
  }
}

/** Fuzzes the reader and the connection gate in-process with exact chunk boundaries. */
export async function fuzzFraming(opts: { seed: number; chunkings: number }): Promise<FuzzFigures> {
  const rnd = new Random(opts.seed);
  const maxFrameBytes = 4096;
  const fig: FuzzFigures = {
    seed: opts.seed,
    chunkings: 0,
    framesTried: 0,
    junkLines: 0,
    oversizeFrames: 0,
    hostCrashes: 0,
    wrongResults: 0,
  };
  let rig = new Rig(maxFrameBytes);
  const tick = () => new Promise<void>((r) => setImmediate(r));
  try {
    while (fig.chunkings < opts.chunkings) {
      fig.chunkings++;
      if (rnd.chance(0.002)) {
        // An oversize frame, itself chunked: the connection must end with frame_too_large and
        // fail the call that was waiting; a fresh connection takes over.
        const pending = rig.conn.request('extension/ui/action', { actionId: 'a', sessionId: 's', generation: 1 });
        rig.nextId++;
        const big = Buffer.from(
          `{"jsonrpc":"2.0","id":1,"result":{"accepted":true,"message":"${'x'.repeat(maxFrameBytes)}"}}\n`,
        );
        for (const c of cut(big, cuts(rnd, big))) rig.toHost.write(c);
        fig.framesTried++;
        fig.oversizeFrames++;
        const failed = await pending.then(
          () => false,
          (e: unknown) => e instanceof ProtocolError && e.reason === 'provider_interrupted',
        );
        if (!failed || rig.ended?.reason !== 'frame_too_large') fig.wrongResults++;
        rig.dispose();
        rig = new Rig(maxFrameBytes);
        continue;
      }
      const calls = rnd.int(1, 4);
      const expected = new Map<number, string>();
      const pending: Promise<unknown>[] = [];
      for (let i = 0; i < calls; i++) {
        const id = rig.nextId++;
        expected.set(id, randomText(rnd));
        pending.push(rig.conn.request('extension/ui/action', { actionId: 'a', sessionId: 's', generation: 1 }));
      }
      const lines: string[] = [];
      const wantAnswers: number[] = [];
      for (const [id, message] of rnd.shuffle([...expected.entries()])) {
        if (rnd.chance(0.3)) {
          const junk = rnd.chance(0.2)
            ? rnd.pick(['', '   ', '\t'])
            : rnd.pick(JUNK) + (rnd.chance(0.3) ? randomText(rnd).replace(/[\n\u2028]/g, '') : '');
          const answer = junkAnswer(junk.replace(/\n/g, ''));
          lines.push(junk.replace(/\n/g, ''));
          if (answer !== undefined) wantAnswers.push(answer);
          fig.junkLines++;
        }
        lines.push(JSON.stringify({ jsonrpc: '2.0', id, result: { accepted: true, message } }));
      }
      fig.framesTried += lines.length;
      const eol = rnd.chance(0.2) ? '\r\n' : '\n';
      const bytes = Buffer.from(lines.map((l) => l + eol).join(''), 'utf8');
      const before = rig.answers.length;
      try {
        for (const c of cut(bytes, cuts(rnd, bytes))) rig.toHost.write(c);
      } catch {
        fig.hostCrashes++;
      }
      const results = await Promise.allSettled(pending);
      let n = 0;
      for (const [, message] of expected) {
        const r = results[n++];
        if (r.status !== 'fulfilled' || (r.value as { message?: string }).message !== message) fig.wrongResults++;
      }
      await tick(); // the host's answers to the junk lines
      const got = rig.answers.slice(before);
      if (got.length !== wantAnswers.length || got.some((c, i) => c !== wantAnswers[i])) fig.wrongResults++;
    }
  } finally {
    rig.dispose();
  }
  return fig;
}

/**
 * The same traffic through a real child: a sidecar that echoes `args.text` in its answer to
 * extension/ui/action, writing the answer (with junk lines before it) cut at random byte positions
 * in separate writes, so the real pipe and the real reader see every kind of split.
 */
export async function fuzzRealSidecar(opts: { seed: number; calls: number; fixtures: string }): Promise<FuzzFigures> {
  const rnd = new Random(opts.seed);
  const fig: FuzzFigures = {
    seed: opts.seed,
    chunkings: 0,
    framesTried: 0,
    junkLines: 0,
    oversizeFrames: 0,
    hostCrashes: 0,
    wrongResults: 0,
  };
  const file = path.join(opts.fixtures, 'chunky.js');
  const plugin = scriptPlugin('chunky', file, { root: opts.fixtures, args: [String(opts.seed)] });
  const sidecar = new Sidecar({
    plugin,
    session: { sessionId: 's', workspaceRoot: opts.fixtures, generation: 1 },
    uiHost: 'headless',
  });
  await sidecar.start();
  try {
    for (let i = 0; i < opts.calls; i++) {
      const batch = rnd.int(1, 4);
      const texts = Array.from({ length: batch }, () => randomText(rnd));
      const results = await Promise.allSettled(
        texts.map((text) =>
          sidecar.request<{ accepted: boolean; message?: string }>(
            'extension/ui/action',
            { actionId: 'echo', sessionId: 's', generation: 1, args: { text } },
            { timeoutMs: 10_000 },
          ),
        ),
      );
      fig.chunkings += batch;
      fig.framesTried += batch * 2; // each answer comes with one junk line
      fig.junkLines += batch;
      results.forEach((r, k) => {
        if (r.status !== 'fulfilled' || r.value.message !== texts[k]) fig.wrongResults++;
      });
      if (sidecar.state !== 'running') {
        fig.hostCrashes++;
        break;
      }
    }
  } finally {
    await sidecar.stop();
  }
  return fig;
}
