// Part of `npm run fuzz` (issue 45 item 3): the wire of `reasonix-host mcp`, a real process on real
// pipes, fed random lines as no SDK client would write them — not JSON, non-object params, ids past
// 2^53, fractional ids, batches mixing all of these, now and then a line past the 8 MiB cap — cut
// at random byte positions into separate writes, between valid tool calls. Every line that owes an
// answer must get exactly its documented one (by id, as written), every valid call its right result,
// the server must never stop or print a trace, and it must exit 0 when stdin closes. Then runs where
// the client closes the server's stdout mid-session: each must exit 0 quietly, leaving no process.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pluginFolderV2 } from '../support/plugins';
import { Random } from './random';

const CLI = path.resolve(__dirname, '../../src/cli.js');
const TOOLS_JS = path.resolve(__dirname, '../../../test/fixtures/tools/tools.js');

export interface McpWireFigures {
  lines: number;
  batches: number;
  oversizeLines: number;
  /** Missing, extra or wrong answers: must be 0. */
  wrongAnswers: number;
  /** The first few wrong answers, to replay with the seed. */
  wrongExamples: string[];
  /** The server exited early, exited non-zero or printed a trace: must be 0. */
  serverFailures: number;
  closedStdoutRuns: number;
  /** A closed-stdout run that did not exit 0 quietly within 15 s: must be 0. */
  closedStdoutFailures: number;
}

/** What one line must be answered with: by the id text as written, the code (or a result). */
type Expect = { id: string; code: number } | { id: string; result: string };

interface Case {
  line: string;
  /** Answers owed, in a batch array when `batch`. */
  owed: Expect[];
  batch?: boolean;
}

const call = (idText: string, text: string) =>
  `{"jsonrpc":"2.0","id":${idText},"method":"tools/call","params":{"name":"ext__fz__echo","arguments":{"t":${JSON.stringify(text)}}}}`;

function randomCase(rng: Random, n: number): Case {
  const id = String(n);
  const text = rng.pick(['a', 'é中😀', ' "\\ ', '\u2028x']);
  switch (rng.int(0, 8)) {
    case 0:
      return { line: rng.pick(['not json', '{"broken": ', '}{', "{'a':1}"]), owed: [{ id: 'null', code: -32700 }] };
    case 1:
      return {
        line: `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${rng.pick(['"x"', '5', 'true', 'null'])}}`,
        owed: [{ id, code: -32600 }],
      };
    case 2:
      return { line: `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":[1]}`, owed: [{ id, code: -32602 }] };
    case 3: {
      const big = `${rng.pick(['', '-'])}9${String(n).padStart(20, '0')}`;
      return { line: call(big, text), owed: [{ id: big, result: JSON.stringify({ t: text }) }] };
    }
    case 4:
      return { line: `{"jsonrpc":"2.0","id":${n}.5,"method":"tools/list"}`, owed: [{ id: 'null', code: -32600 }] };
    case 5: {
      const a = `${n}000000`; // apart from every other id of the run (those are at most `lines`, or 21 digits)
      const b = `"s${n}"`;
      return {
        line: `[${call(a, text)},{"jsonrpc":"2.0","method":"notifications/progress","params":{}},7,${call(b, 'b')}]`,
        owed: [
          { id: a, result: JSON.stringify({ t: text }) },
          { id: 'null', code: -32600 },
          { id: b, result: JSON.stringify({ t: 'b' }) },
        ],
        batch: true,
      };
    }
    case 6:
      return { line: '[]', owed: [{ id: 'null', code: -32600 }] };
    case 7:
      return { line: `{"jsonrpc":"1.0","id":${id},"method":"tools/list"}`, owed: [{ id, code: -32600 }] };
    default:
      return { line: call(id, text), owed: [{ id, result: JSON.stringify({ t: text }) }] };
  }
}

/** The answers in one output line, each as [id text, code or result text]. */
function answersOf(line: string): [string, number | string][] {
  const value = JSON.parse(line.replace(/"id":(-?\d{16,})/g, '"id":"#$1"')) as unknown;
  const one = (a: { id: unknown; error?: { code: number }; result?: { content?: { text: string }[] } }) =>
    [
      typeof a.id === 'string' && a.id.startsWith('#') ? a.id.slice(1) : JSON.stringify(a.id),
      a.error ? a.error.code : (a.result?.content?.[0]?.text ?? ''),
    ] as [string, number | string];
  return Array.isArray(value) ? value.map(one) : [one(value as never)];
}

function start(plugin: string, workspace: string): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [CLI, 'mcp', '--plugin', plugin, '--workspace', workspace], { stdio: 'pipe' });
}

async function write(child: ChildProcessWithoutNullStreams, rng: Random, text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  while (at < bytes.length) {
    const end = rng.chance(0.5) ? bytes.length : Math.min(bytes.length, at + rng.int(1, 64));
    if (!child.stdin.write(bytes.subarray(at, end))) await new Promise((r) => child.stdin.once('drain', r));
    at = end;
    if (rng.chance(0.2)) await new Promise((r) => setImmediate(r));
  }
}

