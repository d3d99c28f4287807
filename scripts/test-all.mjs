#!/usr/bin/env node
// The one test command: every stage runs, in order, and the first failure stops the run with
// its name. Nothing is skipped silently.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { OLDEST } from './vscode/provision.mjs';

// A fresh clone has no dependencies yet: `npm test` installs them first (the Quick start promises
// that this one command works on a fresh machine).
if (!existsSync('node_modules/.package-lock.json')) {
  console.log('=== installing dependencies (npm ci) ===');
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`✖ npm ci failed (exit ${r.status ?? r.signal}); fix the install and run npm test again`);
    process.exit(1);
  }
}

const stages = [
  ['generated protocol files are current', 'node', ['scripts/gen-protocol.mjs', '--check']],
  ['typecheck (extension, engine, tests)', 'npx', ['tsc', '-p', '.']],
  ['typecheck (webview)', 'npx', ['tsc', '-p', 'webview']],
  ['lint', 'npx', ['eslint', '.']],
  ['format (Prettier, 120 columns)', 'npx', ['prettier', '--check', '.']],
  ['build bundles', 'node', ['esbuild.mjs']],
  ['unit tests (engine against real child processes)', 'npx', ['mocha']],
];

// Tests inside a real VS Code (code-server + Chromium, provisioned into .vscode-test/). The one
// opt-out is explicit, loud, and refused in CI.
const realVsCode = [
  ['provision code-server, Node 24 and Chromium', 'node', ['scripts/vscode/provision.mjs']],
  // Needs /usr/bin/chromium, which provisioning installs; hence after it, not with the unit tests.
  ['webview tests (Surfaces webview in Chromium)', 'npx', ['mocha', '--config', 'test/webview/.mocharc.json']],
  ['in-host suites (real extension host, code-server)', 'node', ['scripts/run-inhost-tests.mjs', '--no-compile']],
  // The same suites on the oldest VS Code engines.vscode admits, as rust-analyzer tests its minimum
  // and its latest: what is newer than it (language models, agent plugins) must be absent there
  // without breaking anything, and the suites assert exactly that.
  [
    `provision the oldest supported VS Code (code-server ${OLDEST.codeServer}, Node ${OLDEST.nodeMajor})`,
    'node',
    ['scripts/vscode/provision.mjs', '--oldest'],
  ],
  [
    `in-host suites on the oldest supported VS Code (code-server ${OLDEST.codeServer} = VS Code ${OLDEST.vscode})`,
    'node',
    ['scripts/run-inhost-tests.mjs', '--no-compile', '--code-server', OLDEST.codeServer, '--name', 'inhost-oldest'],
  ],
  [
    'in-host suite in Simplified Chinese (display language zh-cn)',
    'node',
    [
      'scripts/run-inhost-tests.mjs',
      '--no-compile',
      '--locale',
      'zh-cn',
      '--tests',
      'out/test/vscode-zh-cn/index.js',
      '--name',
      'inhost-zh-cn',
    ],
  ],
  [
    'UI tests (packaged .vsix in code-server, Chromium)',
    'node',
    ['scripts/run-ui-tests.mjs', '--no-compile', '--no-build'],
  ],
];
if (process.env.REASONIX_SKIP_VSCODE_TESTS === '1') {
  if (process.env.CI) {
    console.error('✖ REASONIX_SKIP_VSCODE_TESTS=1 is not allowed in CI: the real VS Code tests must run there.');
    process.exit(1);
  }
  console.warn(
    `\n⚠ SKIPPING ${realVsCode.length} real-VS Code stages because REASONIX_SKIP_VSCODE_TESTS=1:\n${realVsCode.map(([n]) => `   - ${n}`).join('\n')}`,
  );
} else {
  stages.push(...realVsCode);
}

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
if (process.env.REASONIX_SKIP_VSCODE_TESTS === '1')
  console.warn('\n⚠ passed WITHOUT the real-VS Code stages (REASONIX_SKIP_VSCODE_TESTS=1)');
