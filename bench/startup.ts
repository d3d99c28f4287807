// Figure 5: spawn → `initialized` for 1 and for 4 sample sidecars (examples/hello) started in
// parallel by startGeneration, against spawning `node -e ""` that exits at once (1 and 4 at once).
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import type { PluginSpec } from '../src/host/plugins/types';
import { startGeneration } from '../src/host/generations';
import { REPO, SESSION, TIMEOUTS } from './lib/host';
import { hrtimeMs, lowerIsBetter, round, summarize, type Figure } from './lib/stats';

const HELLO = path.join(REPO, 'examples/hello');

function helloPlugin(id: string): PluginSpec {
  return {
    id,
    root: HELLO,
    version: '0.1.0',
    manifestPath: path.join(HELLO, 'reasonix-plugin.json'),
    source: 'linked',
    protocol: 1,
    requires: [],
    provides: [],
    runtime: {
      command: '${REASONIX_PLUGIN_ROOT}/bin/hello',
      args: [],
      env: {},
      required: true,
      priority: 0,
      intercepts: [],
      replaces: [],
      capabilities: ['ui'],
      timeoutMillis: 0,
      tools: [],
    },
  };
}

function spawnEmpty(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve());
  });
}

async function hostStart(n: number): Promise<number> {
  const plugins = Array.from({ length: n }, (_, i) => helloPlugin(`hello-${i + 1}`));
  const t = process.hrtime.bigint();
  const gen = await startGeneration({ plugins, session: SESSION, uiHost: 'headless', timeouts: TIMEOUTS });
  const ms = hrtimeMs(t);
  const running = [...gen.sidecars.values()].filter((s) => s.state === 'running').length;
  await gen.stop();
  if (running !== n) throw new Error(`startup: ${running}/${n} sidecars running`);
  return ms;
}

async function floorStart(n: number): Promise<number> {
  const t = process.hrtime.bigint();
  await Promise.all(Array.from({ length: n }, spawnEmpty));
  return hrtimeMs(t);
}

export type StartupFigures = Record<'one' | 'four', Figure & { runs: number; budgetMs?: number; budgetMet?: boolean }>;

export async function benchStartup(quick: boolean): Promise<StartupFigures> {
  const runs = quick ? 3 : 7;
  const out = {} as StartupFigures;
  for (const [name, n] of [
    ['one', 1],
    ['four', 4],
  ] as const) {
    await hostStart(n);
    await floorStart(n); // warm-up: page cache, first spawn
    const h: number[] = [];
    const f: number[] = [];
    for (let i = 0; i < runs; i++) {
      if (i % 2) f.push(await floorStart(n));
      h.push(await hostStart(n));
      if (i % 2 === 0) f.push(await floorStart(n));
    }
    const hm = summarize(h).median;
    out[name] = { ...lowerIsBetter('ms', hm, summarize(f).median), runs };
    if (n === 4) {
      out[name].budgetMs = 300;
      out[name].budgetMet = hm <= 300;
    }
    out[name].notes =
      `median; floor = ${n} × \`node -e ""\` spawned together until exit; p99-ish max ${round(Math.max(...h))} ms`;
  }
  return out;
}
