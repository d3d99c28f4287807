#!/usr/bin/env node
// UI tests: mocha over out/test/e2e/**/*.test.js (test/e2e/.mocharc.json) with the playwright
// harness in test/e2e/support. Builds and packages this repository's extension into a .vsix
// that the tests install into a fresh code-server per test (REASONIX_E2E_VSIX).
//
//   node scripts/run-ui-tests.mjs [--no-compile] [--no-build] [--vsix <file>] [mocha args…]
//
// Screenshots and code-server logs of every test land in test-results/ (git-ignored).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compile, die, parseArgs, provisionOrDie, repoRoot } from './vscode/prepare.mjs';

const { opts, rest } = parseArgs(process.argv.slice(2), {
  flags: ['--vsix'],
  booleans: ['--no-compile', '--no-build'],
});

provisionOrDie();
if (!opts['no-compile']) compile([join(repoRoot, 'out', 'test', 'e2e', 'support', 'session.js')]);

let vsix = opts.vsix && resolve(opts.vsix);
if (!vsix) {
  if (!opts['no-build']) {
    const b = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, stdio: 'inherit' });
    if (b.status !== 0) die(`UI tests: build failed (node esbuild.mjs exited ${b.status ?? b.signal})`);
  }
  mkdirSync(join(repoRoot, '.vscode-test'), { recursive: true });
  vsix = join(repoRoot, '.vscode-test', 'reasonix-vscode-host.vsix');
  console.log(`[ui] packaging ${vsix}`);
  const p = spawnSync(
    process.execPath,
    [join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '-o', vsix],
    { cwd: repoRoot, stdio: 'inherit' },
  );
  if (p.status !== 0) die(`UI tests: packaging the extension failed (vsce exited ${p.status ?? p.signal})`);
}
if (!existsSync(vsix)) die(`UI tests: ${vsix} does not exist`);

const mocha = join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js');
const r = spawnSync(process.execPath, [mocha, '--config', join(repoRoot, 'test', 'e2e', '.mocharc.json'), ...rest], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...process.env, REASONIX_E2E_VSIX: vsix },
});
if (r.status !== 0) die(`UI tests FAILED (mocha exit ${r.status ?? r.signal}); screenshots and logs in test-results/`);
console.log('UI tests passed');
