// The composed session engine (shared by the extension and the CLI) over real sidecars.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SidecarFailure } from '../../../src/host/sidecar';
import type { SessionEngine } from '../../../src/host/session';
import type { Logger } from '../../../src/host/log';
import { testEngine } from '../../support/engine';
import { pluginFolder } from '../../support/plugins';

const FIXTURE = resolve(__dirname, '../../../../test/fixtures/interceptors/interceptor.js');

describe('session engine composition (real sidecars)', function () {
  this.timeout(20000);
  let dir: string;
  let engine: SessionEngine | undefined;
  const warnings: string[] = [];
  /** Every info/warn/error line, as the Reasonix output channel would show it. */
  const lines: string[] = [];
  const logger: Logger = {
    trace() {},
    debug() {},
    info: (m) => lines.push(m),
    warn: (m) => (warnings.push(m), lines.push(m)),
    error: (m) => (warnings.push(m), lines.push(m)),
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rx-session-'));
    warnings.length = 0;
    lines.length = 0;
  });
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  function plugin(name: string, runtime: Record<string, unknown>): string {
    return pluginFolder(join(dir, name), name, {
      command: process.execPath,
      args: [FIXTURE],
      capabilities: ['interceptors'],
      intercepts: ['tool.before'],
      ...runtime,
    });
  }

  async function startEngine(linked: string[]): Promise<SessionEngine> {
    engine = testEngine({ base: dir, plugins: linked, logger, options: { sessionId: 'session-1' } });
    await engine.start();
    return engine;
  }

  async function crash(e: SessionEngine, id: string): Promise<void> {
    const pid = e.plugins().find((p) => p.pluginId === id)?.pid;
    assert.ok(pid, `${id} has a pid`);
    const crashed = new Promise<void>((r) => e.onCrash((info) => info.pluginId === id && r()));
    process.kill(pid, 'SIGKILL');
    await crashed;
  }

  it('a crashed required interceptor fails the operation instead of being skipped (HOST_SPEC §4.4)', async () => {
    const e = await startEngine([plugin('guard', { required: true })]);
    const before = await e.dispatch('tool.before', { name: 'echo', arguments: '{}' });
    assert.equal(before.decision, 'continue');
    await crash(e, 'guard');
    const after = await e.dispatch('tool.before', { name: 'echo', arguments: '{}' });
    assert.equal(after.decision, 'failed');
  });

  it('a crashed optional interceptor is skipped with one warning per generation, the rest of the chain runs', async () => {
    const e = await startEngine([
      plugin('flaky', { priority: -1 }),
      plugin('blocker', {
        env: { INTERCEPTOR_CONFIG: JSON.stringify({ points: { 'tool.before': { decision: 'block', reason: 'no' } } }) },
      }),
    ]);
    await crash(e, 'flaky');
    const first = await e.dispatch('tool.before', { name: 'echo', arguments: '{}' });
    const second = await e.dispatch('tool.before', { name: 'echo', arguments: '{}' });
    assert.equal(first.decision, 'block');
    assert.equal(second.decision, 'block');
    assert.equal(first.warnings.length, 1, JSON.stringify(first.warnings));
    assert.match(first.warnings[0], /flaky/);
    assert.equal(second.warnings.length, 0, 'warned once per generation');
  });

  it('names the plugin exactly once in its lifecycle log lines (running, crashed, failed to start)', async () => {
    const times = (line: string, id: string) => line.split(id).length - 1;
    const broken = plugin('zz-broken', { args: ['-e', 'process.exit(3)'] });
    const e = await startEngine([plugin('solo-plugin', {}), broken]);
    const running = lines.filter((l) => /running \(pid \d+/.test(l));
    assert.equal(running.length, 1, lines.join('\n'));
    // The id as prefix once; the sidecar's self-reported name and version follow the pid.
    assert.match(running[0], /^\[ws\] \[solo-plugin\] running \(pid \d+, solo-plugin 1\.0\.0\) after \d+ ms$/);
    assert.equal(times(running[0], '[solo-plugin]'), 1, running[0]);

    const failed = lines.filter((l) => /failed to start:/.test(l) && !/did not start/.test(l));
    assert.equal(failed.length, 1, lines.join('\n'));
    // Whichever the host notices first, the exit or the closed stdout, names the plugin once.
    assert.match(
      failed[0],
      /^\[ws\] \[zz-broken\] failed to start: the (process exited|connection failed) during the handshake/,
    );
    assert.equal(times(failed[0], 'zz-broken'), 1, failed[0]);

    await crash(e, 'solo-plugin');
    const crashed = lines.filter((l) => / crashed: /.test(l));
    assert.equal(crashed.length, 1, lines.join('\n'));
    assert.match(crashed[0], /^\[ws\] \[solo-plugin\] crashed: /);
    assert.equal(times(crashed[0], 'solo-plugin'), 1, crashed[0]);
  });

  it('a failed start asked for by a person rejects with the failure, marked as already reported', async () => {
    const e = await startEngine([plugin('zz-broken', { args: ['-e', 'process.exit(3)'] })]);
    const reports: string[] = [];
    e.onStartFailure((info) => reports.push(info.message));
    const err = await e.startPlugin('zz-broken').then(
      () => undefined,
      (x: unknown) => x,
    );
    assert.ok(err instanceof SidecarFailure, String(err));
    assert.equal(err.reported, true);
    assert.equal(err.info.pluginId, 'zz-broken');
    assert.equal(err.info.stage, 'handshake');
    assert.match(
      err.message,
      /^plugin zz-broken failed to start: the (process exited|connection failed) during the handshake/,
    );
    assert.deepEqual(reports, [err.message], 'the engine reported it once, with the same words');
    assert.ok(err.cause instanceof SidecarFailure, "the sidecar's own failure is the cause");
  });
});
