// Marks of a process's socket traffic for bench/interceptTrace.ts: when a write starts, when it
// returns, and when a 'data' event fires, on process.hrtime's clock (CLOCK_MONOTONIC on Linux, so
// the bench and its children read the same clock). Child pipes are sockets in Node, stdio too, so
// patching net.Socket sees both ends without touching the code under test. Preloaded in a child
// (`node --require out/bench/lib/stdioTrace.js`), it keeps the marks in memory and writes them to
// $STDIO_TRACE_OUT.<pid> when the process exits; in the bench process, installStdioTrace() keeps
// them for the caller.
import { writeFileSync } from 'node:fs';
import * as net from 'node:net';

/** 'write': a write starts; 'wrote': it returned (the bytes are in the kernel); 'read': 'data' fired. */
export type MarkKind = 'write' | 'wrote' | 'read';

export interface StdioMarks {
  kinds: MarkKind[];
  times: bigint[];
  /** Marks are taken only while true. */
  on: boolean;
}

let installed: StdioMarks | undefined;

export function installStdioTrace(): StdioMarks {
  if (installed) return installed;
  const marks: StdioMarks = { kinds: [], times: [], on: true };
  const mark = (kind: MarkKind) => {
    if (!marks.on) return;
    marks.kinds.push(kind);
    marks.times.push(process.hrtime.bigint());
  };
  const proto = net.Socket.prototype as unknown as {
    write(...args: unknown[]): boolean;
    emit(event: string | symbol, ...args: unknown[]): boolean;
  };
  const write = proto.write;
  const emit = proto.emit;
  proto.write = function (this: unknown, ...args: unknown[]): boolean {
    mark('write');
    const ok = write.apply(this, args);
    mark('wrote');
    return ok;
  };
  proto.emit = function (this: unknown, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'data') mark('read');
    return emit.call(this, event, ...args);
  };
  installed = marks;
  return marks;
}

/** The marks a preloaded child wrote: `kind time` per line. */
export function parseMarks(text: string): StdioMarks {
  const marks: StdioMarks = { kinds: [], times: [], on: false };
  for (const line of text.split('\n')) {
    const [kind, time] = line.split(' ');
    if (!time) continue;
    marks.kinds.push(kind as MarkKind);
    marks.times.push(BigInt(time));
  }
  return marks;
}

const out = process.env.STDIO_TRACE_OUT;
if (out) {
  // Preloaded into a child: record everything, write it out at exit.
  const marks = installStdioTrace();
  process.on('exit', () => {
    writeFileSync(`${out}.${process.pid}`, marks.kinds.map((k, i) => `${k} ${marks.times[i]}`).join('\n'));
  });
}
