// The protocol trace (issue 42 item 3): a real v1 and a real v2 sidecar recorded through the
// connection's frame tap — every frame both ways, requests paired with their answers (latency),
// sizes, the hook point and surface members, secrets redacted, the ring bounded — and
// `reasonix-host replay` playing the NDJSON back against the same folder.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadPlugins } from '../../../src/cli/loadPlugin';
import { Sidecar } from '../../../src/host/sidecar';
import { filterTrace, traceFromNdjson, traceToNdjson, TraceRing } from '../../../src/host/trace';
import { countWordsPlugin, pluginFolder } from '../../support/plugins';
import { runCli, SIDECARS } from '../cli/support';

const SECRET = 'sk-live-abcdef0123456789abcdef0123';

async function record(dir: string, work: (s: Sidecar) => Promise<void>): Promise<TraceRing> {
  const [plugin] = await loadPlugins([dir]);
  const ring = new TraceRing();
  const s = new Sidecar({
    plugin,
    session: { sessionId: 'trace-test', workspaceRoot: dir, generation: 1 },
    uiHost: 'desktop',
    frameTap: () => ring.tap,
  });
  try {
    await s.start();
    await work(s);
  } finally {
    await s.stop();
  }
  return ring;
}

describe('trace: a protocol trace of a real sidecar, and its replay (issue 42)', function () {
  this.timeout(30_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'rx-trace-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('v1: every frame both ways, paired with latency and size, hook points and surfaces named, secrets redacted', async () => {
    pluginFolder(dir, 'secrets', {
      command: process.execPath,
      args: [path.join(SIDECARS, 'secret-everywhere.js')],
      env: { FIX_SECRET: `api_key=${SECRET}` },
      intercepts: ['tool.before'],
      capabilities: ['ui', 'providers'],
    });
    const ring = await record(dir, async (s) => {
      await new Promise((r) => setTimeout(r, 300)); // its three publishes after initialized
      await s.request('extension/intercept', {
        event: 'tool.before',
        seq: 1,
        timeoutMillis: 5000,
        payload: { toolName: 'shell', args: {} },
      });
    });
    const all = ring.snapshot();
    const text = traceToNdjson(all);
    assert.ok(!text.includes(SECRET), 'no secret in the trace');
    assert.match(text, /REDACTED|\*\*\*|redacted/i);
    const init = all.find((e) => e.method === 'extension/initialize' && e.kind === 'request')!;
    assert.equal(init.dir, 'out');
    const answer = all.find((e) => e.seq === init.pairedSeq)!;
    assert.equal(answer.dir, 'in');
    assert.equal(answer.kind, 'response');
    assert.equal(answer.pairedSeq, init.seq);
    assert.equal(answer.method, 'extension/initialize');
    assert.ok(answer.latencyMs! >= 0);
    assert.ok(answer.bytes > 50);
    // Direction and order: initialize → its answer → initialized → publishes … → shutdown.
    assert.deepEqual(
      all
        .filter((e) => e.kind !== 'response' && e.kind !== 'error')
        .map((e) => `${e.dir} ${e.method}`)
        .slice(0, 3),
      ['out extension/initialize', 'out extension/initialized', 'in host/ui/publish'],
    );
    const publishes = all.filter((e) => e.method === 'host/ui/publish' && e.kind === 'request');
    assert.deepEqual(
      publishes.map((e) => e.surface),
      ['status:st', 'card:card', 'notification:note'],
    );
    for (const p of publishes) assert.ok(p.pairedSeq, `the host's answer to ${p.surface} is paired`);
    const blocked = filterTrace(all, { hookPoint: 'tool.before' });
    assert.deepEqual(
      blocked.map((e) => `${e.dir} ${e.kind}`),
      ['out request', 'in response'],
    );
    assert.deepEqual(filterTrace(all, { method: 'host/ui/' }).length, 6);
    assert.ok(all.some((e) => e.method === 'extension/shutdown'));
    assert.deepEqual(traceFromNdjson(text), all);
  });

  it('is bounded: the oldest frames go first, by count and by bytes', () => {
    const ring = new TraceRing({ maxEntries: 3, maxBytes: 1_000_000 });
    for (let i = 1; i <= 5; i++) ring.record('out', JSON.stringify({ jsonrpc: '2.0', method: 'm', id: i }), 40);
    assert.deepEqual(
      ring.snapshot().map((e) => e.id),
      [3, 4, 5],
    );
    const small = new TraceRing({ maxBytes: 100 });
    for (let i = 1; i <= 5; i++) small.record('in', JSON.stringify({ jsonrpc: '2.0', id: i, result: {} }), 40);
    assert.deepEqual(
      small.snapshot().map((e) => e.id),
      [4, 5],
    );
    const big = new TraceRing({ maxFrameChars: 50 });
    const e = big.record(
      'out',
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'x/y', params: { t: 'a'.repeat(100) } }),
      130,
    );
    assert.equal(e.truncated, true);
    assert.equal(e.method, 'x/y');
    assert.equal(e.id, 7);
    assert.equal(big.record('in', 'not json', 9).kind, 'invalid');
  });

  it('v2: a tool call traced, then replayed by reasonix-host replay with every answer as recorded', async () => {
    countWordsPlugin(dir);
    const ring = await record(dir, async (s) => {
      const r = await s.request<{ content: string }>('extension/tool/call', {
        name: 'count_words',
        arguments: { text: 'one two three' },
        timeoutMillis: 5000,
      });
      assert.equal(r.content, '3');
    });
    const call = filterTrace(ring.snapshot(), { method: 'extension/tool/call' });
    assert.deepEqual(
      call.map((e) => `${e.dir} ${e.kind}`),
      ['out request', 'in response'],
    );
    const file = path.join(dir, 'trace.ndjson');
    writeFileSync(file, traceToNdjson(ring.snapshot()));
    const res = await runCli(['replay', dir, file, '--json']);
    const report = JSON.parse(res.stdout);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.equal(report.ok, true);
    assert.deepEqual(
      report.steps
        .filter((s: { outcome: string }) => s.outcome !== 'sent')
        .map((s: { method: string; outcome: string }) => `${s.method} ${s.outcome}`),
      ['extension/initialize same', 'extension/tool/call same', 'extension/shutdown same'],
    );
  });

  it('replay says what differs when the sidecar now answers otherwise, and exits 1', async () => {
    countWordsPlugin(dir);
    const ring = await record(dir, async (s) => {
      await s.request('extension/tool/call', { name: 'count_words', arguments: { text: 'a b' }, timeoutMillis: 5000 });
    });
    const entries = ring.snapshot();
    // The recorded answer said 3 words: the sidecar's 2 is a difference.
    const answer = entries.find((e) => e.method === 'extension/tool/call' && e.dir === 'in')!;
    (answer.frame as { result: { content: string } }).result.content = '3';
    const file = path.join(dir, 'trace.ndjson');
    writeFileSync(file, traceToNdjson(entries));
    const res = await runCli(['replay', dir, file]);
    assert.equal(res.code, 1);
    assert.match(res.stdout, /extension\/tool\/call id \d+: differs/);
    assert.match(res.stdout, /now: .*"content":"2"/);
    writeFileSync(path.join(dir, 'other.ndjson'), '{"a":1}\n');
    const bad = await runCli(['replay', dir, path.join(dir, 'other.ndjson')]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /not a trace entry/);
  });
});
