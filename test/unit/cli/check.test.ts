// `reasonix-host check` against sidecars the CLI author did not write: the samples and the
// engine's fixture sidecars, each wrapped in a throwaway plugin folder.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturePlugin, HELLO, parseJson, REPO, runCli, SHOWCASE, SIDECARS, tempDir } from './support';
import { pluginFolderV2 } from '../../support/plugins';

interface Report {
  ok: boolean;
  plugin: string | null;
  stage: string;
  reason: string | null;
  message: string;
  initialize: {
    name: string;
    version: string;
    protocolVersion: string;
    providers?: { ref: string }[];
    uiActions?: { actionId: string }[];
  } | null;
  timings: { readyMs: number | null; shutdownMs: number | null };
  violations: { reason: string; stage: string; message: string }[];
  stderrTail: string;
  dependencies: { state: string; unmet: { key: string; reason: string }[]; text: string } | null;
}

const KEYS = [
  'ok',
  'plugin',
  'protocol',
  'stage',
  'reason',
  'message',
  'initialize',
  'timings',
  'violations',
  'stderrTail',
  'dependencies',
  'warnings',
];

async function check(args: string[]): Promise<{ code: number | null; report: Report; stderr: string }> {
  const r = await runCli(['check', ...args, '--json']);
  const report = parseJson<Report>(r.stdout);
  assert.deepEqual(Object.keys(report).sort(), [...KEYS].sort(), 'the report has exactly the documented fields');
  return { code: r.code, report, stderr: r.stderr };
}

