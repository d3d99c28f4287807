// Runs this extension through `reasonix-host check` (handshake, declared capabilities, shutdown)
// and calls its tool the way an agent would, with `reasonix-host tool`. REASONIX_HOST names the
// host's CLI: a `reasonix-host` on PATH by default, or the path of its cli.js (run with this Node).
'use strict';
const { test } = require('node:test');
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const NAME = '{{name}}';

function host(...args) {
  const cli = process.env.REASONIX_HOST || 'reasonix-host';
  const [command, argv] = cli.endsWith('.js') ? [process.execPath, [cli, ...args]] : [cli, args];
  const run = spawnSync(command, argv, { encoding: 'utf8', timeout: 60000 });
  if (run.error)
    throw new Error(`could not run ${cli} (set REASONIX_HOST to reasonix-host or its cli.js): ${run.error.message}`);
  return run;
}

test('reasonix-host check: the extension conforms', () => {
  const run = host('check', ROOT, '--json');
  const report = JSON.parse(run.stdout);
  assert.equal(report.ok, true, `check failed: ${run.stdout}${run.stderr}`);
  assert.equal(run.status, 0);
});

test('the greet tool answers', () => {
  const run = host('tool', NAME, 'greet', '--args', JSON.stringify({ name: 'Ada' }), '--plugin', ROOT, '--json');
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /Hello, Ada!/);
});
