// Where an intercept round trip spends its time, step by step, for the host path and its floor
// (docs/bench.md, "Issue 27"). Every process marks its socket traffic on the same clock
// (bench/lib/stdioTrace.ts): this one around each call, each child from a preload, so one round
// trip splits into
//   toWrite    the call → its frame's write starts (host JS before the bytes go)
//   write      the write itself (the syscall, which also wakes the reader)
//   toChild    that write starts → the child's 'data' fires (the child's wake-up and read)
//   child      the child's 'data' → its answer's write starts (the child's JS)
//   toParent   that write starts → this process's 'data' fires (our wake-up and read)
//   toResume   our 'data' → the caller resumed (host JS after the bytes came)
// Contenders alternate in blocks as in bench/intercept.ts. The floors are bench/lib/raw.ts.
//   node out/bench/interceptTrace.js [round trips per contender, default 2000]
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createDispatcher, interceptClientFor } from '../src/host/intercepts';
import type { Sidecar } from '../src/host/sidecar';
import { ToolCaller, toolClientFor } from '../src/host/tools';
import { BENCH_SIDECAR, benchPlugin, startSidecar } from './lib/host';
import { RawPeer } from './lib/raw';
import { installStdioTrace, parseMarks, type StdioMarks } from './lib/stdioTrace';

const STEPS = ['toWrite', 'write', 'toChild', 'child', 'toParent', 'toResume', 'total'] as const;
type Step = (typeof STEPS)[number];

interface Trip {
  start: bigint;
  end: bigint;
  kinds: string[];
  times: bigint[];
}

interface Contender {
  name: string;
  /** The child that answers it. */
  pid: number;
  run(): Promise<unknown>;
  trips: Trip[];
}

const payload = { text: 'x'.repeat(200 - '{"text":""}'.length) };
const us = (a: bigint, b: bigint) => Number(b - a) / 1e3;

/** The first mark of `kind` at or after `from` in the child's marks (they are in time order). */
function next(marks: StdioMarks, kind: string, from: bigint, at: { i: number }): bigint | undefined {
  while (at.i < marks.times.length && marks.times[at.i] < from) at.i++;
  for (let i = at.i; i < marks.times.length; i++) if (marks.kinds[i] === kind) return marks.times[i];
  return undefined;
}

function steps(trips: Trip[], child: StdioMarks): Record<Step, number>[] {
  const at = { i: 0 };
  const rows: Record<Step, number>[] = [];
  for (const t of trips) {
    const write = t.times[t.kinds.indexOf('write')];
    const wrote = t.times[t.kinds.indexOf('wrote')];
    const read = t.times[t.kinds.lastIndexOf('read')];
    if (write === undefined || read === undefined) continue;
    const childRead = next(child, 'read', write, at);
    const childWrite = childRead === undefined ? undefined : next(child, 'write', childRead, at);
    if (childRead === undefined || childWrite === undefined || childWrite > read) continue;
    rows.push({
      toWrite: us(t.start, write),
      write: us(write, wrote),
      toChild: us(write, childRead),
      child: us(childRead, childWrite),
      toParent: us(childWrite, read),
      toResume: us(read, t.end),
      total: us(t.start, t.end),
    });
  }
  return rows;
}

function quantiles(rows: Record<Step, number>[]): Record<string, Record<Step, number>> {
  const out: Record<string, Record<Step, number>> = {};
  for (const [name, q] of [
    ['p10', 0.1],
    ['median', 0.5],
    ['p90', 0.9],
  ] as const) {
    const row = {} as Record<Step, number>;
    for (const s of STEPS) {
      const sorted = rows.map((r) => r[s]).sort((a, b) => a - b);
      row[s] = Math.round(sorted[Math.floor(q * sorted.length)] * 10) / 10;
    }
    out[name] = row;
  }
  return out;
}

async function main(): Promise<void> {
  const samples = Number(process.argv[2]) || 2000;
  const dir = mkdtempSync(path.join(tmpdir(), 'rx-bench-trace-'));
  const preload = path.join(__dirname, 'lib', 'stdioTrace.js');
  // Every child is started the same way: the preload marks its stdio, nothing else changes.
  const env = { NODE_OPTIONS: `--require "${preload}"`, STDIO_TRACE_OUT: path.join(dir, 'marks') };
  const marks = installStdioTrace();
  marks.on = false;
  const raw = new RawPeer(BENCH_SIDECAR, env);
  const sidecars: Sidecar[] = [];
  try {
    const tools = [{ name: 'echo', description: 'answers ok', inputSchema: { type: 'object' }, readOnly: true }];
    const v1 = await startSidecar(benchPlugin('trace-v1', {}, env));
    const v2 = await startSidecar(benchPlugin('trace-v2', { capabilities: ['interceptors', 'tools'], tools }, env, 2));
    sidecars.push(v1, v2);
    const one = createDispatcher([interceptClientFor(v1, 0)]);
    const oneV2 = createDispatcher([interceptClientFor(v2, 0)]);
    const caller = new ToolCaller(toolClientFor(v2));
    let seq = 0;
    const rawPid = raw.child.pid as number;
    const contenders: Contender[] = [
      {
        name: 'floor',
        pid: rawPid,
        run: () =>
          raw.request('extension/intercept', { event: 'input.receive', seq: ++seq, payload, timeoutMillis: 5000 }),
        trips: [],
      },
      { name: 'host', pid: v1.pid as number, run: () => one.dispatch('input.receive', payload), trips: [] },
      { name: 'hostV2', pid: v2.pid as number, run: () => oneV2.dispatch('input.receive', payload), trips: [] },
      {
        name: 'toolFloor',
        pid: rawPid,
        run: () => raw.request('extension/tool/call', { name: 'echo', arguments: payload, timeoutMillis: 300_000 }),
        trips: [],
      },
      { name: 'toolCall', pid: v2.pid as number, run: () => caller.call('echo', payload), trips: [] },
    ];
    for (const c of contenders) for (let i = 0; i < 300; i++) await c.run();
    const BLOCK = 25;
    for (let round = 0; contenders[0].trips.length < samples; round++) {
      const order = round % 2 ? [...contenders].reverse() : contenders;
      for (const c of order) {
        for (let k = 0; k < BLOCK; k++) {
          marks.kinds = [];
          marks.times = [];
          marks.on = true;
          const start = process.hrtime.bigint();
          await c.run();
          const end = process.hrtime.bigint();
          marks.on = false;
          c.trips.push({ start, end, kinds: marks.kinds, times: marks.times });
        }
      }
    }
    await Promise.all(sidecars.map((s) => s.stop()));
    await raw.close();
    const childMarks = new Map<number, StdioMarks>();
    for (const f of readdirSync(dir)) {
      childMarks.set(Number(f.split('.').pop()), parseMarks(readFileSync(path.join(dir, f), 'utf8')));
    }
    const result: Record<string, unknown> = {};
    for (const c of contenders) {
      const child = childMarks.get(c.pid);
      if (!child) throw new Error(`no marks from the child of ${c.name}`);
      const rows = steps(c.trips, child);
      result[c.name] = { matched: rows.length, ...quantiles(rows) };
    }
    process.stdout.write(JSON.stringify({ unit: 'µs', samples, result }, null, 2) + '\n');
  } finally {
    await Promise.all(sidecars.map((s) => s.stop()));
    await raw.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`interceptTrace failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
