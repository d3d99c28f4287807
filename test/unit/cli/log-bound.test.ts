// Issue 45 item 12: the CLI's log (stderr, written asynchronously when it is a pipe) holds at most
// LOG_BUFFER_BYTES unwritten; past it lines are dropped and counted, and the count is logged once
// the reader catches up. A sidecar writing stderr as fast as it can under --verbose must not take
// the CLI to hundreds of MB because whoever reads the CLI's stderr is slower.
import { strict as assert } from 'node:assert';
import { Writable } from 'node:stream';
import { LOG_BUFFER_BYTES, stderrLogger } from '../../../src/cli/headless';

describe('cli: the log never buffers without bound (issue 45 item 12)', () => {
  it('a reader that stops: at most LOG_BUFFER_BYTES wait; the dropped lines are counted when it reads again', async () => {
    const got: string[] = [];
    let release: (() => void) | undefined;
    // A pipe whose reader is stalled: each write completes only when released.
    const out = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _enc, done) {
        got.push(chunk.toString());
        release = done;
      },
    });
    const readAll = async () => {
      for (let r = release; r; r = release) {
        release = undefined;
        r();
        await new Promise((res) => setImmediate(res));
      }
    };
    const log = stderrLogger(true, out);
    const line = 'y'.repeat(1000);
    let peak = 0;
    for (let i = 0; i < 20_000; i++) {
      log.debug(`stderr: ${line}`);
      peak = Math.max(peak, out.writableLength);
    }
    assert.ok(peak <= LOG_BUFFER_BYTES + 1100, `peak ${peak} bytes held`);
    // The reader catches up.
    await readAll();
    log.warn('after');
    await readAll();
    const written = got.filter((g) => g.startsWith('[debug]')).length;
    const note = got.find((g) => /log lines dropped/.test(g));
    assert.ok(note, 'the loss is said');
    const dropped = Number(/\[warn\] (\d+) log lines dropped/.exec(note)?.[1]);
    assert.equal(written + dropped, 20_000, 'every line is either written or counted');
    assert.equal(got.at(-1), '[warn] after\n');
  });
});
