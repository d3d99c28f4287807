// In-host bench probe (not a test suite) for bench/lm.ts: inside the real extension host, the
// same 2,000-chunk showcase stream is read (a) through the engine directly — the exported API's
// openStream, what the CLI `stream` command does — and (b) as a VS Code language model through
// `vscode.lm.selectChatModels` + `sendRequest`. Runs alternate so machine load hits both alike.
// Prints one line the bench parses; rejecting makes the runner exit non-zero.
import * as vscode from 'vscode';
import type { ReasonixApi } from '../../../src/vscode/api';
import { waitFor } from '../../support/wait';

/** bench/lm.ts greps stdout for this prefix followed by one JSON object. */
export const LM_PROBE_PREFIX = 'REASONIX_LM_BENCH ';
const REF = 'plugin/showcase/echo/echo-1';
const CHUNKS = Number(process.env.REASONIX_LM_BENCH_CHUNKS ?? 2000);
const RUNS = Number(process.env.REASONIX_LM_BENCH_RUNS ?? 11);

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension<ReasonixApi>('reasonix.reasonix-vscode-host');
  if (!ext) throw new Error('reasonix.reasonix-vscode-host is not installed in this host');
  const api = await ext.activate();
  await waitFor(() => api.listPlugins().find((p) => p.pluginId === 'showcase' && p.state === 'running'), {
    timeoutMs: 60_000,
    what: 'showcase running',
  });
  const model = await waitFor(
    async () => (await vscode.lm.selectChatModels({ vendor: 'reasonix' })).find((m) => m.id === REF),
    { timeoutMs: 60_000, what: `${REF} offered through vscode.lm` },
  );
  // The echo of "Echo: " + N-1 words is N text chunks.
  const prompt = Array.from({ length: CHUNKS - 1 }, (_, i) => `w${i}`).join(' ');
  const expected = `Echo: ${prompt}`;

  const viaEngine = async (): Promise<number> => {
    const t0 = performance.now();
    const stream = await api.openStream(REF, {
      messages: [{ role: 'user', content: prompt }],
      tools: [],
      maxTokens: 4096,
    });
    let text = '';
    let n = 0;
    for await (const c of stream as AsyncIterable<{ type: string; text?: string }>) {
      if (c.type === 'text') {
        text += c.text ?? '';
        n++;
      }
    }
    const outcome = await stream.outcome;
    const ms = performance.now() - t0;
    if (outcome.kind !== 'completed' || text !== expected || n !== CHUNKS)
      throw new Error(`engine stream: ${outcome.kind}, ${n} chunks`);
    return ms;
  };
  const parts: number[] = [];
  const firstPartMs: number[] = [];
  const viaLm = async (): Promise<number> => {
    const t0 = performance.now();
    const response = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User(prompt)],
      {},
      new vscode.CancellationTokenSource().token,
    );
    let text = '';
    let n = 0;
    for await (const part of response.stream) {
      if (n === 0) firstPartMs.push(Math.round(performance.now() - t0));
      if (part instanceof vscode.LanguageModelTextPart) {
        text += part.value;
        n++;
      }
    }
    const ms = performance.now() - t0;
    parts.push(n);
    if (text !== expected)
      throw new Error(`sendRequest: got ${text.length} characters in ${n} parts, expected ${expected.length}`);
    return ms;
  };

  await viaEngine(); // warm-up: code paths, catalog, the provider.request chain
  await viaLm();
  const engine: number[] = [];
  const lm: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    engine.push(await viaEngine());
    lm.push(await viaLm());
  }
  console.log(
    LM_PROBE_PREFIX +
      JSON.stringify({
        chunks: CHUNKS,
        engineMs: engine,
        lmMs: lm,
        lmParts: parts.slice(-RUNS),
        lmFirstPartMs: firstPartMs.slice(-RUNS),
        vscode: vscode.version,
      }),
  );
}
