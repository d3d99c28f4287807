#!/usr/bin/env node
// In-host mocha suites inside code-server's real extension host (see test/e2e/support/inHost.ts).
//
//   node scripts/run-inhost-tests.mjs [--extension <dir>] [--tests <compiled index.js>]
//        [--workspace <dir or .code-workspace>]... [--env KEY=VALUE]... [--timeout <ms>]
//        [--no-compile] [--verbose] [--name <artifact folder>] [--locale <VS Code display language>]
//        [--folders <n>]
//        [--code-server <version>]
//
// Defaults: this repository's extension and out/test/vscode/index.js, on a fresh workspace
// with a REASONIX_HOME holding the sample extensions (scripts/prepare-home.mjs), in the newest
// VS Code we test on (code-server 4.139.1). `--code-server 4.96.4` runs them in the oldest one we
// support (VS Code 1.96.4, provisioned on first use). Several --workspace folders open as one
// multi-root workspace. Exit code: the workbench's (0 = pass).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  compile,
  die,
  loadHarness,
  parseArgs,
  prepareReasonixHome,
  provisionOrDie,
  repoRoot,
} from './vscode/prepare.mjs';
import { CODE_SERVER_VERSION, OLDEST } from './vscode/provision.mjs';

const { opts, rest } = parseArgs(process.argv.slice(2), {
  flags: ['--extension', '--tests', '--timeout', '--name', '--locale', '--code-server', '--folders'],
  multi: ['--workspace', '--env'],
  booleans: ['--no-compile', '--verbose'],
});
if (rest.length) die(`unknown arguments: ${rest.join(' ')}`);

const extension = resolve(opts.extension ?? repoRoot);
const tests = resolve(opts.tests ?? join(repoRoot, 'out', 'test', 'vscode', 'index.js'));
const env = {};
for (const kv of opts.env ?? []) {
  const i = kv.indexOf('=');
  if (i <= 0) die(`--env needs KEY=VALUE, got ${kv}`);
  env[kv.slice(0, i)] = kv.slice(i + 1);
}

const codeServers = [CODE_SERVER_VERSION, OLDEST.codeServer];
const codeServerVersion = opts['code-server'] ?? CODE_SERVER_VERSION;
if (!codeServers.includes(codeServerVersion))
  die(`--code-server must be one of ${codeServers.join(', ')} (the newest and the oldest supported VS Code)`);
provisionOrDie({ oldest: codeServerVersion === OLDEST.codeServer });
if (!opts['no-compile'])
  compile([
    join(repoRoot, 'out', 'test', 'e2e', 'support', 'inHost.js'),
    join(repoRoot, 'out', 'test', 'vscode', 'index.js'),
    join(repoRoot, 'out', 'test', 'vscode-zh-cn', 'index.js'),
    join(repoRoot, 'out', 'test', 'vscode-multiroot', 'index.js'),
  ]);
if (!existsSync(tests)) die(`in-host tests entry ${tests} does not exist (compile first: npx tsc -p .)`);
const pkgFile = join(extension, 'package.json');
if (!existsSync(pkgFile)) die(`no extension at ${extension} (package.json missing)`);
const main = JSON.parse(readFileSync(pkgFile, 'utf8')).main;
if (main && !existsSync(join(extension, main)) && !existsSync(join(extension, `${main}.js`))) {
  die(`extension entry ${join(extension, main)} does not exist (build first: node esbuild.mjs)`);
}

const scratch = mkdtempSync(join(tmpdir(), 'reasonix-inhost-ws-'));
// Ctrl+C ends the process from a signal handler, skipping the finally below.
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
let code = 1;
try {
  let workspace;
  const folders = (opts.workspace ?? []).map((w) => resolve(w));
  const scratchFolders = opts.folders === undefined ? 0 : Number(opts.folders);
  if (!Number.isInteger(scratchFolders) || scratchFolders < 0 || (scratchFolders && folders.length))
    die('--folders needs a whole number of scratch folders, and no --workspace beside it');
  if (scratchFolders > 0) {
    // A multi-root window of scratch folders (folder-1 … folder-n), the samples installed in a scratch home.
    const home = join(scratch, 'reasonix-home');
    for (let i = 1; i <= scratchFolders; i++) folders.push(join(scratch, `folder-${i}`));
    prepareReasonixHome(home, folders[0]);
    for (const f of folders.slice(1)) mkdirSync(f, { recursive: true });
    env.REASONIX_HOME ??= home;
  }
  if (folders.length === 0) {
    const home = join(scratch, 'reasonix-home');
    workspace = join(scratch, 'workspace');
    prepareReasonixHome(home, workspace);
    env.REASONIX_HOME ??= home;
  } else if (folders.length === 1) {
    workspace = folders[0];
  } else {
    workspace = join(scratch, 'multi-root.code-workspace');
    writeFileSync(workspace, JSON.stringify({ folders: folders.map((path) => ({ path })) }, null, 2));
  }
  const { runInHostTests } = loadHarness('inHost');
  console.log(
    `in-host tests: ${tests}\n  extension: ${extension}\n  workspace: ${workspace}\n  code-server: ${codeServerVersion}${opts.locale ? `\n  locale: ${opts.locale}` : ''}`,
  );
  code = await runInHostTests({
    extensionDevelopmentPath: extension,
    extensionTestsPath: tests,
    workspace,
    env,
    timeoutMs: opts.timeout ? Number(opts.timeout) : undefined,
    name: opts.name ?? 'inhost',
    verbose: opts.verbose === true,
    locale: opts.locale,
    codeServerVersion,
  });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(code === 0 ? 'in-host tests passed' : `in-host tests FAILED (exit ${code})`);
process.exit(code);
