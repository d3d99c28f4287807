// In-host: Reasonix models as VS Code language models (vendor `reasonix`), in the real VS Code
// with the sample extensions of scripts/run-inhost-tests.mjs running.
//
// Everything is proven through the public consumer API other extensions use —
// `vscode.lm.selectChatModels` and `LanguageModelChat.sendRequest`. The chat view's model picker
// and a whole agent turn with the model are the UI test test/e2e/agentMode.test.ts.
//
// Which suite runs is decided by feature detection, the way the extension decides: with
// `vscode.lm.registerLanguageModelChatProvider` (VS Code 1.104 and later; 1.139 here) the models
// are offered and used; without it (VS Code 1.96, our oldest) the other suite proves that nothing
// is offered and nothing breaks. Each suite first checks that the detection matches the VS Code
// version, so an API that went missing on a new VS Code fails instead of passing as "absent".
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ReasonixApi } from '../../src/vscode/api';
import { atLeast, LM_PROVIDER_SINCE } from '../../src/vscode/vscodeVersion';
import { waitFor } from '../support/wait';
import { logLine, logLines } from './extensionLog';

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

/** The extension, activated, with the showcase sample running. */
async function activated(): Promise<{ ext: vscode.Extension<ReasonixApi>; api: ReasonixApi }> {
  const ext = vscode.extensions.getExtension<ReasonixApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is installed`);
  const api = await ext.activate();
  await waitFor(() => api.listPlugins().find((p) => p.pluginId === 'showcase' && p.state === 'running'), {
    timeoutMs: 20_000,
    what: 'showcase running',
    intervalMs: 50,
  });
  return { ext, api };
}

const NO_API_LINE = /^VS Code \S+ has no language model provider API/;
const hasProviderApi =
  typeof (vscode.lm as unknown as Record<string, unknown>).registerLanguageModelChatProvider === 'function';

if (hasProviderApi) describe('Reasonix models in VS Code (vscode.lm, vendor reasonix)', modelsOffered);
else
  describe(
    `Reasonix models on VS Code ${vscode.version}, which has no language model provider API: nothing offered, nothing broken`,
    nothingOffered,
  );

function nothingOffered(this: Mocha.Suite): void {
  this.timeout(60_000);
  let ext: vscode.Extension<ReasonixApi>;
  let api: ReasonixApi;

  before(async () => ({ ext, api } = await activated()));

  it(`this VS Code predates the API (${LM_PROVIDER_SINCE}): vscode.lm.registerLanguageModelChatProvider is absent`, () => {
    assert.equal(
      atLeast(vscode.version, LM_PROVIDER_SINCE),
      false,
      `VS Code ${vscode.version} should have vscode.lm.registerLanguageModelChatProvider (${LM_PROVIDER_SINCE} or later)`,
    );
    assert.equal((vscode.lm as unknown as Record<string, unknown>).registerLanguageModelChatProvider, undefined);
  });

  it('activates with the manifest’s language-model contributions, which this VS Code does not know', () => {
    const pkg = ext.packageJSON as { contributes: Record<string, unknown>; activationEvents: string[] };
    assert.deepEqual(pkg.contributes.languageModelChatProviders, [{ vendor: 'reasonix', displayName: 'Reasonix' }]);
    assert.ok(pkg.activationEvents.includes('onLanguageModelChatProvider:reasonix'));
    assert.equal(ext.isActive, true);
    assert.equal(api.apiVersion, 1);
  });

  it('offers VS Code none of its models: selectChatModels finds no Reasonix model, by vendor or among all', async () => {
    // The showcase model exists (the 1.104+ suite finds it through selectChatModels); it is not offered.
    assert.ok(
      (await api.listModels()).some((m) => m.ref === REF),
      `${REF} is served`,
    );
    assert.deepEqual(await vscode.lm.selectChatModels({ vendor: 'reasonix' }), []);
    const all = await vscode.lm.selectChatModels();
    assert.deepEqual(
      all.filter((m) => m.vendor === 'reasonix').map((m) => m.id),
      [],
    );
  });

  it('says why in its log, at info, once', async () => {
    const line = await logLine('info', NO_API_LINE);
    assert.ok(
      line.endsWith(
        `VS Code ${vscode.version} has no language model provider API (needs ${LM_PROVIDER_SINCE} or later): Reasonix models are not offered to VS Code`,
      ),
      line,
    );
    assert.equal(logLines('info', NO_API_LINE).length, 1);
    for (const level of ['warning', 'error'] as const)
      assert.deepEqual(logLines(level, /language model|vscode\.lm/i), [], `no ${level} about language models`);
  });

  it('still serves the model to other extensions through the exported API (listModels, openStream)', async () => {
    assert.ok(
      (await api.listModels()).some((m) => m.ref === REF),
      `${REF} listed`,
    );
    const stream = await api.openStream(REF, { messages: [{ role: 'user', content: 'ping' }] });
    const texts: string[] = [];
    for await (const c of stream) if ((c as { type: string }).type === 'text') texts.push((c as { text: string }).text);
    assert.equal(texts.join(''), 'Echo: ping');
    assert.deepEqual(await stream.outcome, { kind: 'completed' });
  });
}

function modelsOffered(this: Mocha.Suite): void {
  this.timeout(60_000);
  let api: ReasonixApi;
  let model: vscode.LanguageModelChat;

  before(async () => ({ api } = await activated()));

  it(`this VS Code (${LM_PROVIDER_SINCE} or later) has the provider API, and the log does not say it lacks it`, () => {
    assert.ok(atLeast(vscode.version, LM_PROVIDER_SINCE), `VS Code ${vscode.version}`);
    assert.deepEqual(logLines('info', NO_API_LINE), []);
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
}
