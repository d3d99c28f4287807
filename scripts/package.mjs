#!/usr/bin/env node
// `npm run package`: production bundles, then a .vsix made offline by vsce, then the sizes
// against the budgets (extension ≤ 300 KB, webview ≤ 250 KB minified). Over budget fails.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const out = process.argv[2] ?? join(root, `${pkg.name}-${pkg.version}.vsix`);

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`package: \`${cmd} ${args.join(' ')}\` failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

run(process.execPath, ['esbuild.mjs']);
run(process.execPath, [
  join(root, 'node_modules/@vscode/vsce/vsce'),
  'package',
  '--no-dependencies',
  '--allow-missing-repository',
  '-o',
  out,
]);

const budgets = [
  // The engine is dist/engine.js (below): activation parses only the face (~105 KB).
  ['dist/extension.js', 150 * 1024],
  ['dist/webview.js', 250 * 1024],
  // The engine, required when the first folder starts (after start-up), not at activation.
  ['dist/engine.js', 300 * 1024],
  // The page on a tool's card in MCP Apps clients (issue 41): the view renderer inlined.
  ['dist/mcp-app.html', 200 * 1024],
  // Run on every agent hook: it loads only the bridge (package.json `sideEffects` lets the bundler
  // drop the engine the hooks room index also exports).
  ['dist/hook.js', 30 * 1024],
];
let over = false;
const sizes = {};
for (const [file, budget] of budgets) {
  const path = join(root, file);
  if (!existsSync(path)) {
    console.error(`package: ${file} was not built`);
    process.exit(1);
  }
  const size = statSync(path).size;
  sizes[file] = size;
  const ok = size <= budget;
  if (!ok) over = true;
  console.log(`${ok ? '✔' : '✖'} ${file}: ${(size / 1024).toFixed(1)} KB (budget ${budget / 1024} KB)`);
}
const vsix = statSync(out).size;
console.log(`✔ ${out}: ${(vsix / 1024).toFixed(1)} KB`);
if (over) {
  console.error('package: a bundle is over its size budget');
  process.exit(1);
}
