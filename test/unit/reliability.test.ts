// A smaller, seeded run of the reliability suite (issue 12 §8) inside the unit tests: the same
// framing fuzzer, real-pipe fuzzer and chaos run as `npm run fuzz`, fixed seeds, fewer rounds.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { fuzzAnswers } from '../reliability/answers';
import { chaos } from '../reliability/chaos';
import { fuzzFraming, fuzzRealSidecar } from '../reliability/fuzz';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures');

describe('reliability: seeded fuzz and chaos (issue 12 §8)', function () {
  this.timeout(120_000);

  it('3,000 random chunkings (inside UTF-8, CRLF, junk, oversize): every answer intact, no crash', async () => {
    const f = await fuzzFraming({ seed: 12, chunkings: 3000 });
    assert.equal(f.chunkings, 3000);
    assert.ok(f.framesTried > 6000 && f.junkLines > 500, JSON.stringify(f));
    assert.equal(f.hostCrashes, 0);
    assert.equal(f.wrongResults, 0, JSON.stringify(f));
  });

  it('a real sidecar writing answers and junk cut at random bytes: every answer intact', async () => {
    const f = await fuzzRealSidecar({ seed: 12, calls: 100, fixtures: path.join(FIXTURES, 'sidecars') });
    assert.ok(f.chunkings >= 100);
    assert.equal(f.hostCrashes, 0);
    assert.equal(f.wrongResults, 0, JSON.stringify(f));
  });

  it('SIGKILLs at random moments of handshake, intercept, stream and shutdown: every call settles, no orphan', async () => {
    const f = await chaos({ seed: 12, kills: 8, fixtures: FIXTURES });
    assert.deepEqual(f.byPhase, { handshake: 2, intercept: 2, stream: 2, shutdown: 2 });
    assert.ok(f.callsSettled >= 16, JSON.stringify(f));
    assert.equal(f.unsettled, 0, JSON.stringify(f));
    assert.equal(f.orphans, 0, JSON.stringify(f));
  });

  it('sidecars that send 300 to 8,000 requests and read only later (v1 and v2): no answer lost (issue 45 item 2)', async () => {
    const f = await fuzzAnswers({ seed: 12, floods: 2, fixtures: path.join(FIXTURES, 'sidecars') });
    assert.equal(f.floods, 2);
    assert.equal(f.lostAnswers, 0, JSON.stringify(f));
    assert.equal(f.errorAnswers, 0, JSON.stringify(f));
    assert.equal(f.connectionsFailed, 0, JSON.stringify(f));
  });
});
