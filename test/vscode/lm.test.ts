// In-host: Reasonix models as VS Code language models (vendor `reasonix`), in the real VS Code
// (code-server 1.139) with the sample extensions of scripts/run-inhost-tests.mjs running.
//
// Everything is proven through the public consumer API other extensions use —
// `vscode.lm.selectChatModels` and `LanguageModelChat.sendRequest`. The chat view's model picker
// and a whole agent turn with the model are the UI test test/e2e/agentMode.test.ts. On a VS Code
// without the API the suite has nothing to test and says so by failing its first test, never by
// passing silently.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ReasonixApi } from '../../src/vscode/api';
import { waitFor } from '../support/wait';

const EXTENSION_ID = 'reasonix.reasonix-vscode-host';
const REF = 'plugin/showcase/echo/echo-1';

type Part = { text: string } | { call: { callId: string; name: string; input: object } } | { other: unknown };

/** Reads a response to the end; the error of a failed request is rethrown by the stream. */
async function collect(
  response: vscode.LanguageModelChatResponse,
  onPart?: (p: Part, all: Part[]) => void,
): Promise<Part[]> {
  const parts: Part[] = [];
  for await (const chunk of response.stream) {
    const p: Part =
      chunk instanceof vscode.LanguageModelTextPart
        ? { text: chunk.value }
        : chunk instanceof vscode.LanguageModelToolCallPart
          ? { call: { callId: chunk.callId, name: chunk.name, input: chunk.input } }
          : { other: chunk };
    parts.push(p);
    onPart?.(p, parts);
  }
  return parts;
}

const textOf = (parts: Part[]) => parts.map((p) => ('text' in p ? p.text : '')).join('');

function modelCard(api: ReasonixApi): Record<string, unknown> {
  const card = api.surfaces().find((s) => s.pluginId === 'showcase' && s.surfaceId === 'model');
  if (card?.kind !== 'card') return {};
  return Object.fromEntries((card.payload.fields ?? []).map((f) => [f.key, f.value]));
}

async function echoModel(): Promise<vscode.LanguageModelChat | undefined> {
  return (await vscode.lm.selectChatModels({ vendor: 'reasonix' })).find((m) => m.id === REF);
}

/** Polls selectChatModels until the showcase model is offered (VS Code resolves models lazily). */
function offeredModel(timeoutMs = 20_000): Promise<vscode.LanguageModelChat | undefined> {
  return waitFor(echoModel, { timeoutMs, what: `${REF} offered`, intervalMs: 200 }).catch(() => undefined);
}

