// Dispatch through real child processes: the fixture interceptor sidecar behind the real Sidecar.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Sidecar } from '../../../src/host/sidecar';
import type { RuntimeBlock } from '../../../src/host/plugins/types';
import { scriptPlugin } from '../../support/plugins';
import { InterceptDispatcher, interceptClientFor, type DispatcherOptions } from '../../../src/host/intercepts';
import { waitFor } from '../../support/wait';

const FIXTURE = resolve(__dirname, '../../../../test/fixtures/interceptors/interceptor.js');

interface Rule {
  decision?: string;
  reason?: string;
  replacement?: unknown;
  appendText?: string;
  echo?: boolean;
  externalizeBack?: boolean;
  badSha?: boolean;
  inlineAndEnvelope?: boolean;
  delayMs?: number;
  never?: boolean;
  crash?: boolean;
}

interface Recorded {
  plugin: string;
  kind: 'intercept' | 'event';
  event: string;
  seq?: number;
  timeoutMillis?: number;
  externalized: boolean;
  chunks?: number;
  payload: unknown;
}

describe('intercept dispatch through real sidecars (HOST_SPEC §4, §5)', function () {
  this.timeout(20000);
  let dir: string;
  let sidecars: Sidecar[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rx-intercepts-'));
  });
  afterEach(async () => {
    await Promise.all(sidecars.map((s) => s.stop()));
    sidecars = [];
    rmSync(dir, { recursive: true, force: true });
  });

  const recordFile = (id: string) => join(dir, `${id}.ndjson`);
  const recorded = (id: string): Recorded[] =>
    existsSync(recordFile(id))
      ? readFileSync(recordFile(id), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Recorded)
      : [];

  async function start(
    id: string,
    runtime: Partial<RuntimeBlock>,
    points: Record<string, Rule> = {},
  ): Promise<Sidecar> {
    const plugin = scriptPlugin(id, FIXTURE, {
      root: dir,
      runtime: {
        env: { INTERCEPTOR_CONFIG: JSON.stringify({ record: recordFile(id), points }) },
        capabilities: runtime.replaces?.length ? ['interceptors', 'strategies'] : ['interceptors'],
        ...runtime,
      },
    });
    const s = new Sidecar({
      plugin,
      session: { sessionId: 's1', workspaceRoot: dir, generation: 1 },
      uiHost: 'headless',
      timeouts: { shutdownRequestMs: 1000, exitGraceMs: 200, reapMs: 2000 },
    });
    sidecars.push(s);
    await s.start();
    return s;
  }

  async function dispatcher(
    specs: Array<[string, Partial<RuntimeBlock>, Record<string, Rule>?]>,
    opts?: DispatcherOptions,
  ): Promise<InterceptDispatcher> {
    const started = await Promise.all(specs.map(([id, rt, pts]) => start(id, rt, pts)));
    return new InterceptDispatcher(
      started.map((s, i) => interceptClientFor(s, i)),
      opts,
    );
  }

  it('3-plugin chain runs by priority then id, each seeing the previous replacement (cases 31, 32)', async () => {
    const d = await dispatcher([
      ['gamma', { intercepts: ['input.receive'], priority: 10 }, { 'input.receive': { appendText: '|gamma' } }],
      ['beta', { intercepts: ['input.receive'], priority: -5 }, { 'input.receive': { appendText: '|beta' } }],
      ['alpha', { intercepts: ['input.receive'], priority: 10 }, { 'input.receive': { appendText: '|alpha' } }],
    ]);
    const out = await d.dispatch('input.receive', { text: 'hi' });
    assert.equal(out.decision, 'continue');
    assert.deepEqual(out.payload, { text: 'hi|beta|alpha|gamma' });
    assert.deepEqual(out.changedBy, ['beta', 'alpha', 'gamma']);
    assert.deepEqual(recorded('alpha')[0].payload, { text: 'hi|beta' });
    assert.deepEqual(recorded('gamma')[0].payload, { text: 'hi|beta|alpha' });
  });

  it('block with an API key in the reason: aborted, redacted, later interceptors not called (case 33)', async () => {
    const secret = 'sk-live0123456789abcdefghijklmnop';
    const d = await dispatcher([
      [
        'a',
        { intercepts: ['tool.before'] },
        { 'tool.before': { decision: 'block', reason: `denied, api_key=${secret}` } },
      ],
      ['b', { intercepts: ['tool.before'], priority: 5 }],
    ]);
    const out = await d.dispatch('tool.before', { name: 'shell', arguments: '{"cmd":"rm"}' });
    assert.equal(out.decision, 'block');
    assert.equal(out.blockedBy, 'a');
    assert.ok(out.reason?.startsWith('denied'));
    assert.ok(!out.reason?.includes(secret), out.reason);
    // b is never asked; like every chain member it does observe the blocked point as an event.
    await waitFor(() => recorded('b').find((r) => r.kind === 'event'), {
      timeoutMs: 5000,
      what: 'the tool.before event to b after a block',
      intervalMs: 10,
    });
    await waitFor(() => recorded('a').find((r) => r.kind === 'event'), {
      timeoutMs: 5000,
      what: 'the tool.before event to a after a block',
      intervalMs: 10,
    });
    assert.equal(recorded('b').filter((r) => r.kind === 'intercept').length, 0);
  });

  it('invalid replacement: optional skipped with a warning, required fails the operation (case 34)', async () => {
    const bad = { 'input.receive': { decision: 'replace', replacement: { text: 'x', unknown: 1 } } };
    const d = await dispatcher([
      ['opt', { intercepts: ['input.receive'] }, bad],
      ['req', { intercepts: ['input.receive'], required: true, priority: 1 }, bad],
    ]);
    const out = await d.dispatch('input.receive', { text: 'hi' });
    assert.equal(out.decision, 'failed');
    assert.equal(out.error?.pluginId, 'req');
    assert.equal(out.error?.reason, 'protocol_error');
    assert.equal(out.warnings.length, 1);
    assert.match(out.warnings[0], /^opt: .*unknown member 'unknown'/);
    assert.deepEqual(recorded('req')[0].payload, { text: 'hi' }, 'the optional ruling was ignored');
  });

  it('allow at tool.before is a violation; allow over a host deny at permission.decision is audited (cases 35, 36)', async () => {
    const d = await dispatcher([
      ['tb', { intercepts: ['tool.before'], required: true }, { '*': { decision: 'allow' } }],
      ['pd', { intercepts: ['permission.decision'] }, { '*': { decision: 'allow', reason: 'I trust it' } }],
      ['late', { intercepts: ['permission.decision'], priority: 1 }],
    ]);
    const tb = await d.dispatch('tool.before', { name: 'read', arguments: '{}' });
    assert.equal(tb.decision, 'failed');
    assert.match(tb.error?.message ?? '', /only legal at permission.decision/);
    const pd = await d.dispatch('permission.decision', {
      name: 'write',
      arguments: '{"p":"x"}',
      readOnly: false,
      hostDecision: 'deny',
    });
    assert.equal(pd.decision, 'allow');
    assert.equal(pd.audit?.length, 1);
    assert.match(pd.audit?.[0] ?? '', /pd.*write.*deny.*I trust it/);
    assert.equal(recorded('late').filter((r) => r.kind === 'intercept').length, 0);
  });

  it('optional timeout warns once and the chain continues; required timeout fails (case 37)', async () => {
    const d = await dispatcher(
      [
        ['slow', { intercepts: ['tool.before'] }, { '*': { never: true } }],
        ['next', { intercepts: ['tool.before'], priority: 1 }],
      ],
      { timeouts: { fastMs: 150, slowMs: 300, ceilingMs: 1000 } },
    );
    const first = await d.dispatch('tool.before', { name: 't', arguments: '{}' });
    const second = await d.dispatch('tool.before', { name: 't', arguments: '{}' });
    assert.equal(first.decision, 'continue');
    assert.equal(first.warnings.length, 1);
    assert.match(first.warnings[0], /slow: .*intercept_timeout/);
    assert.equal(second.warnings.length, 0);
    assert.equal(recorded('next').filter((r) => r.kind === 'intercept').length, 2);
    assert.equal(recorded('slow')[0].timeoutMillis, 150);

    const r = await dispatcher([['req', { intercepts: ['tool.before'], required: true }, { '*': { delayMs: 2000 } }]], {
      timeouts: { fastMs: 150, slowMs: 300, ceilingMs: 1000 },
    });
    const failed = await r.dispatch('tool.before', { name: 't', arguments: '{}' });
    assert.equal(failed.decision, 'failed');
    assert.equal(failed.error?.reason, 'intercept_timeout');
  });

  it('timeoutMillis 600000 goes out as 60000, seq counts from 1 across points (cases 38, 39)', async () => {
    const d = await dispatcher([
      ['c', { intercepts: ['tool.before', 'context.prepare', 'input.receive'], timeoutMillis: 600000 }],
    ]);
    await d.dispatch('tool.before', { name: 't', arguments: '{}' });
    await d.dispatch('context.prepare', { messages: [] });
    await d.dispatch('input.receive', { text: 'x' });
    const calls = recorded('c').filter((r) => r.kind === 'intercept');
    assert.deepEqual(
      calls.map((r) => r.timeoutMillis),
      [60000, 60000, 60000],
    );
    assert.deepEqual(
      calls.map((r) => r.seq),
      [1, 2, 3],
    );
    assert.deepEqual(calls[1].payload, {}, 'context.prepare without messages is {}');
  });

  it('a crash mid-intercept is a failure: optional warns, required fails (case 30 seen from dispatch)', async () => {
    const d = await dispatcher([
      ['crashy', { intercepts: ['tool.after'] }, { '*': { crash: true } }],
      ['after', { intercepts: ['tool.after'], priority: 1 }],
    ]);
    const out = await d.dispatch('tool.after', { name: 't', result: 'ok' });
    assert.equal(out.decision, 'continue');
    assert.match(out.warnings[0], /crashy: .*provider_interrupted/);
    assert.equal(recorded('after').filter((r) => r.kind === 'intercept').length, 1);
  });

  it('system_prompt strategy: continue keeps the default, block fails the build; listeners only observe (case 40)', async () => {
    const prompt = { prompt: 'You are helpful.', workspaceRoot: dir };
    const keep = await dispatcher([
      ['owner', { replaces: ['system_prompt'] }, { '*': { decision: 'continue' } }],
      ['listener', { intercepts: ['system_prompt.build', 'session.start', 'frontend.event'] }],
    ]);
    const ok = await keep.dispatch('system_prompt.build', prompt);
    assert.equal(ok.decision, 'continue');
    assert.deepEqual(ok.payload, prompt);
    await keep.dispatch('session.start', { sessionPath: join(dir, 's.json'), phase: 'start' });
    await keep.dispatch('frontend.event', { kind: 'notice', text: 'hello' });
    const events = await waitFor(
      () => {
        const r = recorded('listener');
        return r.length >= 3 ? r : undefined;
      },
      { timeoutMs: 5000, what: 'three listener events', intervalMs: 10 },
    );
    assert.deepEqual(events.map((r) => `${r.kind}:${r.event}`).sort(), [
      'event:frontend.event',
      'event:session.start',
      'event:system_prompt.build',
    ]);
    await waitFor(() => recorded('owner').find((r) => r.kind === 'event' && r.event === 'system_prompt.build'), {
      timeoutMs: 5000,
      what: 'owner event',
      intervalMs: 10,
    });

    const block = await dispatcher([
      ['blocker', { replaces: ['system_prompt'] }, { '*': { decision: 'block', reason: 'no prompt for you' } }],
    ]);
    const b = await block.dispatch('system_prompt.build', prompt);
    assert.equal(b.decision, 'block');
    assert.equal(b.reason, 'no prompt for you');
  });

  it('system_prompt owner timeout fails the build', async () => {
    const d = await dispatcher([['sleepy', { replaces: ['system_prompt'] }, { '*': { never: true } }]], {
      timeouts: { fastMs: 100, slowMs: 200, ceilingMs: 1000 },
    });
    const out = await d.dispatch('system_prompt.build', { prompt: '', workspaceRoot: dir });
    assert.equal(out.decision, 'failed');
    assert.equal(out.error?.reason, 'intercept_timeout');
  });

  it('64 KiB stays inline, 65,537 bytes goes as a content ref (case 41)', async () => {
    const d = await dispatcher([['c', { intercepts: ['input.receive'] }]]);
    await d.dispatch('input.receive', { text: 'a'.repeat(65536 - 11) });
    await d.dispatch('input.receive', { text: 'b'.repeat(65537 - 11) });
    const [inline, moved] = recorded('c');
    assert.equal(inline.externalized, false);
    assert.equal(moved.externalized, true);
    assert.equal((moved.payload as { text: string }).text.length, 65537 - 11);
  });

  it('100 KiB payload round-trips through content refs, including an externalized replacement (cases 9, 42)', async () => {
    const big = 'z'.repeat(100 * 1024);
    const d = await dispatcher([
      ['echo', { intercepts: ['tool.after'] }, { '*': { echo: true } }],
      ['pointer', { intercepts: ['tool.after'], priority: 1 }, { '*': { externalizeBack: true } }],
      ['watcher', { intercepts: ['tool.after'], priority: 2 }],
    ]);
    const out = await d.dispatch('tool.after', { name: 'read', arguments: '{"p":"f"}', result: big });
    assert.equal(out.decision, 'continue', JSON.stringify(out.error ?? out.warnings));
    assert.deepEqual(out.changedBy, ['echo', 'pointer']);
    assert.deepEqual(out.payload, { name: 'read', arguments: '{"p":"f"}', result: big });
    for (const id of ['echo', 'pointer', 'watcher']) {
      const [call] = recorded(id);
      assert.equal(call.externalized, true, id);
      assert.deepEqual(call.payload, { name: 'read', arguments: '{"p":"f"}', result: big }, id);
    }
    const ev = await waitFor(() => recorded('watcher').find((r) => r.kind === 'event'), {
      timeoutMs: 5000,
      what: 'the externalized tool.after event',
      intervalMs: 10,
    });
    assert.equal(ev.externalized, true);
    assert.equal((ev.payload as { result: string }).result, big);
  });

  it('bad envelopes: inline + envelope and wrong sha256 are protocol errors (case 45)', async () => {
    const payload = { name: 'read', result: 'q'.repeat(70000) };
    const both = await dispatcher([
      ['both', { intercepts: ['tool.after'], required: true }, { '*': { inlineAndEnvelope: true } }],
    ]);
    const o1 = await both.dispatch('tool.after', payload);
    assert.equal(o1.decision, 'failed');
    assert.equal(o1.error?.reason, 'protocol_error');
    assert.match(o1.error?.message ?? '', /both inline and externalized/);
    const sha = await dispatcher([['sha', { intercepts: ['tool.after'], required: true }, { '*': { badSha: true } }]]);
    const o2 = await sha.dispatch('tool.after', payload);
    assert.equal(o2.decision, 'failed');
    assert.equal(o2.error?.reason, 'protocol_error');
    assert.match(o2.error?.message ?? '', /sha256/);
  });
});
