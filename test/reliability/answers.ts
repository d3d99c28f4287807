// Issue 45 item 2 in `npm run fuzz`: a sidecar sends a random number of requests (both protocols)
// without reading its stdin for a random while, then reads. Every request must be answered (the
// host keeps answers past its 256-frame write queue, bounded in bytes): `lostAnswers` is 0, and
// the connection is still up.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ValidatedConnection } from '../../src/host/wire';
import { V1, V2 } from '../../src/protocol';
import { waitFor } from '../support/wait';
import { Random } from './random';

export interface AnswerFigures {
  floods: number;
  requests: number;
  lostAnswers: number;
  errorAnswers: number;
  connectionsFailed: number;
}

export async function fuzzAnswers(opts: { seed: number; floods: number; fixtures: string }): Promise<AnswerFigures> {
  const rnd = new Random(opts.seed ^ 0x45b);
  const figures: AnswerFigures = { floods: 0, requests: 0, lostAnswers: 0, errorAnswers: 0, connectionsFailed: 0 };
  for (let i = 0; i < opts.floods; i++) {
    const count = rnd.int(300, 8000);
    const pause = rnd.int(0, 1500);
    const contract = rnd.chance(0.5) ? V1 : V2;
    const dir = mkdtempSync(path.join(tmpdir(), 'reasonix-fuzz-answers-'));
    const record = path.join(dir, 'rx');
    const child = spawn(process.execPath, [path.join(opts.fixtures, 'request-flood.js')], {
      env: {
        ...process.env,
        FIX_RECORD: record,
        FIX_COUNT: String(count),
        FIX_PAUSE_MS: String(pause),
        FIX_QUIET_MS: '1000',
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    child.stdin.on('error', () => undefined);
    const conn = new ValidatedConnection({
      contract,
      input: child.stdout,
      output: child.stdin,
      handlers: { handler: (m) => (m === 'host/ui/publish' ? () => ({ accepted: true }) : undefined) },
    });
    conn.markReady();
    figures.floods++;
    figures.requests += count;
    await waitFor(() => existsSync(record) || conn.ended !== undefined, {
      timeoutMs: 30_000,
      intervalMs: 50,
      what: 'the flood to be counted',
    }).catch(() => undefined);
    let answered = 0;
    try {
      const got = JSON.parse(readFileSync(record, 'utf8')) as { answered: number; errors: number };
      answered = got.answered;
      figures.errorAnswers += got.errors;
    } catch {
      // not counted: every request of this flood is lost
    }
    figures.lostAnswers += count - answered;
    if (conn.ended) figures.connectionsFailed++;
    conn.dispose();
    child.kill('SIGKILL');
    if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('close', r));
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}
