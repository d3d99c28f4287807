// Serving one VS Code language-model request (src/vscode/lm/respond.ts) through a real session
// engine: the showcase sidecar as the model, fixture interceptor sidecars (INTERCEPTOR_CONFIG) on
// provider.request / provider.response, real crashes and cancellations.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ProviderRequest } from '../../../src/protocol';
import type { SessionEngine } from '../../../src/host/session';
import { SurfaceStore } from '../../../src/host/ui';
import { silentLogger } from '../../../src/host/log';
import { LmResponseError, serveRequest, type PartSink } from '../../../src/vscode/lm/respond';
import { startTestEngine } from '../../support/engine';
import { waitFor } from '../../support/wait';
import { pluginFolder, pluginFolderV2 } from '../../support/plugins';

const REPO = resolve(__dirname, '../../../..');
const INTERCEPTOR = join(REPO, 'test/fixtures/interceptors/interceptor.js');
const SHOWCASE_BIN = join(REPO, 'examples/showcase/bin/showcase');
const REF = 'plugin/showcase/echo/echo-1';
const TARGET = { ref: REF, pluginId: 'showcase', model: 'echo-1' };

type Part = { kind: 'text' | 'thinking'; value: string } | { kind: 'call'; id: string; name: string; input: object };

function recorder(): { sink: PartSink; parts: Part[] } {
  const parts: Part[] = [];
  return {
    parts,
    sink: {
      text: (value) => parts.push({ kind: 'text', value }),
      thinking: (value) => parts.push({ kind: 'thinking', value }),
      toolCall: (id, name, input) => parts.push({ kind: 'call', id, name, input }),
    },
  };
}

const ask = (content: string, tools: ProviderRequest['tools'] = []): ProviderRequest => ({
  messages: [{ role: 'user', content }],
  tools,
  maxTokens: 256,
});
const textOf = (parts: Part[]) => parts.map((p) => (p.kind === 'text' ? p.value : '')).join('');

