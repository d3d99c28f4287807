#!/usr/bin/env node
// The one test command: every stage runs, in order, and the first failure stops the run with
// its name. Nothing is skipped silently.
import { spawnSync } from 'node:child_process';

const stages = [
  ['generated protocol files are current', 'node', ['scripts/gen-protocol.mjs', '--check']],
  ['typecheck (extension, engine, tests)', 'npx', ['tsc', '-p', '.']],
  ['typecheck (webview)', 'npx', ['tsc', '-p', 'webview']],
  ['lint', 'npx', ['eslint', '.']],
  ['build bundles', 'node', ['esbuild.mjs']],
  ['unit tests (engine against real child processes)', 'npx', ['mocha']],
];

for (const [name, cmd, args] of stages) {
  const started = Date.now();
  console.log(`\n=== ${name} ===`);
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (r.status !== 0) {
    console.error(`\n✖ stage failed: ${name} (exit ${r.status ?? r.signal}, ${secs}s)`);
    process.exit(1);
  }
  console.log(`✔ ${name} (${secs}s)`);
}
