// NDJSON writer: ordering, back-pressure, frame cap, stall watchdog, best-effort slots.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { FrameParts, NdjsonMessageWriter } from '../../../src/host/wire';
import { ProtocolError } from '../../../src/protocol';
import { GatedSink } from './streams';
import { waitFor } from '../../support/wait';

const MiB = 1024 * 1024;
type Msg = Parameters<NdjsonMessageWriter['write']>[0];
const note = (n: number, pad = 0): Msg => ({ jsonrpc: '2.0', method: 'm', params: { n, pad: 'p'.repeat(pad) } }) as Msg;

function frames(sink: GatedSink): unknown[] {
  return sink
    .text()
    .split('\n')
    .filter((l) => l)
    .map((l) => JSON.parse(l));
}

describe('wire: NdjsonMessageWriter', () => {
  it('writes whole frames in call order under back-pressure (property: sizes incl. sliced frames)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.nat(200), fc.integer({ min: 200_000, max: 700_000 })), { minLength: 1, maxLength: 12 }),
        async (sizes) => {
          const sink = new GatedSink(false, 512);
          const w = new NdjsonMessageWriter(sink, { writeStallMs: 5000 });
          const writes = sizes.map((s, i) => w.write(note(i, s)));
          setTimeout(() => sink.open(), 1);
          await Promise.all(writes);
          await waitFor(() => w.queued === 0 && sink.writableLength === 0, {
            timeoutMs: 5000,
            what: 'queue to drain',
            intervalMs: 2,
          });
          const got = frames(sink) as { params: { n: number; pad: string } }[];
          assert.deepEqual(
            got.map((f) => [f.params.n, f.params.pad.length]),
            sizes.map((s, i) => [i, s]),
          );
          w.dispose();
        },
      ),
      { numRuns: 25 },
    );
  });

  it('writes a frame given in parts whole, in call order with other frames, under back-pressure', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.nat(200), fc.integer({ min: 1, max: 9 })), { minLength: 1, maxLength: 10 }),
        async (shapes) => {
          const sink = new GatedSink(false, 512);
          const w = new NdjsonMessageWriter(sink, { writeStallMs: 5000 });
          // A small n is a frame of n parts of 40 KiB (latin1 strings between Buffer head and tail); a large n a plain note.
          const expected: [number, number][] = [];
          const writes = shapes.map((n, i) => {
            if (n >= 10) {
              expected.push([i, n]);
              return w.write(note(i, n));
            }
            const pad = 'p'.repeat(40 * 1024);
            const head = Buffer.from(`{"jsonrpc":"2.0","method":"x","params":{"n":${i},"pad":"`);
            const tail = Buffer.from('"}}\n');
            const parts = [head, ...Array.from({ length: n }, () => pad), tail];
            expected.push([i, n * pad.length]);
            return w.writeFrame(
              new FrameParts(
                parts,
                parts.reduce((a, p) => a + p.length, 0),
              ),
            );
          });
          setTimeout(() => sink.open(), 1);
          await Promise.all(writes);
          await waitFor(() => w.queued === 0 && sink.writableLength === 0, {
            timeoutMs: 5000,
            what: 'queue to drain',
            intervalMs: 5,
          });
          const got = frames(sink) as { params: { n: number; pad: string } }[];
          assert.deepEqual(
            got.map((f) => [f.params.n, f.params.pad.length]),
            expected,
          );
          w.dispose();
        },
      ),
      { numRuns: 25 },
    );
  });

  it('honours write() returning false: nothing more is handed over until drain', async () => {
    const sink = new GatedSink(false, 64);
    const w = new NdjsonMessageWriter(sink);
    void w.write(note(1, 100)); // over the high-water mark: the writer must wait for 'drain'
    const second = w.write(note(2));
    await new Promise((r) => setImmediate(r));
    assert.equal(sink.received.length, 1);
    assert.equal(w.queued, 1);
    sink.open();
    await second;
    await waitFor(() => sink.received.length === 2, {
      timeoutMs: 2000,
      what: 'sink.received.length === 2',
      intervalMs: 2,
    });
    w.dispose();
  });

  it('refuses a frame over 8 MiB with frame_too_large and stays usable', async () => {
    const sink = new GatedSink(true, 16 * MiB);
    const w = new NdjsonMessageWriter(sink);
    const overhead = JSON.stringify(note(0)).length + 1; // frame without padding, newline included
    await assert.rejects(
      w.write(note(0, 8 * MiB - overhead + 1)),
      (e: ProtocolError) => e.reason === 'frame_too_large',
    );
    await w.write(note(1, 8 * MiB - overhead)); // exactly at the cap
    await w.write(note(2));
    await waitFor(() => w.queued === 0 && sink.writableLength === 0, {
      timeoutMs: 5000,
      what: 'w.queued === 0 && sink.writableLength === 0',
      intervalMs: 2,
    });
    assert.deepEqual(
      (frames(sink) as { params: { n: number } }[]).map((f) => f.params.n),
      [1, 2],
    );
    assert.equal(w.failed, undefined);
    w.dispose();
  });

  it('fails when a write makes no progress for the stall bound', async () => {
    const sink = new GatedSink(false, 64);
    const w = new NdjsonMessageWriter(sink, { writeStallMs: 50 });
    const errors: Error[] = [];
    w.onError((e) => errors.push(e));
    const started = Date.now();
    void w.write(note(1, 1000));
    const queued = w.write(note(2));
    await assert.rejects(queued);
    assert.ok(Date.now() - started >= 45);
    assert.equal(errors.length, 1);
    await assert.rejects(w.write(note(3)), 'a failed writer refuses further frames');
    w.dispose();
  });

  it('gives best-effort frames at most 16 queued slots, drops the rest; reliable frames fill the 256-frame bound, then fail (issue 12 §4)', async () => {
    const sink = new GatedSink(false, 64);
    const w = new NdjsonMessageWriter(sink, { writeStallMs: 5000 });
    void w.write(note(0, 500)); // blocks the stream
    const accepted = Array.from({ length: 30 }, (_, i) => w.writeBestEffort(note(100 + i)));
    assert.equal(accepted.filter(Boolean).length, 16);
    assert.deepEqual(accepted.slice(16), new Array(14).fill(false));
    const reliable = Array.from({ length: 300 }, (_, i) => w.write(note(1000 + i)));
    assert.equal(w.writeBestEffort(note(999)), false, 'still full');
    const settled = await Promise.race([
      Promise.allSettled(reliable.slice(240)),
      new Promise((r) => setTimeout(() => r('hung'), 200)),
    ]);
    assert.notEqual(settled, 'hung', 'frames past the bound fail at once');
    for (const o of settled as PromiseSettledResult<void>[])
      assert.ok(o.status === 'rejected' && /not reading its stdin/.test(String(o.reason)));
    sink.open();
    await Promise.all(reliable.slice(0, 240));
    await waitFor(() => w.queued === 0 && sink.writableLength === 0, {
      timeoutMs: 2000,
      what: 'w.queued === 0 && sink.writableLength === 0',
      intervalMs: 2,
    });
    const ns = (frames(sink) as { params: { n: number } }[]).map((f) => f.params.n);
    assert.deepEqual(ns, [
      0,
      ...Array.from({ length: 16 }, (_, i) => 100 + i),
      ...Array.from({ length: 240 }, (_, i) => 1000 + i),
    ]);
    assert.equal(w.writeBestEffort(note(5)), true, 'slots free again');
    w.dispose();
  });

  it('keeps answers (send) past the 256-frame bound, in order; past the byte bound it fails loudly, never drops one (issue 45 item 2)', async () => {
    const sink = new GatedSink(false, 64);
    const errors: Error[] = [];
    const w = new NdjsonMessageWriter(sink, { writeStallMs: 5000, queueBytes: 256 * 1024 });
    w.onError((e) => errors.push(e));
    void w.write(note(0, 500)); // blocks the stream
    const answer = (n: number) => w.encodeText({ jsonrpc: '2.0', id: n, result: { accepted: true } });
    for (let n = 1; n <= 1000; n++) w.send(answer(n));
    assert.equal(w.failed, undefined, '1,000 small answers fit the byte bound');
    assert.equal(w.queued, 1000, 'all kept: none dropped past 256 frames');
    sink.open();
    await waitFor(() => w.queued === 0 && sink.writableLength === 0, { timeoutMs: 2000, what: 'the queue to drain' });
    const ids = (frames(sink) as { id?: number }[]).filter((f) => f.id !== undefined).map((f) => f.id);
    assert.deepEqual(
      ids,
      Array.from({ length: 1000 }, (_, i) => i + 1),
    );

    const stuck = new GatedSink(false, 64);
    const v = new NdjsonMessageWriter(stuck, { writeStallMs: 5000, queueBytes: 64 * 1024 });
    v.onError((e) => errors.push(e));
    void v.write(note(0, 500)).catch(() => undefined);
    for (let n = 1; n <= 2000 && !v.failed; n++) v.send(answer(n));
    assert.ok(v.failed instanceof ProtocolError, 'past the byte bound the writer fails');
    assert.equal((v.failed as ProtocolError).reason, 'provider_interrupted');
    assert.match(
      v.failed.message,
      /does not read their answers from its stdin: \d+ frames \(\d+\.\d MiB\) wait, the most one connection may hold is/,
    );
    assert.equal(errors.length, 1, 'onError fired once');
    v.dispose();
    w.dispose();
  });

  it('end() flushes queued frames before ending the stream', async () => {
    const sink = new GatedSink(false, 64);
    const w = new NdjsonMessageWriter(sink);
    void w.write(note(1, 200));
    void w.write(note(2));
    w.end();
    const finished = new Promise((r) => sink.on('finish', r));
    sink.open();
    await finished;
    assert.equal(frames(sink).length, 2);
    w.dispose();
  });
});
