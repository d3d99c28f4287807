// Extension tools (HOST_SPEC_V2 §12; cases V2-26..V2-34, V2-53) through the session engine the
// faces use, against real sidecars: test/fixtures/tools/*.js record every extension/tool/call they
// receive (TOOLS_RECORD), and the interceptor fixture records what the folder's chain saw.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { SessionEngine, ToolCallOutcome } from '../../../src/host/session';
import { MAX_CONCURRENT_TOOL_CALLS, MAX_TOOL_CONTENT_CHARS, TOOL_CALL_BUDGET_MS } from '../../../src/host/tools';
import type { Logger } from '../../../src/host/log';
import { startTestEngine } from '../../support/engine';
import { pluginFolder, pluginFolderV2 } from '../../support/plugins';
import { waitFor } from '../../support/wait';

const REPO = path.resolve(__dirname, '../../../..');
const FIXTURES = path.join(REPO, 'test', 'fixtures', 'tools');
const INTERCEPTOR = path.join(REPO, 'test', 'fixtures', 'interceptors', 'interceptor.js');
const PYTHON = path.join(REPO, 'test', 'fixtures', 'v2', 'python-tools');

const tool = (name: string, readOnly = false) => ({
  name,
  description: `the ${name} tool`,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  readOnly,
});

