// Issue 12 §5: how `reasonix-host run` ends. SIGHUP is a clean stop like SIGTERM; a second Ctrl+C
// while stopping kills every sidecar's process group (grandchildren included) before the CLI
// exits; a sidecar that crashed while running makes the run exit non-zero.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { groupMembers } from '../../support/processes';
import { waitFor } from '../../support/wait';
import { fixturePlugin, gone, LiveCli, runCli, tempDir } from './support';

function fileText(file: string, ms = 10000): Promise<string> {
  const text = (): string | undefined => {
    try {
      return readFileSync(file, 'utf8') || undefined;
    } catch {
      return undefined; // not yet written
    }
  };
  return waitFor(text, { timeoutMs: ms, what: `${file} to be written`, intervalMs: 25 });
}

describe('reasonix-host run: signals and exit status (issue 12 §5)', function () {
  let tmp: ReturnType<typeof tempDir>;
  let live: LiveCli | undefined;
  beforeEach(() => (tmp = tempDir('signals')));
  afterEach(async () => {
    await live?.kill();
    live = undefined;
    tmp.cleanup();
  });

  it('SIGHUP stops cleanly like SIGTERM: exit 0, the sidecar and its grandchild are gone', async () => {
    const grandchild = join(tmp.dir, 'gc');
    live = new LiveCli([
      'run',
      fixturePlugin(tmp.dir, 'hup', 'well-behaved.js', { env: { FIX_GRANDCHILD: grandchild } }),
      '--json',
      '--workspace',
      tmp.dir,
    ]);
    const plugin = await live.waitFor('the plugin line', (e) => e.type === 'plugin');
    const pid = plugin.pid as number;
    const gc = Number(await fileText(grandchild));
    live.child.kill('SIGHUP');
    const { code } = await live.exited;
    assert.equal(code, 0, live.stderr);
    assert.ok(live.events.some((e) => e.type === 'stopping' && e.why === 'SIGHUP'));
    assert.ok(live.events.some((e) => e.type === 'stopped'));
    assert.ok(await gone(pid), 'the sidecar is gone');
    assert.ok(await gone(gc), 'its grandchild is gone');
  });

  it('a second Ctrl+C while a sidecar hangs in shutdown kills its process group at once and exits 130', async () => {
    const grandchild = join(tmp.dir, 'gc');
    live = new LiveCli([
      'run',
      fixturePlugin(tmp.dir, 'hang', 'well-behaved.js', {
        env: { FIX_GRANDCHILD: grandchild, FIX_HANG_SHUTDOWN: '1' },
      }),
      '--json',
      '--workspace',
      tmp.dir,
    ]);
    const plugin = await live.waitFor('the plugin line', (e) => e.type === 'plugin');
    const pid = plugin.pid as number;
    const gc = Number(await fileText(grandchild));
    live.child.kill('SIGINT');
    await live.waitFor('stopping', (e) => e.type === 'stopping');
    await new Promise((r) => setTimeout(r, 200));
    const before = Date.now();
    live.child.kill('SIGINT');
    const { code } = await live.exited;
    assert.equal(code, 130, live.stderr);
    assert.ok(Date.now() - before < 3000, 'the second Ctrl+C does not wait for the shutdown bound');
    const killed = live.events.find((e) => e.type === 'killed');
    assert.deepEqual(killed?.pids, [pid]);
    assert.ok(await gone(pid), 'the sidecar is gone');
    assert.ok(await gone(gc), 'its grandchild is gone, not reparented to init');
    assert.deepEqual(groupMembers(pid), [], 'nothing is left in its process group');
  });

  it('exits 1 when a sidecar crashed while running (text mode names it)', async () => {
    const r = await runCli([
      'run',
      fixturePlugin(tmp.dir, 'crashy', 'well-behaved.js', { env: { FIX_CRASH_AFTER_MS: '100' } }),
      '--for',
      '2',
      '--workspace',
      tmp.dir,
    ]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^crash crashy: plugin crashy crashed/m);
    assert.match(r.stdout, /^stopped$/m);
  });

  it('still exits 0 for a clean run that nothing crashed', async () => {
    const r = await runCli([
      'run',
      fixturePlugin(tmp.dir, 'calm', 'well-behaved.js'),
      '--for',
      '1',
      '--workspace',
      tmp.dir,
    ]);
    assert.equal(r.code, 0, r.stderr);
  });
});
