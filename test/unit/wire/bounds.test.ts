// Issue 12 §4: a sidecar that does not read its stdin cannot make the host queue without bound.
// The writer queue is bounded in frames (256) and bytes (32 MiB) for every frame: past it a call
// fails at once, and extension/resources/changed is coalesced instead of taking more room.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ValidatedConnection } from '../../../src/host/wire';
import { ProtocolError } from '../../../src/protocol';
import { waitFor } from '../../support/wait';

const FIXTURE = path.resolve(__dirname, '../../../../test/fixtures/sidecars/slow-reader.js');
const INTERCEPT = { event: 'tool.before', seq: 1, timeoutMillis: 5000, payload: { name: 'x', arguments: '{}' } };

describe('wire: bounded writer queue against a sidecar that does not read (issue 12 §4)', function () {
  this.timeout(20000);
  let child: ChildProcessWithoutNullStreams;
  let conn: ValidatedConnection;
  let dir: string;

  function open(env: Record<string, string> = {}): void {
    dir = mkdtempSync(path.join(tmpdir(), 'reasonix-bounds-'));
    child = spawn(process.execPath, [FIXTURE], {
      env: { ...process.env, FIX_RECORD: path.join(dir, 'rx'), ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.on('error', () => undefined);
    conn = new ValidatedConnection({
      input: child.stdout,
      output: child.stdin,
      writeStallMs: 60_000,
      handlers: { handler: () => undefined },
    });
    conn.markReady();
  }

  afterEach(async () => {
    conn.dispose();
    child.kill('SIGKILL');
    await new Promise((r) => child.once('close', r));
    rmSync(dir, { recursive: true, force: true });
  });

  /** A request that blocks the pipe of the non-reading child. */
  function blocker(): void {
    conn
      .request('extension/intercept', { ...INTERCEPT, payload: { name: 'x', arguments: 'b'.repeat(4 * 1024 * 1024) } })
      .catch(() => undefined);
  }

  const notReading = (e: unknown) =>
    e instanceof ProtocolError && e.reason === 'provider_interrupted' && /not reading its stdin/.test(e.message);

  it('queues at most 256 frames: the 257th call fails at once with provider_interrupted', async () => {
    open();
    blocker();
    const calls = Array.from({ length: 300 }, () => conn.request('extension/intercept', INTERCEPT));
    const outcomes = await Promise.allSettled(
      calls.map((c) => Promise.race([c, new Promise((r) => setTimeout(() => r('pending'), 300))])),
    );
    const refused = outcomes.filter((o) => o.status === 'rejected' && notReading(o.reason)).length;
    const waiting = outcomes.filter((o) => o.status === 'fulfilled' && o.value === 'pending').length;
    assert.equal(waiting, 256, 'the queue holds 256 frames');
    assert.equal(refused, 44, 'every call past the bound is refused, none hangs');
    for (const c of calls) c.catch(() => undefined);
  });

  it('queues at most 32 MiB: large calls past it fail at once, the queue never grows past the bound', async () => {
    open();
    blocker();
    const big = { ...INTERCEPT, payload: { name: 'x', arguments: 'm'.repeat(1024 * 1024) } };
    const calls = Array.from({ length: 60 }, () => conn.request('extension/intercept', big));
    for (const c of calls) c.catch(() => undefined);
    const results = await Promise.allSettled(
      calls.map((c) => Promise.race([c, new Promise((r) => setTimeout(() => r('pending'), 300))])),
    );
    const waiting = results.filter((o) => o.status === 'fulfilled').length;
    const refused = results.filter((o) => o.status === 'rejected' && notReading(o.reason)).length;
    assert.equal(waiting + refused, 60);
    assert.ok(waiting >= 30 && waiting <= 32, `${waiting} one-MiB frames queued under the 32 MiB bound`);
    assert.ok(refused >= 28, `${refused} refused`);
  });

  it('coalesces 5,000 resources/changed paths into at most 1,000-path messages and loses none', async () => {
    open({ FIX_DELAY_MS: '1500' });
    blocker();
    for (let i = 0; i < 5000; i++)
      conn.notify('extension/resources/changed', { paths: [`src/f${i % 2500}.ts`, `lib/g${i}.js`] });
    // 2,500 + 5,000 distinct paths: without coalescing that would be 5,000 queued frames (refused past 256).
    const rx = path.join(dir, 'rx');
    await waitFor(
      () => {
        try {
          return (
            readFileSync(rx, 'utf8')
              .split('\n')
              .filter((l) => l.includes('resources/changed'))
              .reduce((n, l) => n + (JSON.parse(l) as { paths: string[] }).paths.length, 0) >= 7500
          );
        } catch {
          return false;
        }
      },
      { timeoutMs: 15000, what: 'every path delivered', intervalMs: 2 },
    );
    const frames = readFileSync(rx, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { method: string; paths?: string[] })
      .filter((f) => f.method === 'extension/resources/changed');
    const all = frames.flatMap((f) => f.paths ?? []);
    assert.equal(new Set(all).size, 7500, 'no path lost');
    assert.equal(all.length, 7500, 'no path sent twice while queued');
    assert.ok(frames.every((f) => (f.paths ?? []).length <= 1000));
    assert.ok(frames.length <= 9, `${frames.length} messages`);
  });
});