describe('conformance: extension tools (HOST_SPEC_V2 §12)', function () {
  this.timeout(30_000);
  let base: string;
  let record: string;
  let engine: SessionEngine | undefined;
  const lines: string[] = [];
  const logger: Logger = {
    trace: () => {},
    debug: (m) => lines.push(m),
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
  };

  beforeEach(() => {
    base = mkdtempSync(path.join(tmpdir(), 'rx-tools-'));
    record = path.join(base, 'calls.jsonl');
  });
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
    lines.length = 0;
    rmSync(base, { recursive: true, force: true });
  });

  const recorded = (file = record): Record<string, unknown>[] =>
    existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((r) => r.kind !== 'event') // the interceptor fixture also records session events
      : [];

  /** A v2 tool plugin folder running `fixture` with these tools declared. */
  const toolPlugin = (name: string, fixture: string, tools = [tool('echo')], env: Record<string, string> = {}) =>
    pluginFolderV2(path.join(base, name), name, {
      command: process.execPath,
      args: [path.join(FIXTURES, fixture)],
      capabilities: ['tools'],
      tools,
      env: { TOOLS_RECORD: record, ...env },
    });

  /** A v1 interceptor at the tool points, recording what it saw into `file`. */
  const interceptor = (name: string, file: string, points: Record<string, unknown> = {}) =>
    pluginFolder(path.join(base, name), name, {
      command: process.execPath,
      args: [INTERCEPTOR],
      capabilities: ['interceptors'],
      intercepts: ['tool.before', 'permission.decision', 'tool.after'],
      env: { INTERCEPTOR_CONFIG: JSON.stringify({ record: file, points }) },
    });

  const start = async (folders: string[], tools?: { budgetMs?: number; maxConcurrent?: number }) => {
    engine = await startTestEngine({
      base,
      plugins: folders,
      logger,
      options: { sessionId: 'tools-test', startupBudgetMs: 15_000 },
      deps: { timeouts: { shutdownRequestMs: 500, exitGraceMs: 300, reapMs: 2000 }, ...(tools ? { tools } : {}) },
    });
    return engine;
  };

  const result = (o: ToolCallOutcome) => {
    assert.equal(o.kind, 'result', JSON.stringify(o));
    return o as ToolCallOutcome & { kind: 'result' };
  };
  const failed = (o: ToolCallOutcome) => {
    assert.equal(o.kind, 'failed', JSON.stringify(o));
    return o as ToolCallOutcome & { kind: 'failed' };
  };

  it('V2-26: the chain runs first with the prefixed name, then extension/tool/call {name, arguments, timeoutMillis: 300000}', async () => {
    const seen = path.join(base, 'chain.jsonl');
    const e = await start([
      toolPlugin('word-counter', 'tools.js', [tool('count_words', true)]),
      interceptor('guard', seen),
    ]);
    assert.deepEqual(
      e.tools().map((t) => [t.modelName, t.name, t.readOnly]),
      [['ext__word-counter__count_words', 'count_words', true]],
    );
    const out = result(await e.callTool('ext__word-counter__count_words', { text: 'a b' }));
    assert.equal(out.content, '2');
    const chain = recorded(seen).map((r) => [r.event, (r.payload as Record<string, unknown>)?.name]);
    assert.deepEqual(chain, [
      ['tool.before', 'ext__word-counter__count_words'],
      ['permission.decision', 'ext__word-counter__count_words'],
      ['tool.after', 'ext__word-counter__count_words'],
    ]);
    const perm = recorded(seen)[1].payload as Record<string, unknown>;
    assert.equal(perm.readOnly, true, 'the readOnly hint reaches permission.decision');
    assert.equal(perm.hostDecision, 'allow');
    const [call] = recorded();
    assert.deepEqual(call.params, { name: 'count_words', arguments: { text: 'a b' }, timeoutMillis: 300_000 });
    assert.equal(TOOL_CALL_BUDGET_MS, 300_000);
  });

  it('V2-26: a block at tool.before refuses the call, which never reaches the sidecar', async () => {
    const seen = path.join(base, 'chain.jsonl');
    const e = await start([
      toolPlugin('tools', 'tools.js', [tool('echo'), tool('count_words')]),
      interceptor('guard', seen, {
        'tool.before': { decision: 'block', reason: 'echo is off today' },
      }),
      interceptor('permit', path.join(base, 'permit.jsonl'), {
        'permission.decision': { decision: 'deny', reason: 'not without asking' },
      }),
    ]);
    const blocked = await e.callTool({ pluginId: 'tools', name: 'echo' }, { text: 'x' });
    assert.equal(blocked.kind, 'refused');
    assert.equal((blocked as { point: string }).point, 'tool.before');
    assert.match(
      (blocked as { message: string }).message,
      /Reasonix extension "guard" blocked ext__tools__echo: echo is off today/,
    );
    assert.deepEqual(recorded(), [], 'nothing was sent to the tool');
    assert.ok(
      !recorded(path.join(base, 'permit.jsonl')).some((r) => r.event === 'permission.decision'),
      'a block at tool.before ends the call before permission.decision',
    );
  });

  it('V2-26: a deny at permission.decision refuses the call with the reason; the tool is not called', async () => {
    const e = await start([
      toolPlugin('tools', 'tools.js'),
      interceptor('permit', path.join(base, 'permit.jsonl'), {
        'permission.decision': { decision: 'deny', reason: 'not without asking' },
      }),
    ]);
    const denied = await e.callTool('ext__tools__echo', { text: 'x' });
    assert.equal(denied.kind, 'refused');
    assert.equal((denied as { point: string }).point, 'permission.decision');
    assert.match((denied as { message: string }).message, /"permit" denied ext__tools__echo: not without asking/);
    assert.deepEqual(recorded(), []);
  });

  it('V2-26: {} is sent when the model gave no arguments; tool.before may replace the arguments sent', async () => {
    const seen = path.join(base, 'chain.jsonl');
    const e = await start([
      toolPlugin('tools', 'tools.js'),
      interceptor('rewriter', seen, {
        'tool.before': { decision: 'replace', replacement: { name: 'ext__tools__echo', arguments: '{"text":"safe"}' } },
      }),
    ]);
    const out = result(await e.callTool('ext__tools__echo'));
    assert.equal(out.content, '{"text":"safe"}', 'the replaced arguments are what the tool received');
    assert.deepEqual(recorded()[0].params, { name: 'echo', arguments: { text: 'safe' }, timeoutMillis: 300_000 });
    assert.equal(
      JSON.parse(String((recorded(seen)[0].payload as { arguments: string }).arguments)).constructor,
      Object,
    );
    assert.equal((recorded(seen)[0].payload as { arguments: string }).arguments, '{}', 'no arguments → {}');
  });

  it('V2-27, V2-28: a result is the model’s; isError:true is the tool’s own failure and the sidecar stays healthy', async () => {
    const e = await start([toolPlugin('tools', 'tools.js', [tool('count_words'), tool('fails')])]);
    const ok = result(await e.callTool('ext__tools__count_words', { text: 'one two three' }));
    assert.deepEqual([ok.content, ok.isError], ['3', false]);
    const own = result(await e.callTool('ext__tools__fails', {}));
    assert.deepEqual([own.content, own.isError], ['no key', true]);
    assert.equal(e.plugins()[0].state, 'running');
    assert.equal(result(await e.callTool('ext__tools__count_words', { text: 'a' })).content, '1');
  });

  it('V2-29: a JSON-RPC error is a failed call with the redacted message, not a crash; structured data keeps its reason', async () => {
    const e = await start([toolPlugin('tools', 'tools.js', [tool('refuses'), tool('structured')])]);
    const plain = failed(await e.callTool('ext__tools__refuses', {}));
    assert.equal(plain.reason, 'extension_error');
    assert.equal(plain.code, -32601);
    assert.match(plain.message, /extension tools could not run tool refuses \(JSON-RPC error -32601\)/);
    assert.doesNotMatch(plain.message, /sk-live-abcdef0123456789XYZ/, 'redacted');
    const structured = failed(await e.callTool('ext__tools__structured', {}));
    assert.equal(structured.reason, 'invalid_params');
    assert.equal(e.plugins()[0].state, 'running', 'no crash handling');
  });

  it('V2-30: a result missing content, with an extra member or of the wrong type is a protocol_error failed call', async () => {
    const e = await start([
      toolPlugin('bad', 'bad-result.js', [tool('no-content'), tool('extra-member'), tool('wrong-type')]),
    ]);
    for (const name of ['no-content', 'extra-member', 'wrong-type']) {
      const f = failed(await e.callTool(`ext__bad__${name}`, {}));
      assert.equal(f.reason, 'protocol_error', name);
      assert.match(f.message, new RegExp(`extension bad answered tool ${name} with an invalid result`));
    }
    assert.equal(e.plugins()[0].state, 'running');
  });

  it('V2-31: a sidecar that never answers fails the call at the budget (shrunk here) and its late answer is ignored', async () => {
    const e = await start([toolPlugin('slowpoke', 'never-answers.js', [tool('echo')], { TOOLS_LATE_MS: '700' })], {
      budgetMs: 300,
    });
    const t0 = Date.now();
    const f = failed(await e.callTool('ext__slowpoke__echo', {}));
    assert.ok(Date.now() - t0 < 2_000);
    assert.equal(f.reason, 'timeout');
    assert.match(f.message, /^extension tool timed out after 0.3 s: tool echo of extension slowpoke/);
    await waitFor(() => recorded().some((r) => r.kind === 'late answer'), {
      timeoutMs: 5_000,
      what: 'the late answer',
    });
    await waitFor(() => lines.some((l) => /no call is waiting for it/.test(l)), {
      timeoutMs: 5_000,
      what: 'the late answer to be ignored',
    });
    assert.equal(e.plugins()[0].state, 'running');
  });

  it('V2-32: a sidecar killed mid-call fails the call (provider_interrupted), later calls fail fast, the tool leaves the listing', async () => {
    const e = await start([toolPlugin('fragile', 'crashes-mid-call.js', [tool('echo')])]);
    let changes = 0;
    e.onDidChangeTools(() => changes++);
    assert.equal(e.tools().length, 1);
    const f = failed(await e.callTool('ext__fragile__echo', {}));
    assert.equal(f.reason, 'provider_interrupted');
    assert.match(f.message, /extension fragile crashed or stopped during the call/);
    await waitFor(() => e.plugins()[0].state === 'crashed', { timeoutMs: 5_000, what: 'the crash' });
    const t0 = Date.now();
    const again = failed(await e.callTool('ext__fragile__echo', {}));
    assert.ok(Date.now() - t0 < 200, 'fails fast');
    assert.equal(again.reason, 'provider_interrupted', 'by its name, not as unknown');
    assert.deepEqual(e.tools(), []);
    assert.ok(changes >= 1, 'the listing change was announced');
    assert.equal(recorded().filter((r) => r.kind === 'tool/call').length, 1, 'no restart, no retry');
  });

  it('V2-33: a tool declared in the manifest but not named in InitializeResult.tools is not offered', async () => {
    const e = await start([
      toolPlugin('partial', 'tools.js', [tool('echo'), tool('count_words')], { TOOLS_SERVE: '["echo"]' }),
    ]);
    assert.deepEqual(
      e.tools().map((t) => t.modelName),
      ['ext__partial__echo'],
    );
    const f = failed(await e.callTool('ext__partial__count_words', {}));
    assert.equal(f.reason, 'not_offered');
    assert.deepEqual(recorded(), []);
  });

  it('V2-34: 20 concurrent calls to one sidecar: at most 8 in flight, all complete, in FIFO order', async () => {
    const e = await start([toolPlugin('busy', 'slow.js', [tool('echo')], { TOOLS_DELAY_MS: '150' })]);
    const outs = await Promise.all(Array.from({ length: 20 }, (_, i) => e.callTool('ext__busy__echo', { i })));
    outs.forEach((o, i) => assert.equal(result(o).content, JSON.stringify({ i })));
    const starts = recorded().filter((r) => r.kind === 'start');
    assert.equal(starts.length, 20);
    assert.equal(Math.max(...starts.map((s) => Number(s.inFlight))), MAX_CONCURRENT_TOOL_CALLS);
    assert.deepEqual(
      starts.map((s) => (s.arguments as { i: number }).i),
      Array.from({ length: 20 }, (_, i) => i),
      'queued calls go out in the order they were asked',
    );
  });

  it('cancelled in flight or in the queue, timed out from asking: the connection keeps the budget of a call it sent', async () => {
    const e = await start([toolPlugin('held', 'never-answers.js', [tool('echo')], { TOOLS_LATE_MS: '1500' })], {
      budgetMs: 800,
      maxConcurrent: 1,
    });
    const [inFlight, queued] = [new AbortController(), new AbortController()];
    const a = e.callTool('ext__held__echo', { i: 'a' }, { signal: inFlight.signal });
    const b = e.callTool('ext__held__echo', { i: 'b' }, { signal: queued.signal });
    const c = e.callTool('ext__held__echo', { i: 'c' });
    queued.abort();
    assert.equal(failed(await b).reason, 'cancelled', 'a queued call whose caller aborts');
    await waitFor(() => recorded().length === 1, { timeoutMs: 5_000, what: 'the first call to reach the sidecar' });
    inFlight.abort();
    assert.equal(failed(await a).reason, 'cancelled', 'a call in flight whose caller aborts');
    const timedOut = failed(await c);
    assert.equal(timedOut.reason, 'timeout', 'the next call, sent when the slot freed, at its budget');
    assert.match(timedOut.message, /^extension tool timed out after 0.8 s: tool echo of extension held/);
    const sent = recorded().filter((r) => r.kind === 'tool/call');
    assert.deepEqual(
      sent.map((r) => (r.params as { arguments: { i: string } }).arguments.i),
      ['a', 'c'],
      'the call cancelled in the queue never went out',
    );
    const budget = (sent[1].params as { timeoutMillis: number }).timeoutMillis;
    assert.ok(budget < 800, `a call that waited is sent what is left of its budget (${budget} ms)`);
    await waitFor(() => lines.filter((l) => /no call is waiting for it/.test(l)).length === 2, {
      timeoutMs: 5_000,
      what: 'both late answers to be ignored',
    });
  });

  it('a result past the model’s share is cut with a note; an aborted call is cancelled and its answer ignored', async () => {
    const e = await start([toolPlugin('tools', 'tools.js', [tool('big')])]);
    const cut = result(await e.callTool('ext__tools__big', { size: MAX_TOOL_CONTENT_CHARS + 10 }));
    assert.equal(cut.truncatedFrom, MAX_TOOL_CONTENT_CHARS + 10);
    assert.match(
      cut.content,
      /\[truncated by the Reasonix host: the tool returned 100010 characters; the first 100000 are shown\]$/,
    );
    const ac = new AbortController();
    ac.abort();
    assert.equal(failed(await e.callTool('ext__tools__big', { size: 1 }, { signal: ac.signal })).reason, 'cancelled');
    assert.equal(failed(await e.callTool('ext__nobody__nothing', {})).reason, 'not_offered');
    assert.equal(failed(await e.callTool('ext__tools__big', [1, 2])).reason, 'invalid_params');
  });

  it('V2-53: a stdlib-only Python sidecar: two tools, an isError result naming the missing key, its {} shutdown answer tolerated', async () => {
    const e = await start([PYTHON]);
    assert.deepEqual(
      e.tools().map((t) => t.modelName),
      ['ext__py-search__search_web', 'ext__py-search__fetch_page'],
    );
    const out = result(await e.callTool('ext__py-search__search_web', { query: 'reasonix' }));
    assert.equal(out.isError, true);
    assert.match(out.content, /PY_SEARCH_API_KEY/);
    const pid = e.plugins()[0].pid;
    await e.stop();
    engine = undefined;
    assert.ok(
      lines.some((l) => /extension\/shutdown answered with .*; ignored, closing as usual/.test(l)),
      lines.join('\n'),
    );
    assert.ok(!lines.some((l) => /py-search.*(crash|killed)/i.test(l)), 'a clean stop, not a crash');
    assert.throws(() => process.kill(pid!, 0), 'the process is gone');
  });
});
