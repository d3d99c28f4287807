// Entry point of `npm run bench` (after compile and build): runs every benchmark in turn and
// prints one JSON object. BENCH_ONLY=a,b runs a subset; BENCH_QUICK=1 shrinks sample counts.
import * as os from 'node:os';
import { benchIntercepts } from './intercept';
import { benchStreams } from './streams';
import { benchContent } from './content';
import { benchStartup } from './startup';
import { benchBurst } from './burst';
import { benchMemory } from './memory';
import { benchActivation } from './activation';
import { benchAgentHooks } from './agentHooks';
import { benchLm } from './lm';
import { benchReasonixSurfaces } from './reasonixSurfaces';
import { benchSurfaces } from './surfaces';
import { benchSurfacesScale } from './surfacesScale';
import { benchCard } from './card';
import { benchMcp } from './mcp';
import { benchMarkdownCard } from './markdownCard';
import { benchFolders } from './folders';

async function main(): Promise<void> {
  const only = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
  const want = (name: string) => only.length === 0 || only.includes(name);
  const quick = process.env.BENCH_QUICK === '1';
  // Each figure starts from a collected heap, so none pays for the garbage of the one before it
  // (scripts/bench.mjs runs this with --expose-gc).
  const settle = () => (globalThis as { gc?: () => void }).gc?.();
  const result: Record<string, unknown> = {
    machine: {
      cores: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      node: process.version,
      platform: `${process.platform} ${os.release()}`,
      loadAverageAtStart: os.loadavg().map((n) => Math.round(n * 100) / 100),
    },
    startedAt: new Date().toISOString(),
    notes: [
      'ratio = value / floor for times and sizes, floor / value for throughput: 1.0 is the floor, higher is worse',
      'activation.how: "vscode" = measured inside a real VS Code (code-server); "stub-vscode" = the plain-Node fallback used only when code-server is not provisioned or the in-host probe failed',
    ],
  };
  if (want('intercept')) {
    const i = await benchIntercepts(quick);
    result.interceptRoundTrip = i.roundTrip;
    result.interceptChain4 = i.chain4;
  }
  settle();
  if (want('streams')) result.streamThroughput = await benchStreams(quick);
  settle();
  if (want('content')) result.contentRefs = await benchContent(quick);
  settle();
  if (want('startup')) result.startup = await benchStartup(quick);
  settle();
  if (want('burst')) result.fileBurst = await benchBurst(quick);
  settle();
  if (want('memory')) result.memory = await benchMemory(quick);
  settle();
  if (want('activation')) {
    const a = benchActivation(quick);
    result.activation = a.activation;
    result.bundles = a.bundles;
  }
  settle();
  if (want('agentHooks')) result.agentHooks = await benchAgentHooks(quick);
  settle();
  if (want('lm')) result.lmOverhead = benchLm(quick);
  settle();
  if (want('surfaces')) result.panelUpdate = await benchSurfaces(quick);
  if (want('card')) result.cardUpdate = await benchCard(quick);
  settle();
  if (want('reasonixSurfaces')) result.reasonixSurfaceUpdate = await benchReasonixSurfaces(quick);
  settle();
  if (want('surfacesScale')) Object.assign(result, await benchSurfacesScale(quick));
  settle();
  if (want('markdown')) result.markdownCard = await benchMarkdownCard(quick);
  settle();
  if (want('mcp')) Object.assign(result, await benchMcp(quick));
  settle();
  if (want('folders')) Object.assign(result, await benchFolders(quick));
  result.loadAverageAtEnd = os.loadavg().map((n) => Math.round(n * 100) / 100);
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
