// Figure 9: the overhead of serving a model to VS Code. Inside a real VS Code (code-server, via
// scripts/run-inhost-tests.mjs and test/vscode/bench/lm.ts) the same 2,000-chunk showcase stream
// (SHOWCASE_CHUNK_MS=0: as fast as the pipe takes chunks) is read through
// `vscode.lm` sendRequest and, as the floor, through the engine directly (the exported API's
// openStream). value = median sendRequest time, floor = median engine time, goal ratio ≤ 1.5.
// The sendRequest path also runs the provider.request chain (the showcase intercepts it) and
// VS Code's own part batching between the extension host and the workbench.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { codeServerProvisioned } from './activation';
import { REPO } from './lib/host';
import { lowerIsBetter, round, summarize, type Figure } from './lib/stats';

// Must match LM_PROBE_PREFIX in test/vscode/bench/lm.ts (not imported: that module imports 'vscode').
const PREFIX = 'REASONIX_LM_BENCH ';
const GOAL = 1.5;

interface ProbeLine {
  chunks: number;
  engineMs: number[];
  lmMs: number[];
  vscode: string;
}

export type LmFigure = Figure & {
  chunks?: number;
  engineSamples?: number[];
  lmSamples?: number[];
  vscodeVersion?: string;
  error?: string;
};

export function benchLm(quick: boolean): LmFigure {
  if (!codeServerProvisioned()) {
    return {
      unit: 'ms',
      value: NaN,
      floor: NaN,
      ratio: NaN,
      goal: `ratio <= ${GOAL}`,
      met: false,
      error:
        'not measured: code-server is not provisioned in .vscode-test/ (npm run test:provision); this figure needs a real VS Code',
    };
  }
  const r = spawnSync(
    process.execPath,
    [
      path.join(REPO, 'scripts/run-inhost-tests.mjs'),
      '--no-compile',
      '--tests',
      path.join(REPO, 'out/test/vscode/bench/lm.js'),
      '--timeout',
      '240000',
      '--name',
      'bench-lm',
      '--env',
      'SHOWCASE_CHUNK_MS=0',
      '--env',
      `REASONIX_LM_BENCH_RUNS=${quick ? 2 : 11}`,
    ],
    { cwd: REPO, encoding: 'utf8', timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
  );
  const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith(PREFIX));
  if (r.status !== 0 || !line) {
    const tail = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim().split('\n').slice(-8).join(' | ');
    return {
      unit: 'ms',
      value: NaN,
      floor: NaN,
      ratio: NaN,
      goal: `ratio <= ${GOAL}`,
      met: false,
      error: `in-host probe failed (exit ${r.status ?? r.signal}): ${tail}`,
    };
  }
  const p = JSON.parse(line.slice(PREFIX.length)) as ProbeLine;
  const lm = summarize(p.lmMs).median;
  const engine = summarize(p.engineMs).median;
  return {
    ...lowerIsBetter('ms per 2,000-chunk response', lm, engine, GOAL),
    chunks: p.chunks,
    engineSamples: p.engineMs.map((n) => round(n, 1)),
    lmSamples: p.lmMs.map((n) => round(n, 1)),
    vscodeVersion: p.vscode,
    notes: `measured inside a real VS Code (code-server ${p.vscode}): value = median time to read the whole response through vscode.lm sendRequest (provider.request chain, VS Code's extension host ↔ workbench part batching included); floor = median time of the same stream through the engine directly (exported API openStream); runs alternate`,
  };
}