describe('reasonix-host check', function () {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir('check')));
  afterEach(() => tmp.cleanup());

  it('passes examples/showcase with its handshake, timings and no violations (exit 0)', async () => {
    const { code, report } = await check([SHOWCASE]);
    assert.equal(code, 0, report.message);
    assert.equal(report.ok, true);
    assert.equal(report.plugin, 'showcase');
    assert.equal(report.reason, null);
    assert.equal(report.initialize?.name, 'showcase');
    assert.equal(report.initialize?.protocolVersion, '2');
    assert.deepEqual(
      report.initialize?.providers?.map((p) => p.ref),
      ['plugin/showcase/echo/echo-1'],
    );
    assert.ok(report.initialize?.uiActions?.some((a) => a.actionId === 'pick-theme'));
    assert.ok(typeof report.timings.readyMs === 'number' && report.timings.readyMs >= 0);
    assert.ok(typeof report.timings.shutdownMs === 'number' && report.timings.shutdownMs >= 0);
    assert.deepEqual(report.violations, []);
    assert.match(report.message, /conforms/);
  });

  it('passes examples/hello and the well-behaved fixture (exit 0)', async () => {
    const hello = await check([HELLO]);
    assert.equal(hello.code, 0, hello.report.message);
    assert.equal(hello.report.plugin, 'hello');
    const fixture = await check([fixturePlugin(tmp.dir, 'good', 'well-behaved.js')]);
    assert.equal(fixture.code, 0, fixture.report.message);
    assert.equal(fixture.report.plugin, 'good');
    assert.equal(fixture.report.initialize?.name, 'fixture');
  });

  it('a v2 consumer: Inactive alone (missing required capability), Active --with its provider; its sidecar is checked either way', async () => {
    const dependent = join(SIDECARS, 'dependent.js');
    const need = { namespace: 'acme', kind: 'index', id: 'search', versionRange: '>=1.0.0,<2.0.0' };
    const consumer = pluginFolderV2(
      join(tmp.dir, 'consumer'),
      'consumer',
      { command: process.execPath, args: [dependent] },
      { requires: [need] },
    );
    const provider = pluginFolderV2(
      join(tmp.dir, 'provider'),
      'provider',
      { command: process.execPath, args: [dependent] },
      {
        provides: [{ namespace: 'acme', kind: 'index', id: 'search', version: '1.4.0' }],
      },
    );
    const alone = await check([consumer]);
    assert.equal(alone.code, 0, alone.report.message);
    assert.equal(alone.report.dependencies?.state, 'inactive');
    assert.deepEqual(
      alone.report.dependencies?.unmet.map((u) => [u.key, u.reason]),
      [['acme/index/search', 'dependency_unsatisfied']],
    );
    assert.equal(alone.report.dependencies?.text, 'Inactive — missing required capability acme/index/search');
    const beside = await check([consumer, '--with', provider]);
    assert.equal(beside.report.dependencies?.state, 'active');
    assert.equal(beside.report.dependencies?.text, 'Active — acme/index/search from provider');
    const text = await runCli(['check', consumer]);
    assert.match(
      text.stdout,
      /dependencies: Inactive — missing required capability acme\/index\/search \(the extension would not start it; checked anyway\)/,
    );
    const v1 = await check([HELLO]);
    assert.equal(v1.report.dependencies, null, 'nothing required, nothing to say');
  });

  it('a {} answer to extension/shutdown (the public Python sidecars) conforms with a warning, as Reasonix ignores it', async () => {
    const { code, report } = await check([join(REPO, 'test', 'fixtures', 'v2', 'python-tools')]);
    assert.equal(code, 0, report.message);
    assert.equal(report.ok, true);
    assert.match(report.message, /conforms except for 1 warning/);
    assert.deepEqual(report.violations, []);
    const warnings = (report as unknown as { warnings: { reason: string; stage: string; message: string }[] }).warnings;
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0].stage, 'shutdown');
    assert.match(warnings[0].message, /schema refuses .*Answer \{"accepted": true\} instead/);
  });

  it('prints a human report without --json', async () => {
    const r = await runCli(['check', HELLO]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^✔ hello 0\.1\.0 conforms/);
    assert.match(r.stdout, /actions \[say-hello\]/);
  });

  it('fails a sidecar that answers with protocol version 2: handshake, unsupported_version', async () => {
    const dir = fixturePlugin(tmp.dir, 'v2', 'well-behaved.js', {
      env: { FIX_RESULT_PATCH: JSON.stringify({ protocolVersion: '2' }) },
    });
    const { code, report } = await check([dir]);
    assert.equal(code, 1);
    assert.equal(report.ok, false);
    assert.equal(report.plugin, 'v2');
    assert.equal(report.stage, 'handshake');
    assert.equal(report.reason, 'unsupported_version');
    assert.match(report.message, /protocolVersion 2/);
    assert.equal(report.initialize, null);
    assert.deepEqual(report.violations, [], 'the failure is reported once, not repeated as a violation');
  });

  it('fails a sidecar that publishes before extension/initialized: handshake, protocol_error', async () => {
    const { code, report } = await check([fixturePlugin(tmp.dir, 'early', 'early-traffic.js')]);
    assert.equal(code, 1);
    assert.equal(report.stage, 'handshake');
    assert.equal(report.reason, 'protocol_error');
    assert.match(report.message, /before extension\/initialized/);
  });

  // Issue 12 §3: what `check` used to call conforming.
  it('fails a stray console.log on stdout before extension/initialized: protocol_error, stage handshake', async () => {
    const { code, report } = await check([
      fixturePlugin(tmp.dir, 'chatty', 'well-behaved.js', { env: { FIX_STRAY_STDOUT: 'booting the plugin' } }),
    ]);
    assert.equal(code, 1, report.message);
    assert.equal(report.ok, false);
    assert.equal(report.reason, 'protocol_error');
    assert.equal(report.stage, 'handshake');
    assert.match(report.message, /not JSON/);
    assert.match(report.message, /booting the plugin/);
  });

  it('fails a non-JSON stdout line after extension/initialized: protocol_error, stage running', async () => {
    const { code, report } = await check([
      fixturePlugin(tmp.dir, 'chatty2', 'well-behaved.js', {
        env: { FIX_LINES: JSON.stringify(['debug: got initialized']) },
      }),
    ]);
    assert.equal(code, 1, report.message);
    assert.equal(report.reason, 'protocol_error');
    assert.equal(report.stage, 'running');
    assert.deepEqual(
      report.violations.map((v) => v.stage),
      ['running'],
    );
    assert.match(report.violations[0].message, /debug: got initialized/);
  });

  it('fails JSON values that are not JSON-RPC messages: protocol_error, stage running', async () => {
    for (const line of ['42', '{"hello":"world"}', '[]']) {
      const { code, report } = await check([
        fixturePlugin(tmp.dir, `value${line.length}`, 'well-behaved.js', {
          env: { FIX_LINES: JSON.stringify([line]) },
        }),
      ]);
      assert.equal(code, 1, `${line}: ${report.message}`);
      assert.equal(report.reason, 'protocol_error', line);
      assert.equal(report.stage, 'running', line);
      assert.match(report.message, /not a JSON-RPC 2\.0 message/, line);
    }
  });

  it('fails a sidecar that exits instead of answering extension/shutdown: provider_interrupted, stage shutdown', async () => {
    for (const how of ['exit', 'sigkill']) {
      const { code, report } = await check([
        fixturePlugin(tmp.dir, `quitter-${how}`, 'well-behaved.js', { env: { FIX_SHUTDOWN: how } }),
      ]);
      assert.equal(code, 1, `${how}: ${report.message}`);
      assert.equal(report.reason, 'provider_interrupted', how);
      assert.equal(report.stage, 'shutdown', how);
      assert.match(report.message, /instead of answering extension\/shutdown/, how);
    }
  });

  it('fails a sidecar that answers shutdown but does not exit within the grace: shutdown_timeout, stage shutdown', async () => {
    const { code, report } = await check([
      fixturePlugin(tmp.dir, 'linger', 'well-behaved.js', { env: { FIX_SHUTDOWN: 'linger' } }),
    ]);
    assert.equal(code, 1, report.message);
    assert.equal(report.reason, 'shutdown_timeout');
    assert.equal(report.stage, 'shutdown');
    assert.deepEqual(
      report.violations.map((v) => v.reason),
      ['shutdown_timeout'],
      'reported once',
    );
    assert.match(report.message, /did not exit within 750 ms/);
  });

  it('gives a sidecar that publishes right behind its initialize result the same verdict every time', async () => {
    const publish = JSON.stringify({
      jsonrpc: '2.0',
      id: 'p1',
      method: 'host/ui/publish',
      params: {
        surfaceId: 's',
        sessionId: 'reasonix-host-check',
        generation: 1,
        kind: 'status',
        payload: { label: 'hi' },
      },
    });
    const verdicts: string[] = [];
    for (let i = 0; i < 8; i++) {
      const { code, report } = await check([
        fixturePlugin(tmp.dir, `eager${i}`, 'well-behaved.js', {
          env: { FIX_AFTER_RESULT: JSON.stringify([publish]) },
        }),
      ]);
      verdicts.push(`${code} ${report.stage} ${report.reason}`);
      assert.match(report.message, /before extension\/initialized/);
    }
    assert.deepEqual(verdicts, Array(8).fill('1 handshake protocol_error'));
  });

  it('fails a sidecar that never answers within --handshake-timeout 300', async () => {
    const started = Date.now();
    const { code, report } = await check([
      fixturePlugin(tmp.dir, 'mute', 'never-answers.js'),
      '--handshake-timeout',
      '300',
    ]);
    assert.equal(code, 1);
    assert.equal(report.stage, 'handshake');
    assert.match(report.message, /did not answer extension\/initialize within 300 ms, counted from spawn/);
    assert.equal(report.reason, 'intercept_timeout');
    assert.ok(Date.now() - started < 10000, 'the handshake bound is honoured');
  });

  it('fails a sidecar that crashes during the handshake, with its stderr redacted', async () => {
    const { code, report } = await check([fixturePlugin(tmp.dir, 'crashy', 'crash-handshake.js')]);
    assert.equal(code, 1);
    assert.equal(report.stage, 'handshake');
    assert.equal(report.reason, 'provider_interrupted');
    assert.match(report.stderrTail, /fatal: cannot reach upstream/);
    assert.doesNotMatch(report.stderrTail, /supersecret42/);
  });

  it('fails a manifest that is not JSON: stage manifest, names the file', async () => {
    const dir = join(tmp.dir, 'broken');
    mkdirSync(dir);
    writeFileSync(join(dir, 'reasonix-plugin.json'), '{"apiVersion": ');
    const { code, report } = await check([dir]);
    assert.equal(code, 1);
    assert.equal(report.stage, 'manifest');
    assert.equal(report.reason, 'invalid_params');
    assert.match(report.message, /reasonix-plugin\.json is not valid JSON/);
    assert.equal(report.timings.readyMs, null);
  });

  it('fails a folder without a manifest: stage manifest', async () => {
    const { code, report } = await check([tmp.dir]);
    assert.equal(code, 1);
    assert.equal(report.stage, 'manifest');
    assert.match(report.message, /reasonix-plugin\.json (does not exist|was not found)/);
  });

  it('fails a relative runtime.command before spawning anything, naming the field', async () => {
    const { code, report } = await check([fixturePlugin(tmp.dir, 'relative', 'well-behaved.js', { command: 'node' })]);
    assert.equal(code, 1);
    assert.ok(report.stage === 'manifest' || report.stage === 'spawn', report.stage);
    assert.match(report.message, /runtime\.command/);
    assert.match(report.message, /absolute/);
  });
});
