#!/usr/bin/env node
// `npm run bench`: compile (tsc → out/), build the minified bundles (esbuild → dist/), run every
// benchmark in bench/ and print ONE JSON object, also written to bench/results/latest.json
// (git-ignored). Not part of `npm test`. How to read the figures: docs/bench.md.
//   BENCH_ONLY=intercept,streams,content,startup,burst,memory,activation,agentHooks,lm,surfaces,surfacesScale,markdown,mcp   run a subset
//   BENCH_QUICK=1   fewer samples (a smoke run)      --no-build   skip tsc and esbuild
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (m) => process.stderr.write(`bench: ${m}\n`);

if (!process.argv.includes('--no-build')) {
  log('compiling (tsc -p .)');
  // Other work in progress may not type-check; tsc still emits, and the run below fails loudly if
  // the benchmarks themselves did not compile.
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', root], {
    cwd: root,
    encoding: 'utf8',
  });
  if (tsc.status !== 0)
    log(`tsc reported errors (emitted anyway):\n${(tsc.stdout ?? '').split('\n').slice(0, 10).join('\n')}`);
  log('building (node esbuild.mjs)');
  execFileSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
}

log('running benchmarks');
const run = spawnSync(process.execPath, ['--expose-gc', join(root, 'out/bench/run.js')], {
  cwd: root,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
  maxBuffer: 16 * 1024 * 1024,
});
if (run.status !== 0) {
  log(`benchmarks failed (exit ${run.status})`);
  process.exit(run.status ?? 1);
}
const result = JSON.parse(run.stdout);
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, 'bench/results/latest.json'), JSON.stringify(result, null, 2) + '\n');
process.stdout.write(JSON.stringify(result, null, 2) + '\n');
log('written to bench/results/latest.json');
