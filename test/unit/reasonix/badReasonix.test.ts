// A Reasonix that hangs, prints something that is no plan, or exits non-zero; and finding the
// binary (reasonix.path, PATH). A fixture script stands in for the binary where the real one
// cannot misbehave on purpose (test/fixtures/reasonix/fake-reasonix.js).
import { strict as assert } from 'node:assert';
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { locateReasonix, parseVersion, ReasonixCli, ReasonixError, reasonixVersion } from '../../../src/host/reasonix';
import { waitFor } from '../../support/wait';
import { FIXTURES, scratchReasonix, type ScratchReasonix } from '../../support/reasonix';

const FAKE = path.join(FIXTURES, 'fake-reasonix.js');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function failure(p: Promise<unknown>): Promise<ReasonixError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ReasonixError, String(err));
    return err;
  }
  assert.fail('expected a ReasonixError');
}

describe('a misbehaving Reasonix', function () {
  this.timeout(20000);
  let s: ScratchReasonix;
  beforeEach(() => (s = scratchReasonix()));
  afterEach(() => s.remove());

  const cli = (mode: string, timeoutMs = 10_000) =>
    new ReasonixCli({
      bin: FAKE,
      home: s.reasonixHome,
      cwd: s.workspace,
      env: { ...s.env, FAKE_REASONIX: mode, FAKE_REASONIX_PID: path.join(s.dir, 'child.pid') },
      timeoutMs,
    });

  it('one that hangs is stopped after the budget, with what it started (step named, kind timeout)', async () => {
    const t0 = Date.now();
    const err = await failure(cli('hang', 600).plan(s.extension()));
    assert.equal(err.step, 'plan');
    assert.equal(err.kind, 'timeout');
    assert.match(err.message, /did not finish within 1 s and was stopped/);
    assert.ok(Date.now() - t0 < 5000, 'not waited out');
    const child = Number(readFileSync(path.join(s.dir, 'child.pid'), 'utf8'));
    await waitFor(() => !alive(child), { timeoutMs: 3000, what: 'its child to be stopped', intervalMs: 20 });
  });

  it('one that prints no plan is an output failure naming the step', async () => {
    const err = await failure(cli('garbage').plan(s.extension()));
    assert.equal([err.step, err.kind].join(), 'plan,output');
    assert.match(err.said, /Welcome to Reasonix/);
  });

  it('one that exits non-zero is refused with its reason, redacted', async () => {
    const err = await failure(cli('fail').plan(s.extension()));
    assert.equal([err.step, err.kind, err.exitCode].join(), 'plan,refused,3');
    assert.match(err.said, /cannot read source: permission denied/);
    assert.doesNotMatch(err.said, /sk-live/);
    const list = await failure(cli('fail').list());
    assert.equal([list.step, list.kind].join(), 'list,exit');
  });

  it('a version that is not Reasonix’s is refused', async () => {
    const err = await failure(reasonixVersion(FAKE, s.workspace, { ...s.env, FAKE_REASONIX: 'hang' }, 500));
    assert.equal([err.step, err.kind].join(), 'version,timeout');
    assert.equal(await reasonixVersion(FAKE, s.workspace, { ...s.env, FAKE_REASONIX: 'garbage' }), '0.0.1-fake');
    assert.equal(parseVersion('reasonix v1.38.11\n'), '1.38.11');
    assert.equal(parseVersion('something else 1.2.3'), undefined);
  });
});

describe('finding the user’s Reasonix', () => {
  let s: ScratchReasonix;
  beforeEach(() => (s = scratchReasonix()));
  afterEach(() => s.remove());

  it('uses an absolute reasonix.path as it is, and refuses a relative or missing one', () => {
    assert.deepEqual(locateReasonix({ configured: FAKE, env: { PATH: '' } }), { path: FAKE, from: 'setting' });
    for (const bad of ['reasonix', path.join(s.dir, 'nope')]) {
      assert.throws(
        () => locateReasonix({ configured: bad, env: { PATH: '' } }),
        (e: unknown) => e instanceof ReasonixError && e.step === 'find' && e.kind === 'missing',
      );
    }
  });

  it('else finds `reasonix` on PATH (absolute entries only; an executable file)', () => {
    const bin = path.join(s.dir, 'bin');
    mkdirSync(bin);
    symlinkSync(FAKE, path.join(bin, 'reasonix'));
    const notExec = path.join(s.dir, 'other');
    mkdirSync(notExec);
    writeFileSync(path.join(notExec, 'reasonix'), '');
    chmodSync(path.join(notExec, 'reasonix'), 0o644);
    const found = locateReasonix({ env: { PATH: ['relative/bin', notExec, bin].join(path.delimiter) } });
    assert.deepEqual(found, { path: path.join(bin, 'reasonix'), from: 'PATH' });
    assert.throws(
      () => locateReasonix({ env: { PATH: notExec } }),
      (e: unknown) =>
        e instanceof ReasonixError && e.kind === 'missing' && /no reasonix executable on PATH/.test(e.message),
    );
  });
});
