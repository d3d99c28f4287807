// Issue 45 items 2 and 12: answers to a sidecar's own requests are reliable host→extension traffic
// (HOST_SPEC §1): past the writer's 256-frame queue they are kept, bounded in bytes, never dropped
// without a word; a sidecar that keeps sending requests and never reads its answers is failed
// loudly (the byte bound or the write-stall watchdog), not left waiting for ever. Both protocols.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ValidatedConnection, type ConnectionEnd } from '../../../src/host/wire';
import { V1, V2, type Contract } from '../../../src/protocol';
import { waitFor } from '../../support/wait';

const FIXTURE = path.resolve(__dirname, '../../../../test/fixtures/sidecars/request-flood.js');

for (const [name, contract] of [
  ['v1', V1],
  ['v2', V2],
] as [string, Contract][]) {
  describe(`wire: answers to a sidecar's requests past the write queue (${name}, issue 45 items 2, 12)`, function () {
    this.timeout(30000);
    let child: ChildProcessWithoutNullStreams;
    let conn: ValidatedConnection;
    let dir: string;
    const ends: ConnectionEnd[] = [];

    function open(env: Record<string, string>, writeStallMs = 10_000): string {
      dir = mkdtempSync(path.join(tmpdir(), 'reasonix-answers-'));
      const record = path.join(dir, 'rx');
      child = spawn(process.execPath, [FIXTURE], {
        env: { ...process.env, FIX_RECORD: record, ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      child.stdin.on('error', () => undefined);
      ends.length = 0;
      conn = new ValidatedConnection({
        contract,
        input: child.stdout,
        output: child.stdin,
        writeStallMs,
        handlers: { handler: (m) => (m === 'host/ui/publish' ? () => ({ accepted: true }) : undefined) },
      });
      conn.onEnd((e) => ends.push(e));
      conn.markReady();
      return record;
    }

    afterEach(async () => {
      conn.dispose();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await new Promise((r) => child.once('close', r));
      }
      rmSync(dir, { recursive: true, force: true });
    });

    it('5,000 requests from a sidecar that reads again after 2 s: every one is answered', async () => {
      const record = open({ FIX_COUNT: '5000', FIX_PAUSE_MS: '2000' });
      await waitFor(() => existsSync(record), { timeoutMs: 20000, what: 'the fixture to count its answers' });
      assert.deepEqual(JSON.parse(readFileSync(record, 'utf8')), { answered: 5000, errors: 0 });
      assert.equal(conn.ended, undefined, 'the connection is still up');
    });

    it('10,000 requests at once, read after 1 s: all 10,000 answered', async () => {
      const record = open({ FIX_COUNT: '10000', FIX_PAUSE_MS: '1000' });
      await waitFor(() => existsSync(record), { timeoutMs: 25000, what: 'the fixture to count its answers' });
      assert.deepEqual(JSON.parse(readFileSync(record, 'utf8')), { answered: 10000, errors: 0 });
    });

    it('a sidecar that keeps sending requests and never reads fails the connection loudly, with the reason', async () => {
      open({ FIX_COUNT: '2000', FIX_PAUSE_MS: 'never' }, 3000);
      await waitFor(() => ends.length > 0, { timeoutMs: 20000, what: 'the connection to fail' });
      assert.equal(ends[0].reason, 'provider_interrupted');
      assert.equal(ends[0].local, false);
      assert.match(
        ends[0].message,
        /does not read their answers from its stdin|write to the peer made no progress for 3000 ms/,
      );
    });
  });
}