export async function fuzzMcpWire(opts: {
  seed: number;
  lines: number;
  closedStdoutRuns: number;
}): Promise<McpWireFigures> {
  const rng = new Random(opts.seed);
  const f: McpWireFigures = {
    lines: 0,
    batches: 0,
    oversizeLines: 0,
    wrongAnswers: 0,
    wrongExamples: [],
    serverFailures: 0,
    closedStdoutRuns: 0,
    closedStdoutFailures: 0,
  };
  const dir = mkdtempSync(path.join(tmpdir(), 'reasonix-fuzz-mcp-'));
  try {
    const plugin = pluginFolderV2(path.join(dir, 'fz'), 'fz', {
      command: process.execPath,
      args: [TOOLS_JS],
      capabilities: ['tools'],
      tools: [{ name: 'echo', description: 'echoes', inputSchema: { type: 'object' } }],
    });
    const child = start(plugin, dir);
    let out = '';
    let stderr = '';
    const lines: string[] = [];
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      const parts = (out + d).split('\n');
      out = parts.pop() ?? '';
      lines.push(...parts.filter(Boolean));
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let exited = false;
    const exit = new Promise<number | null>((r) =>
      child.once('exit', (code) => {
        exited = true;
        r(code);
      }),
    );
    await write(
      child,
      rng,
      '{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
    );
    const owed = new Map<string, number | string>();
    for (let n = 1; n <= opts.lines; n++) {
      if (rng.chance(0.002)) {
        // Past the cap: skipped as it streams in, answered with its id.
        const id = `${n}`;
        await write(child, rng, `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"x":"`);
        const chunk = 'y'.repeat(1024 * 1024);
        for (let i = 0; i < 9; i++) await write(child, rng, chunk);
        await write(child, rng, '"}}\n');
        owed.set(id, -32600);
        f.oversizeLines++;
        continue;
      }
      const c = randomCase(rng, n);
      f.lines++;
      if (c.batch) f.batches++;
      for (const e of c.owed) {
        const key = e.id === 'null' ? `null#${n}#${owed.size}` : e.id;
        owed.set(key, 'code' in e ? e.code : e.result);
      }
      await write(child, rng, c.line + '\n');
    }
    // Wait for every answer, then compare.
    const deadline = Date.now() + 60_000;
    // Answers only: the init answer and notifications (tools/list_changed) are not counted.
    const answerLines = () => lines.filter((l) => !l.includes('"id":"init"') && !/^\{"method"|"method":/.test(l));
    const count = () => answerLines().reduce((k, l) => k + answersOf(l).length, 0);
    while (count() < owed.size && Date.now() < deadline && !exited) await new Promise((r) => setTimeout(r, 50));
    const got = new Map<string, number | string>();
    let nulls = 0;
    for (const l of answerLines())
      for (const [id, v] of answersOf(l)) got.set(id === 'null' ? `null#${nulls++}` : id, v);
    // Answers with id null cannot be told apart by id: the codes must match as a multiset.
    const codes = (m: Map<string, number | string>) =>
      [...m.entries()]
        .filter(([k]) => k.startsWith('null#'))
        .map(([, v]) => String(v))
        .sort()
        .join(',');
    const wrong = (what: string) => {
      f.wrongAnswers++;
      if (f.wrongExamples.length < 5) f.wrongExamples.push(what);
    };
    if (codes(owed) !== codes(got)) wrong(`id null: owed [${codes(owed)}], got [${codes(got)}]`);
    for (const [k, v] of owed)
      if (!k.startsWith('null#') && got.get(k) !== v) wrong(`id ${k}: owed ${v}, got ${got.get(k)}`);
    for (const [k, v] of got) if (!k.startsWith('null#') && !owed.has(k)) wrong(`id ${k}: not owed, got ${v}`);
    if (exited) f.serverFailures++;
    child.stdin.end();
    const code = await Promise.race([exit, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 15_000))]);
    if (code !== 0) {
      f.serverFailures++;
      child.kill('SIGKILL');
    }
    if (/\n\s+at .+:\d+:\d+|Error:/.test(stderr)) f.serverFailures++;

    for (let i = 0; i < opts.closedStdoutRuns; i++) {
      f.closedStdoutRuns++;
      const c = start(plugin, dir);
      let err = '';
      c.stderr.on('data', (d: Buffer) => (err += d.toString()));
      c.stdin.on('error', () => undefined);
      const done = new Promise<number | null>((r) => c.once('exit', (code) => r(code)));
      await new Promise((r) => setTimeout(r, rng.int(0, 400)));
      c.stdout.destroy();
      for (let k = 0; k < 5; k++) c.stdin.write(call(String(k + 1), 'x') + '\n');
      const code = await Promise.race([done, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 15_000))]);
      if (code !== 0 || /\n\s+at .+:\d+:\d+|EPIPE/.test(err)) {
        f.closedStdoutFailures++;
        c.kill('SIGKILL');
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return f;
}