describe('Reasonix models in VS Code (vscode.lm, vendor reasonix)', function () {
  this.timeout(60_000);
  let api: ReasonixApi;
  let model: vscode.LanguageModelChat;

  before(async () => {
    const ext = vscode.extensions.getExtension<ReasonixApi>(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed`);
    api = await ext.activate();
    await waitFor(() => api.listPlugins().find((p) => p.pluginId === 'showcase' && p.state === 'running'), {
      timeoutMs: 20_000,
      what: 'showcase running',
      intervalMs: 50,
    });
  });

  it('this VS Code has the language model provider API (else nothing below can run)', () => {
    const lm = vscode.lm as unknown as Record<string, unknown>;
    assert.equal(
      typeof lm.registerLanguageModelChatProvider,
      'function',
      `VS Code ${vscode.version} lacks vscode.lm.registerLanguageModelChatProvider`,
    );
  });

  it('lists the showcase model through selectChatModels({vendor: "reasonix"}) with its catalog facts', async () => {
    const found = await offeredModel();
    assert.ok(
      found,
      `the showcase model is offered (got ${JSON.stringify((await vscode.lm.selectChatModels({ vendor: 'reasonix' })).map((m) => m.id))})`,
    );
    model = found;
    assert.equal(model.vendor, 'reasonix');
    assert.equal(model.name, 'Showcase Echo');
    assert.equal(model.family, 'echo');
    const showcase = JSON.parse(
      readFileSync(path.resolve(__dirname, '../../../examples/showcase/reasonix-plugin.json'), 'utf8'),
    ) as { version: string };
    assert.equal(model.version, showcase.version, 'the extension’s own version');
    assert.equal(model.maxInputTokens, 8192);
    const caps = (
      model as unknown as { capabilities?: { supportsToolCalling?: boolean; supportsImageToText?: boolean } }
    ).capabilities;
    if (caps) {
      assert.equal(caps.supportsToolCalling, true);
      assert.equal(caps.supportsImageToText, false);
    }
    // Selecting by family works too (what "VS Code LM API" settings in other extensions use).
    assert.ok((await vscode.lm.selectChatModels({ vendor: 'reasonix', family: 'echo' })).some((m) => m.id === REF));
  });

  it('streams the reply of sendRequest as text parts', async () => {
    const response = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User('hello from VS Code')],
      {},
      new vscode.CancellationTokenSource().token,
    );
    const parts = await collect(response);
    assert.ok(parts.length >= 3, `streamed in pieces (${parts.length})`);
    assert.equal(textOf(parts), 'Echo: hello from VS Code');
  });

  it('makes a tool call round trip: the model calls the offered tool, then answers from its result', async () => {
    const tools: vscode.LanguageModelChatTool[] = [
      {
        name: 'lookup',
        description: 'Looks a word up',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      },
    ];
    const question = vscode.LanguageModelChatMessage.User('find otters');
    const first = await collect(
      await model.sendRequest([question], { tools }, new vscode.CancellationTokenSource().token),
    );
    const call = first.find((p): p is Extract<Part, { call: unknown }> => 'call' in p)?.call;
    assert.ok(call, `a tool call part (got ${JSON.stringify(first)})`);
    assert.equal(call.name, 'lookup');
    assert.deepEqual(call.input, { text: 'find otters' });
    const history = [
      question,
      vscode.LanguageModelChatMessage.Assistant([
        new vscode.LanguageModelToolCallPart(call.callId, call.name, call.input),
      ]),
      vscode.LanguageModelChatMessage.User([
        new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart('otters are mustelids')]),
      ]),
    ];
    const second = await collect(
      await model.sendRequest(history, { tools }, new vscode.CancellationTokenSource().token),
    );
    assert.equal(textOf(second), `Echo: tool result ${call.callId}: otters are mustelids`);
  });

  it('counts tokens locally as characters / 4', async () => {
    assert.equal(await model.countTokens('abcdefghijkl'), 3);
  });

  it('applies a provider.request interceptor that rewrites the request: the provider sees the rewrite', async () => {
    const parts = await collect(
      await model.sendRequest(
        [vscode.LanguageModelChatMessage.User('please [showcase:rewrite] me')],
        {},
        new vscode.CancellationTokenSource().token,
      ),
    );
    assert.equal(textOf(parts), 'Echo: please (rewritten by showcase) me');
    await waitFor(() => modelCard(api)['Last prompt'] === 'please (rewritten by showcase) me', {
      timeoutMs: 20_000,
      what: 'the provider to report the rewritten prompt',
      intervalMs: 50,
    });
  });

  it('ends a request a provider.request interceptor blocks with an error naming the extension and its reason', async () => {
    const run = async () =>
      collect(
        await model.sendRequest(
          [vscode.LanguageModelChatMessage.User('[showcase:block] this')],
          {},
          new vscode.CancellationTokenSource().token,
        ),
      );
    await assert.rejects(
      run(),
      (err: Error) =>
        /blocked by extension "showcase"/.test(err.message) &&
        /showcase blocks model requests marked \[showcase:block\]/.test(err.message),
    );
  });

  it('cancels mid-stream: the response ends at once, and the sidecar gets stream/cancel', async () => {
    const before = Number(modelCard(api).Cancelled ?? 0);
    const cts = new vscode.CancellationTokenSource();
    // 200 words at the showcase's 80 ms pace: about 16 s if it were not cancelled.
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(words)], {}, cts.token);
    let cancelledAt = 0;
    const parts = await collect(response, (_p, all) => {
      if (all.length === 2) {
        cancelledAt = Date.now();
        cts.cancel();
      }
    }).catch((err: Error) => {
      // A cancelled request may also end by rejecting; either way nothing more arrives.
      assert.match(err.message, /cancel/i);
      return undefined;
    });
    assert.ok(cancelledAt > 0, 'cancelled after two parts');
    // Parts the provider reported before the cancel reached it may still be in VS Code's
    // pipeline; after that the provider reports nothing (unit-tested in test/unit/lm).
    assert.ok(Date.now() - cancelledAt < 5_000, `ended soon after the cancel (${Date.now() - cancelledAt} ms)`);
    if (parts) assert.ok(parts.length < 20, `stopped early (${parts.length} of about 200 parts)`);
    await waitFor(() => Number(modelCard(api).Cancelled ?? 0) === before + 1, {
      timeoutMs: 20_000,
      what: 'the showcase to report the cancelled stream',
      intervalMs: 50,
    });
  });

  it('turns a crash of the extension mid-stream into a clean error naming it, the model and provider_interrupted', async () => {
    const pid = api.listPlugins().find((p) => p.pluginId === 'showcase')?.pid;
    assert.ok(pid, 'showcase has a pid');
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
    const response = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User(words)],
      {},
      new vscode.CancellationTokenSource().token,
    );
    const run = collect(response, (_p, all) => all.length === 1 && process.kill(pid, 'SIGKILL'));
    await assert.rejects(
      run,
      (err: Error) =>
        /Reasonix extension "showcase"/.test(err.message) &&
        err.message.includes(REF) &&
        /provider_interrupted/.test(err.message),
    );
    // The automatic restart brings the model back.
    await waitFor(
      () => api.listPlugins().find((p) => p.pluginId === 'showcase' && p.state === 'running' && p.pid !== pid),
      { timeoutMs: 30_000, what: 'showcase restarted', intervalMs: 50 },
    );
    assert.ok(await offeredModel(), 'the model is offered again after the restart');
  });

  it('removes the model when its extension stops (firing the change event) and offers it again when it starts', async () => {
    const key = api.listSessions()[0].key;
    // VS Code reports a change of the models it has resolved: make sure it has this one.
    assert.ok(await offeredModel(), 'offered before the stop');
    let changes = 0;
    const sub = vscode.lm.onDidChangeChatModels(() => changes++);
    try {
      await vscode.commands.executeCommand('reasonix.stopExtension', { sessionKey: key, pluginId: 'showcase' });
      await waitFor(() => changes > 0, {
        timeoutMs: 20_000,
        what: 'vscode.lm.onDidChangeChatModels after the stop',
        intervalMs: 50,
      });
      assert.equal(await echoModel(), undefined, 'no showcase model while it is stopped');
      await vscode.commands.executeCommand('reasonix.startExtension', { sessionKey: key, pluginId: 'showcase' });
      const back = await offeredModel();
      assert.ok(back, 'the model is offered again');
      const parts = await collect(
        await back.sendRequest(
          [vscode.LanguageModelChatMessage.User('again')],
          {},
          new vscode.CancellationTokenSource().token,
        ),
      );
      assert.equal(textOf(parts), 'Echo: again');
    } finally {
      sub.dispose();
    }
  });
});
