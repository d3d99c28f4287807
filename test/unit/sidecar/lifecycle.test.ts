// Sidecar lifecycle against real child processes: HOST_SPEC §12 cases 13–30.
import { strict as assert } from 'node:assert';
import { mkdtempSync, symlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { liveDescendants } from '../../support/orphans';
import { SidecarFailure, type FailureInfo, type SidecarState } from '../../../src/host/sidecar';
import { ProtocolError } from '../../../src/protocol';
import { alive } from '../../support/processes';
import { FIXTURES, Fleet, INTERCEPT, MemoryLogger, SESSION, Scratch, pluginFor, useFleet } from './fixtures';
import { waitFor } from '../../support/wait';

async function startError(p: Promise<void>): Promise<SidecarFailure> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof SidecarFailure, `expected SidecarFailure, got ${String(err)}`);
    return err;
  }
  throw new Error('start unexpectedly succeeded');
}

describe('sidecar: spawn rules (§2.1)', () => {
  const fleet = new Fleet();
  afterEach(() => fleet.stopAll());

  it('refuses a command that is relative after expansion; nothing is launched (case 13)', async () => {
    const s = fleet.make({ plugin: pluginFor('well-behaved.js', { command: 'bin/x' }) });
    const err = await startError(s.start());
    assert.equal(err.info.stage, 'spawn');
    assert.match(err.info.message, /fixture/);
    assert.match(err.info.message, /not an absolute path/);
    assert.equal(s.pid, undefined);
    assert.equal(s.state, 'failed');
    assert.equal(liveDescendants().length, 0);
  });

  it('refuses shells, whatever the case of the basename (case 14)', async () => {
    for (const command of ['/bin/bash', '/bin/sh', '/usr/bin/PWSH.EXE', '${REASONIX_PLUGIN_ROOT}/zsh']) {
      const s = fleet.make({ plugin: pluginFor('well-behaved.js', { command }) });
      const err = await startError(s.start());
      assert.equal(err.info.stage, 'spawn', command);
      assert.match(err.info.message, /shell/);
      assert.equal(s.pid, undefined);
    }
  });

  it('expands ${REASONIX_PLUGIN_ROOT}, passes args verbatim, sets cwd and the identity env last (case 15)', async () => {
    const scratch = new Scratch();
    const root = mkdtempSync(path.join(tmpdir(), 'rx-root-'));
    try {
      symlinkSync(process.execPath, path.join(root, 'node'));
      const plugin = pluginFor('well-behaved.js', {
        command: '${REASONIX_PLUGIN_ROOT}/./node',
        args: [path.join(FIXTURES, 'well-behaved.js'), '${REASONIX_PLUGIN_ROOT}', 'two words'],
        env: {
          REASONIX_PLUGIN_NAME: 'forged',
          REASONIX_PLUGIN_ROOT: '/forged',
          FIX_MANIFEST_VAR: 'from-manifest',
          FIX_ENV_OUT: scratch.file('env.json'),
        },
      });
      plugin.root = root;
      const s = fleet.make({ plugin });
      await s.start();
      const [env] = scratch.records('env.json') as Record<string, unknown>[];
      assert.deepEqual(env, {
        REASONIX_PLUGIN_ROOT: root,
        REASONIX_PLUGIN_NAME: 'fixture',
        REASONIX_PLUGIN_VERSION: '1.2.3',
        FIX_MANIFEST_VAR: 'from-manifest',
        cwd: root,
        argv: ['${REASONIX_PLUGIN_ROOT}', 'two words'],
      });
      await s.stop();
    } finally {
      scratch.cleanup();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('reports a missing executable as a spawn failure', async () => {
    const s = fleet.make({ plugin: pluginFor('well-behaved.js', { command: '/nonexistent/reasonix-sidecar' }) });
    const err = await startError(s.start());
    assert.equal(err.info.stage, 'spawn');
    assert.match(err.info.message, /ENOENT/);
  });
});

describe('sidecar: handshake (§2.2–2.4)', () => {
  const ctx = useFleet();
  const { fleet } = ctx;

  it('sends exactly the five-member extension/initialize as the first frame (case 16)', async () => {
    const plugin = pluginFor('well-behaved.js', {
      env: { FIX_RECORD: ctx.scratch.file('rx') },
      intercepts: ['tool.before'],
      replaces: ['system_prompt'],
      capabilities: ['ui', 'providers'],
    });
    const s = fleet.make({ plugin });
    await s.start();
    const first = ctx.scratch.records('rx')[0];
    assert.deepEqual(first, {
      jsonrpc: '2.0',
      id: 1,
      method: 'extension/initialize',
      params: {
        protocolVersion: '1',
        protocolId: 'reasonix.extension.v1',
        manifest: { intercepts: ['tool.before'], replaces: ['system_prompt'], capabilities: ['ui', 'providers'] },
        session: SESSION,
        capabilities: { contentRefs: true, uiHost: 'desktop', protocolVersion: '1' },
      },
    });
  });

  it('sends extension/initialized exactly once, with {}, after the result was accepted (case 25)', async () => {
    const s = fleet.make({ plugin: pluginFor('well-behaved.js', { env: { FIX_RECORD: ctx.scratch.file('rx') } }) });
    const states: SidecarState[] = [];
    s.onStateChange((st) => states.push(st));
    await s.start();
    await s.request('extension/intercept', INTERCEPT); // a later frame proves initialized was read before it
    const methods = (ctx.scratch.records('rx') as { method?: string; params?: unknown }[]).map((f) => f.method);
    assert.deepEqual(methods, ['extension/initialize', 'extension/initialized', 'extension/intercept']);
    assert.deepEqual((ctx.scratch.records('rx')[1] as { params: unknown }).params, {});
    assert.deepEqual(states, ['starting', 'running']);
    assert.ok(s.readyAt && s.readyAt <= Date.now());
    assert.equal(s.initializeResult?.name, 'fixture');
  });

  const rejected: [string, string, Record<string, unknown>, string, RegExp][] = [
    ['17', 'protocolVersion "2"', { protocolVersion: '2' }, 'unsupported_version', /not supported/],
    ['18', 'protocolVersion "v1"', { protocolVersion: 'v1' }, 'protocol_error', /not a decimal integer/],
    [
      '19',
      'missing stateSchemaVersion',
      { stateSchemaVersion: null },
      'protocol_error',
      /invalid initialize result: .*stateSchemaVersion/,
    ],
    ['19', 'an unknown member', { componentId: 'x' }, 'protocol_error', /invalid initialize result: .*componentId/],
    [
      '20',
      'a subscription outside manifest intercepts',
      { subscriptions: ['input.receive', 'session.end'] },
      'capability_not_declared',
      /session\.end/,
    ],
    ['21', 'replaces beyond the manifest', { replaces: ['system_prompt'] }, 'capability_not_declared', /system_prompt/],
    [
      '22',
      'providers without the providers capability',
      { providers: [{ ref: 'plugin/fixture/m' }] },
      'capability_not_declared',
      /providers/,
    ],
    [
      '23',
      'uiActions without the ui capability',
      { uiActions: [{ actionId: 'demo' }] },
      'capability_not_declared',
      /ui/,
    ],
  ];
  for (const [n, what, patch, reason, message] of rejected) {
    it(`fails start with ${reason} on ${what} and kills the child (case ${n})`, async () => {
      const s = fleet.make({
        plugin: pluginFor('well-behaved.js', { env: { FIX_RESULT_PATCH: JSON.stringify(patch) } }),
      });
      const err = await startError(s.start());
      assert.equal(err.reason, reason);
      assert.equal(err.info.reason, reason);
      assert.equal(err.info.stage, 'handshake');
      assert.match(err.info.message, message);
      assert.match(err.info.message, /plugin fixture/);
      assert.equal(s.state, 'failed');
      assert.equal(alive(s.pid), false);
    });
  }

  it('rejects a provider ref outside plugin/<id>/ even with the capability (case 22)', async () => {
    const s = fleet.make({
      plugin: pluginFor('well-behaved.js', {
        capabilities: ['providers'],
        env: { FIX_RESULT_PATCH: JSON.stringify({ providers: [{ ref: 'plugin/other/x' }] }) },
      }),
    });
    const err = await startError(s.start());
    assert.equal(err.info.reason, 'capability_not_declared');
    assert.match(err.info.message, /plugin\/other\/x/);
  });

  it('accepts declared subscriptions, providers and actions; drops the action set on one bad id', async () => {
    const ok = fleet.make({
      plugin: pluginFor('well-behaved.js', {
        capabilities: ['providers', 'ui'],
        replaces: ['system_prompt'],
        env: {
          FIX_RESULT_PATCH: JSON.stringify({
            subscriptions: ['input.receive'],
            replaces: ['system_prompt'],
            providers: [{ ref: 'plugin/fixture/m' }],
            uiActions: [
              { actionId: 'demo', label: 'Demo password=hunter2' },
              { actionId: 'demo', label: 'dup' },
              { actionId: 'other-1' },
            ],
          }),
        },
      }),
    });
    await ok.start();
    assert.deepEqual(ok.uiActions, [{ actionId: 'demo', label: 'Demo password=[REDACTED]' }, { actionId: 'other-1' }]);

    const logger = new MemoryLogger();
    const bad = fleet.make({
      logger,
      plugin: pluginFor(
        'well-behaved.js',
        {
          capabilities: ['ui'],
          env: { FIX_RESULT_PATCH: JSON.stringify({ uiActions: [{ actionId: 'demo' }, { actionId: 'Bad_Id' }] }) },
        },
        'fixture2',
      ),
    });
    await bad.start();
    assert.equal(bad.state, 'running');
    assert.deepEqual(bad.uiActions, []);
    assert.ok(logger.lines.some((l) => l.startsWith('warn') && l.includes('Bad_Id')));
  });

  it('fails start with protocol_error when the sidecar publishes before initialized, killing the child (case 24)', async () => {
    const s = fleet.make({
      plugin: pluginFor('early-traffic.js'),
      handlers: { 'host/ui/publish': () => ({ accepted: true }) },
    });
    const err = await startError(s.start());
    assert.equal(err.info.reason, 'protocol_error');
    assert.match(err.info.message, /before extension\/initialized/);
    assert.equal(alive(s.pid), false);
  });

  it('fails start after the handshake timeout when initialize is never answered, killing the child (case 26)', async () => {
    const s = fleet.make({ plugin: pluginFor('never-answers.js'), timeouts: { handshakeMs: 150 } });
    const started = Date.now();
    const err = await startError(s.start());
    const took = Date.now() - started;
    assert.ok(took >= 140 && took < 2500, `took ${took} ms`);
    assert.equal(err.info.stage, 'handshake');
    assert.match(err.info.message, /: did not answer extension\/initialize within 150 ms, counted from spawn$/);
    assert.equal(err.info.reason, 'intercept_timeout', 'the reference reason for a request deadline, not internal');
    assert.equal(alive(s.pid), false);
  });

  it('reports a crash during the handshake with exit code and redacted stderr tail', async () => {
    const s = fleet.make({ plugin: pluginFor('crash-handshake.js') });
    const err = await startError(s.start());
    assert.equal(err.info.stage, 'handshake');
    assert.equal(err.info.reason, 'provider_interrupted');
    assert.equal(err.info.exitCode, 7);
    assert.match(err.info.stderrTail, /cannot reach upstream with token=\[REDACTED\]/);
    assert.ok(!err.info.stderrTail.includes('supersecret42'));
    assert.ok(err.info.elapsedMs >= 0);
  });

  it('returns the same promise for a second start while starting, and restarts after a failed first start', async () => {
    const scratchEnv = { FIX_RESULT_PATCH: JSON.stringify({ protocolVersion: '2' }) };
    const plugin = pluginFor('well-behaved.js', { env: scratchEnv });
    const s = fleet.make({ plugin });
    const a = s.start();
    assert.equal(s.start(), a);
    await startError(a);
    delete plugin.runtime.env.FIX_RESULT_PATCH;
    await s.restart({ ...SESSION, generation: 4 });
    assert.equal(s.state, 'running');
    assert.equal(s.session.generation, 4);
  });
});

describe('sidecar: shutdown and crash (§2.6, §2.7)', () => {
  const ctx = useFleet();
  const { fleet } = ctx;

  it('sends extension/shutdown {timeoutMillis}, then closes stdin; orderly exit is not a crash (cases 28, 29)', async () => {
    const s = fleet.make({
      plugin: pluginFor('well-behaved.js', { env: { FIX_RECORD: ctx.scratch.file('rx') } }),
      timeouts: { shutdownRequestMs: 5000 },
    });
    const crashes: FailureInfo[] = [];
    s.onCrash((i) => crashes.push(i));
    const states: SidecarState[] = [];
    await s.start();
    s.onStateChange((st) => states.push(st));
    const pid = s.pid;
    await s.stop();
    const rx = ctx.scratch.records('rx') as ({ method?: string; params?: unknown } | string)[];
    assert.deepEqual(rx.slice(-2), [
      { jsonrpc: '2.0', id: 2, method: 'extension/shutdown', params: { timeoutMillis: 5000 } },
      'EOF',
    ]);
    assert.deepEqual(states, ['stopping', 'stopped']);
    assert.equal(alive(pid), false);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(crashes.length, 0);
    await assert.rejects(
      s.request('extension/intercept', INTERCEPT),
      (e: ProtocolError) => e.reason === 'provider_interrupted',
    );
  });

  it('kills a sidecar that ignores shutdown, SIGTERM and EOF within timeout + grace + reap; a second stop returns at once (case 28)', async () => {
    const t = { shutdownRequestMs: 200, exitGraceMs: 100, reapMs: 1000 };
    const s = fleet.make({
      plugin: pluginFor('ignores-shutdown.js', { env: { FIX_RECORD: ctx.scratch.file('rx') } }),
      timeouts: t,
    });
    await s.start();
    const pid = s.pid;
    const started = Date.now();
    const first = s.stop();
    assert.equal(s.state, 'stopping');
    assert.equal(s.stop(), first, 'same promise while stopping');
    await first;
    const took = Date.now() - started;
    assert.ok(took >= t.shutdownRequestMs + t.exitGraceMs - 10, `took ${took} ms`);
    assert.ok(took < t.shutdownRequestMs + t.exitGraceMs + t.reapMs, `took ${took} ms`);
    assert.equal(alive(pid), false);
    const again = Date.now();
    await s.stop();
    assert.ok(Date.now() - again < 100, 'second stop returns immediately');
    const rx = ctx.scratch.rawRecords('rx');
    assert.ok(rx.some((l) => l.includes('"extension/shutdown"')));
    assert.ok(rx.includes('EOF'), 'stdin was closed before the kill');
  });

  it('on a crash mid-intercept: the pending call fails, onCrash fires once, later calls fail fast, no restart (case 30)', async () => {
    const rx = ctx.scratch.file('rx');
    const s = fleet.make({ plugin: pluginFor('well-behaved.js', { env: { FIX_INTERCEPT: 'hang', FIX_RECORD: rx } }) });
    const crashes: FailureInfo[] = [];
    s.onCrash((i) => crashes.push(i));
    await s.start();
    const pending = s.request('extension/intercept', INTERCEPT);
    // Mid-intercept: the sidecar has read the call it will never answer.
    await waitFor(
      () => ctx.scratch.records('rx').some((f) => (f as { method?: string }).method === 'extension/intercept'),
      {
        timeoutMs: 5000,
        what: 'the sidecar to read the intercept',
        intervalMs: 5,
      },
    );
    process.kill(s.pid as number, 'SIGKILL');
    await assert.rejects(pending, (e: ProtocolError) => e.reason === 'provider_interrupted');
    await waitFor(() => crashes.length === 1, { timeoutMs: 5000, what: 'crashes.length === 1', intervalMs: 5 });
    assert.equal(s.state, 'crashed');
    assert.equal(crashes[0].stage, 'running');
    assert.equal(crashes[0].reason, 'provider_interrupted');
    assert.equal(crashes[0].signal, 'SIGKILL');
    assert.match(crashes[0].message, /plugin fixture crashed/);
    const t0 = Date.now();
    await assert.rejects(
      s.request('extension/intercept', INTERCEPT),
      (e: ProtocolError) => e.reason === 'provider_interrupted' && /crashed/.test(e.message),
    );
    assert.ok(Date.now() - t0 < 100, 'fails fast');
    assert.equal(s.sendEvent({ event: 'session.start', payload: {} }), false);
    // Both ways a crash is seen (the process's exit, the end of its connection) have come once the
    // process is closed; one turn of the event loop runs whatever they started.
    await s.processClosed();
    await new Promise((r) => setImmediate(r));
    assert.equal(crashes.length, 1, 'exactly once');
    assert.equal(s.state, 'crashed', 'no automatic restart');
    await s.restart();
    assert.equal(s.state, 'running', 'restart works from crashed');
  });

  it('treats a sidecar exiting on a request as a crash with its exit code (crash later)', async () => {
    const s = fleet.make({ plugin: pluginFor('well-behaved.js', { env: { FIX_INTERCEPT: 'crash' } }) });
    const crashes: FailureInfo[] = [];
    s.onCrash((i) => crashes.push(i));
    await s.start();
    await assert.rejects(
      s.request('extension/intercept', INTERCEPT),
      (e: ProtocolError) => e.reason === 'provider_interrupted',
    );
    await waitFor(() => crashes.length === 1, { timeoutMs: 5000, what: 'crashes.length === 1', intervalMs: 5 });
    assert.equal(crashes[0].exitCode, 3);
  });

  it('stop() during startup cancels the handshake and leaves the sidecar stopped', async () => {
    const s = fleet.make({ plugin: pluginFor('never-answers.js'), timeouts: { handshakeMs: 10_000 } });
    const starting = s.start();
    await waitFor(() => s.pid !== undefined, { timeoutMs: 5000, what: 's.pid !== undefined', intervalMs: 5 });
    const pid = s.pid;
    await s.stop();
    const err = await startError(starting);
    assert.match(err.info.message, /cancelled/);
    assert.equal(s.state, 'stopped');
    assert.equal(alive(pid), false);
  });

  it('numbers intercepts per connection from 1', async () => {
    const s = fleet.make({ plugin: pluginFor('well-behaved.js') });
    await s.start();
    assert.deepEqual([s.nextInterceptSeq(), s.nextInterceptSeq(), s.nextInterceptSeq()], [1, 2, 3]);
    await s.restart();
    assert.equal(s.nextInterceptSeq(), 1);
  });
});