describe('vscode/lm: serving a request through the session engine (real sidecars)', function () {
  this.timeout(20_000);
  let dir: string;
  let engine: SessionEngine | undefined;
  let store: SurfaceStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rx-lm-'));
  });
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  function manifest(name: string, runtime: Record<string, unknown>): string {
    return pluginFolder(join(dir, name), name, runtime, '1.2.3');
  }
  /** The showcase sample (a v2 extension) under its own name, with a chunk pace. */
  const showcase = (chunkMs = 2) =>
    pluginFolderV2(join(dir, 'showcase'), 'showcase', {
      command: SHOWCASE_BIN,
      capabilities: ['interceptors', 'providers', 'ui'],
      intercepts: ['tool.before', 'session.start', 'provider.request'],
      env: { SHOWCASE_CHUNK_MS: String(chunkMs), SHOWCASE_TICK_MS: '5' },
    });
  const interceptor = (name: string, points: Record<string, unknown>, intercepts: string[]) =>
    manifest(name, {
      command: process.execPath,
      args: [INTERCEPTOR],
      capabilities: ['interceptors'],
      intercepts,
      env: { INTERCEPTOR_CONFIG: JSON.stringify({ points }) },
    });

  async function start(linked: string[]): Promise<SessionEngine> {
    store = new SurfaceStore();
    engine = await startTestEngine({
      base: dir,
      plugins: linked,
      logger: silentLogger,
      options: { sessionId: 'lm-1' },
      deps: { store },
    });
    return engine;
  }

  it('streams the text parts in order and reports completion with usage', async () => {
    const e = await start([showcase()]);
    const { sink, parts } = recorder();
    const stats = await serveRequest(e, TARGET, ask('hello there world'), sink, {
      interceptResponse: false,
      signal: new AbortController().signal,
    });
    assert.equal(textOf(parts), 'Echo: hello there world');
    assert.ok(parts.filter((p) => p.kind === 'text').length >= 3, 'streamed in pieces');
    assert.equal(stats.outcome, 'completed');
    assert.equal(stats.assembled, false);
    assert.ok(stats.usage && stats.usage.completionTokens > 0);
  });

  it('turns a tool_call chunk into a tool call part with parsed arguments', async () => {
    const e = await start([showcase()]);
    const { sink, parts } = recorder();
    await serveRequest(
      e,
      TARGET,
      ask('find otters', [{ name: 'lookup', description: 'd', parameters: { type: 'object' } }]),
      sink,
      { interceptResponse: false, signal: new AbortController().signal },
    );
    const call = parts.find((p) => p.kind === 'call');
    assert.deepEqual(call && { ...call, id: 'x' }, {
      kind: 'call',
      id: 'x',
      name: 'lookup',
      input: { text: 'find otters' },
    });
  });

  it('runs provider.request first: a rewriting interceptor changes what the provider sees', async () => {
    const rewritten = { request: ask('rewritten by the fixture') };
    const e = await start([
      showcase(),
      interceptor('rewriter', { 'provider.request': { decision: 'replace', replacement: rewritten } }, [
        'provider.request',
      ]),
    ]);
    const { sink, parts } = recorder();
    await serveRequest(e, TARGET, ask('original'), sink, {
      interceptResponse: false,
      signal: new AbortController().signal,
    });
    assert.equal(textOf(parts), 'Echo: rewritten by the fixture');
  });

  it('a blocking provider.request interceptor ends the request with an error naming it and its reason; nothing is streamed', async () => {
    const e = await start([
      showcase(),
      interceptor('gate', { 'provider.request': { decision: 'block', reason: 'quota exhausted for today' } }, [
        'provider.request',
      ]),
    ]);
    const { sink, parts } = recorder();
    await assert.rejects(
      serveRequest(e, TARGET, ask('hi'), sink, { interceptResponse: false, signal: new AbortController().signal }),
      (err: Error) =>
        err instanceof LmResponseError &&
        err.reason === 'blocked' &&
        /extension "gate"/.test(err.message) &&
        /quota exhausted for today/.test(err.message) &&
        err.message.includes(REF),
    );
    assert.deepEqual(parts, []);
  });

  it('the showcase sample blocks and rewrites requests marked for it', async () => {
    const e = await start([showcase()]);
    const { sink, parts } = recorder();
    await serveRequest(e, TARGET, ask('say [showcase:rewrite]'), sink, {
      interceptResponse: false,
      signal: new AbortController().signal,
    });
    assert.equal(textOf(parts), 'Echo: say (rewritten by showcase)');
    await assert.rejects(
      serveRequest(e, TARGET, ask('[showcase:block]'), sink, {
        interceptResponse: false,
        signal: new AbortController().signal,
      }),
      /blocked by extension "showcase": showcase blocks model requests marked \[showcase:block\]/,
    );
  });

  it('with a provider.response interceptor, assembles the response, runs the chain and delivers its result in one piece', async () => {
    const e = await start([
      showcase(),
      interceptor('editor', { 'provider.response': { appendText: ' [checked]' } }, ['provider.response']),
    ]);
    const { sink, parts } = recorder();
    const stats = await serveRequest(e, TARGET, ask('hello there world'), sink, {
      interceptResponse: true,
      signal: new AbortController().signal,
    });
    assert.deepEqual(parts, [{ kind: 'text', value: 'Echo: hello there world [checked]' }]);
    assert.equal(stats.assembled, true);
    assert.ok(stats.chunks >= 4);
  });

  it('a blocked provider.response ends with an error naming the extension and shows nothing', async () => {
    const e = await start([
      showcase(),
      interceptor('censor', { 'provider.response': { decision: 'block', reason: 'contains a secret' } }, [
        'provider.response',
      ]),
    ]);
    const { sink, parts } = recorder();
    await assert.rejects(
      serveRequest(e, TARGET, ask('hi'), sink, { interceptResponse: true, signal: new AbortController().signal }),
      /provider\.response was blocked by extension "censor": contains a secret/,
    );
    assert.deepEqual(parts, []);
  });

  it('a replaced response whose tool call arguments are not JSON is an error naming the model, not a crash', async () => {
    const bad = { text: 'ok', calls: [{ id: 'c1', name: 'lookup', arguments: '{not json' }] };
    const e = await start([
      showcase(),
      interceptor('breaker', { 'provider.response': { decision: 'replace', replacement: bad } }, ['provider.response']),
    ]);
    const { sink, parts } = recorder();
    await assert.rejects(
      serveRequest(e, TARGET, ask('hi'), sink, { interceptResponse: true, signal: new AbortController().signal }),
      (err: Error) =>
        err instanceof LmResponseError &&
        err.reason === 'invalid_tool_call' &&
        err.message.includes(REF) &&
        /not valid JSON/.test(err.message),
    );
    assert.deepEqual(parts, [], 'nothing shown from a response that failed validation');
  });

  it('cancellation mid-stream ends at once with no further parts, and the sidecar stops the stream', async () => {
    const e = await start([showcase(40)]);
    const { sink, parts } = recorder();
    const abort = new AbortController();
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
    const wrapped: PartSink = {
      ...sink,
      text: (v) => {
        sink.text(v);
        if (parts.length === 2) abort.abort();
      },
    };
    const t0 = Date.now();
    const stats = await serveRequest(e, TARGET, ask(words), wrapped, {
      interceptResponse: false,
      signal: abort.signal,
    });
    assert.equal(stats.outcome, 'cancelled');
    assert.ok(Date.now() - t0 < 2000, 'ended promptly');
    const seen = parts.length;
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(parts.length, seen, 'no part after the cancel');
    assert.equal(seen, 2);
    // The showcase counts the streams it stopped on extension/provider/stream/cancel.
    const cancelled = await waitFor(
      () => {
        const card = store.get(dir, 'showcase', 'model');
        const f = card?.kind === 'card' ? card.payload.fields?.find((x) => x.key === 'Cancelled') : undefined;
        return f && Number(f.value) >= 1 ? f : undefined;
      },
      { timeoutMs: 5000, what: 'the sidecar to report the cancelled stream', intervalMs: 5 },
    );
    assert.equal(cancelled.value, '1');
  });

  it('a crash of the extension mid-stream is a clean error naming the extension, the model and provider_interrupted', async () => {
    const e = await start([showcase(40)]);
    const { sink, parts } = recorder();
    const pid = e.plugins().find((p) => p.pluginId === 'showcase')?.pid;
    assert.ok(pid);
    const killing: PartSink = {
      ...sink,
      text: (v) => {
        sink.text(v);
        if (parts.length === 1) process.kill(pid, 'SIGKILL');
      },
    };
    await assert.rejects(
      serveRequest(e, TARGET, ask(Array.from({ length: 50 }, (_, i) => `w${i}`).join(' ')), killing, {
        interceptResponse: false,
        signal: new AbortController().signal,
      }),
      (err: Error) =>
        err instanceof LmResponseError &&
        err.reason === 'provider_interrupted' &&
        /Reasonix extension "showcase"/.test(err.message) &&
        err.message.includes(REF),
    );
  });
});
