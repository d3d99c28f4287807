// Issue 25 items 2 and 3, black box through `reasonix-host` as the attacker tried them: descendants
// that leave the sidecar's process group (a setsid child, a double-forked daemon, a detached child
// holding the sidecar's stdout/stderr) are stopped with it, and a descendant nobody can recognise
// (it cleared its environment) cannot make `check` or `run` hang. Processes that are not ours
// survive. Linux: the launch token is read from /proc (docs/reliability.md). A hang is runCli's
// kill after its timeout (the CLI would wait for ever without the pipe grace), not a timed assertion.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { alive } from '../../support/processes';
import { waitFor } from '../../support/wait';
import { fixturePlugin, gone, LiveCli, runCli, SIDECARS, tempDir } from './support';

const linux = process.platform === 'linux';

/** The pids the fixture's escapers wrote, once `count` of them are there. */
function escaperPids(file: string, count: number): Promise<number[]> {
  return waitFor(
    () => {
      let text = '';
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        return undefined; // not yet written
      }
      const pids = text.split('\n').filter(Boolean).map(Number);
      return pids.length >= count ? pids : undefined;
    },
    { timeoutMs: 10000, intervalMs: 25, what: `${count} escaper pids in ${file}` },
  );
}

async function allGone(pids: number[]): Promise<number[]> {
  const left: number[] = [];
  for (const pid of pids) if (!(await gone(pid, 3000))) left.push(pid);
  return left;
}

describe('reasonix-host: descendants that leave the process group (issue 25 items 2, 3)', function () {
  this.timeout(30000);
  let tmp: ReturnType<typeof tempDir>;
  let live: LiveCli | undefined;
  const strays: number[] = [];
  beforeEach(() => (tmp = tempDir('escapers')));
  afterEach(async () => {
    await live?.kill();
    live = undefined;
    for (const pid of strays.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    tmp.cleanup();
  });

  (linux ? it : it.skip)(
    'check: a setsid child, a double-forked daemon and a detached pipe holder are all stopped; check returns on time',
    async () => {
      const file = join(tmp.dir, 'pids');
      const plugin = fixturePlugin(tmp.dir, 'esc', 'well-behaved.js', {
        env: { FIX_ESCAPERS: file, FIX_HOLD_PIPES: '1' },
      });
      const r = await runCli(['check', plugin, '--workspace', tmp.dir], { timeoutMs: 20000 });
      const pids = await escaperPids(file, 3);
      strays.push(...pids);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.deepEqual(await allGone(pids), [], 'no escaper is left running');
    },
  );

  (linux ? it : it.skip)('run: Ctrl+C (SIGINT) stops every escaper too', async () => {
    const file = join(tmp.dir, 'pids');
    live = new LiveCli([
      'run',
      fixturePlugin(tmp.dir, 'esc', 'well-behaved.js', { env: { FIX_ESCAPERS: file, FIX_HOLD_PIPES: '1' } }),
      '--json',
      '--workspace',
      tmp.dir,
    ]);
    await live.waitFor('the plugin line', (e) => e.type === 'plugin');
    const pids = await escaperPids(file, 3);
    strays.push(...pids);
    live.child.kill('SIGINT');
    const { code } = await live.exited;
    assert.equal(code, 0, live.stderr);
    assert.deepEqual(await allGone(pids), [], 'no escaper is left running');
  });

  (linux ? it : it.skip)(
    'run --for: the escapers of a sidecar that exited by itself are stopped at the end',
    async () => {
      const file = join(tmp.dir, 'pids');
      const plugin = fixturePlugin(tmp.dir, 'esc', 'well-behaved.js', {
        env: { FIX_ESCAPERS: file, FIX_HOLD_PIPES: '1', FIX_EXIT_AFTER_INIT: '1500' },
      });
      const r = await runCli(['run', plugin, '--for', '4', '--json', '--workspace', tmp.dir], { timeoutMs: 20000 });
      const pids = await escaperPids(file, 3);
      strays.push(...pids);
      assert.notEqual(r.code, null, 'run exited with a status');
      assert.deepEqual(await allGone(pids), [], 'no escaper is left running');
    },
  );

  it('a descendant that cleared its environment and holds the pipes cannot make check or run hang', async function () {
    // A hang never ends; 40 s per command only leaves room for a machine busy with other suites
    // (alone: check and run --for 4 take about 8 s together).
    this.timeout(100_000);
    const file = join(tmp.dir, 'pids');
    const env = { FIX_ESCAPERS: file, FIX_HOLD_PIPES: 'clean', FIX_EXIT_AFTER_INIT: '1500' };
    const checked = await runCli(['check', fixturePlugin(tmp.dir, 'clean', 'well-behaved.js', { env }), '--json'], {
      timeoutMs: 40_000,
    });
    strays.push(...(await escaperPids(file, 3)));
    assert.notEqual(checked.code, null, 'check ended with an exit status');

    const file2 = join(tmp.dir, 'pids2');
    const env2 = { ...env, FIX_ESCAPERS: file2 };
    const ran = await runCli(
      ['run', fixturePlugin(tmp.dir, 'clean2', 'well-behaved.js', { env: env2 }), '--for', '4', '--json'],
      { timeoutMs: 40_000 },
    );
    strays.push(...(await escaperPids(file2, 3)));
    assert.notEqual(ran.code, null, 'run ended with an exit status');
  });

  (linux ? it : it.skip)('a process that is not ours, running the same script, survives the stop', async () => {
    const file = join(tmp.dir, 'pids');
    const bystander = spawn(process.execPath, [join(SIDECARS, 'well-behaved.js')], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    bystander.unref();
    strays.push(bystander.pid!);
    const r = await runCli(
      [
        'check',
        fixturePlugin(tmp.dir, 'esc', 'well-behaved.js', { env: { FIX_ESCAPERS: file } }),
        '--workspace',
        tmp.dir,
      ],
      { timeoutMs: 20000 },
    );
    strays.push(...(await escaperPids(file, 2)));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.ok(alive(bystander.pid!), 'the bystander (same script, no launch token) is still running');
  });
});
