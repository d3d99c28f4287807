#!/usr/bin/env node
// The one test command: every stage runs, in order, and the first failure stops the run with
// its name. Nothing is skipped silently.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs';
import { CODE_SERVER_VERSION, OLDEST } from './vscode/provision.mjs';

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
  // CI installs with `npm ci`, which refuses a lock that misses any optional dependency (the
  // reasonix package's other platform binaries, which this registry does not carry): caught here.
  [
    'package-lock.json is in sync (npm ci --dry-run)',
    'npm',
    ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'],
  ],
  ['generated protocol files are current', 'node', ['scripts/gen-protocol.mjs', '--check']],
  ['typecheck (extension, engine, tests)', 'npx', ['tsc', '-p', '.']],
  ['typecheck (webview)', 'npx', ['tsc', '-p', 'webview']],
  ['lint', 'npx', ['eslint', '.']],
  ['format (Prettier, 120 columns)', 'npx', ['prettier', '--check', '.']],
  ['build bundles', 'node', ['esbuild.mjs']],
  // Two mocha workers, one per core: each test's processes are told apart by the worker's own mark
  // (test/support/orphans.ts), so the no-process-left check holds per worker.
  ['unit tests (engine against real child processes, 2 workers)', 'npx', ['mocha', '--parallel', '--jobs', '2']],
];

// Provisioning code-server (newest and oldest), Node 24/20 and Chromium is downloads, unpacking and
// a few native builds: on a fresh clone about 3 minutes. It runs in the background from the start,
// beside the checks and unit tests, into its own log; the stages that need it wait for it.
const PROVISION_LOG = 'test-results/provision.log';
let provisioning;
function startProvisioning() {
  mkdirSync('test-results', { recursive: true });
  const fd = openSync(PROVISION_LOG, 'w');
  const started = Date.now();
  const child = spawn('node', ['scripts/vscode/provision.mjs', '--oldest'], {
    stdio: ['ignore', fd, fd],
    detached: true, // its own group, so a failed run stops it and every install it started
  });
  closeSync(fd);
  const done = new Promise((resolve) => {
    child.once('error', (e) => resolve({ status: null, signal: e.message }));
    child.once('exit', (status, signal) => resolve({ status, signal }));
  });
  provisioning = { child, started, done };
  // Its own process group does not get the terminal's Ctrl+C: pass it on.
  for (const sig of ['SIGINT', 'SIGTERM'])
    process.once(sig, () => {
      stopProvisioning();
      process.exit(130);
    });
  console.log(
    `=== provisioning code-server ${CODE_SERVER_VERSION}/${OLDEST.codeServer}, Node and Chromium in the background (log: ${PROVISION_LOG}) ===`,
  );
}
function stopProvisioning() {
  if (!provisioning || provisioning.child.exitCode !== null) return;
  try {
    process.kill(-provisioning.child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
}
/** The stage that needs code-server: waits for the background provisioning, fails with its log's end. */
async function awaitProvisioning() {
  const { status, signal } = await provisioning.done;
  // The exit event waits for the stage that was running (spawnSync); the log's last write does not.
  const took = ((statSync(PROVISION_LOG).mtimeMs - provisioning.started) / 1000).toFixed(1);
  if (status === 0) {
    console.log(`provisioned in ${took}s (started with the checks; log: ${PROVISION_LOG})`);
    return 0;
  }
  const lines = readFileSync(PROVISION_LOG, 'utf8').trimEnd().split('\n');
  console.error(lines.slice(-40).join('\n'));
  console.error(`provisioning exited ${status ?? signal} after ${took}s; the whole log is ${PROVISION_LOG}`);
  return 1;
}

// Tests inside a real VS Code (code-server + Chromium, provisioned into .vscode-test/). The one
// opt-out is explicit, loud, and refused in CI.
const realVsCode = [
  ['provision code-server, Node 24 and Chromium (newest and oldest VS Code)', awaitProvisioning],
  ['webview tests (Surfaces webview in Chromium)', 'npx', ['mocha', '--config', 'test/webview/.mocharc.json']],
  ['in-host suites (real extension host, code-server)', 'node', ['scripts/run-inhost-tests.mjs', '--no-compile']],
  // The same suites on the oldest VS Code engines.vscode admits, as rust-analyzer tests its minimum
  // and its latest: what is newer than it (language models, agent plugins) must be absent there
  // without breaking anything, and the suites assert exactly that.
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
    'in-host suite in a window of ten folders (each started on first use)',
    'node',
    [
      'scripts/run-inhost-tests.mjs',
      '--no-compile',
      '--folders',
      '10',
      '--tests',
      'out/test/vscode-multiroot/index.js',
      '--name',
      'inhost-multiroot',
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
  startProvisioning();
}

for (const [name, cmd, args] of stages) {
  const started = Date.now();
  console.log(`\n=== ${name} ===`);
  let status;
  if (typeof cmd === 'function') status = await cmd();
  else {
    const r = spawnSync(cmd, args, { stdio: 'inherit' });
    status = r.status ?? r.signal;
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (status !== 0) {
    console.error(`\n✖ stage failed: ${name} (exit ${status}, ${secs}s)`);
    stopProvisioning();
    process.exit(1);
  }
  console.log(`✔ ${name} (${secs}s)`);
}
if (process.env.REASONIX_SKIP_VSCODE_TESTS === '1')
  console.warn('\n⚠ passed WITHOUT the real-VS Code stages (REASONIX_SKIP_VSCODE_TESTS=1)');
