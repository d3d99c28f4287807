#!/usr/bin/env node
// `npm run demo`: one command from a fresh clone to the extension running on the samples.
//   1. installs dependencies (`npm ci`) when node_modules is missing
//   2. builds the production bundles and packages the .vsix (scripts/package.mjs)
//   3. prepares a private Reasonix home listing the samples, and a demo workspace
//      (scripts/prepare-home.mjs)
//   4. opens it: desktop VS Code when a `code` command exists, otherwise code-server
//      (provisioned by scripts/vscode/provision.mjs) on 127.0.0.1, in the foreground until Ctrl+C
//
//   node scripts/demo.mjs [--port N] [--server] [--check] [--dir DIR]
//
// Until step 1 has run only Node built-ins may be imported here: the two scripts imported below
// use nothing else, which is what lets `npm run demo` work before `npm ci`.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_PLUGINS, prepareHome } from './prepare-home.mjs';
import { ProvisionError, provision } from './vscode/provision.mjs';
import { EXTENSION_ID, freePort, installExtension, startCodeServer, writeDemoProfile } from './code-server.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const USAGE = `usage: npm run demo -- [--port N] [--server] [--check] [--dir DIR]

  --port N    code-server's port on 127.0.0.1 (default 8765; a free one if it is taken)
  --server    use code-server even when a \`code\` command exists
  --check     start everything, verify the workbench answers and the extension is installed,
              then stop (always code-server); exit 0 when all is well
  --no-open   the same as --check
  --dir DIR   where the demo keeps its state (default .demo/ in the repository)`;

let step = 0;
const STEPS = 5;
function say(text) {
  process.stdout.write(`[demo] ${text}\n`);
}
function stepLine(text) {
  step += 1;
  say(`${step}/${STEPS} ${text}`);
}
function fail(text) {
  process.stderr.write(`[demo] failed: ${text}\n`);
  process.exit(1);
}

/** Runs a command in the foreground with its output shown; a failure ends the demo. */
function run(what, cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.error) fail(`${what}: ${r.error.message}`);
  if (r.status !== 0) fail(`${what}: \`${[cmd, ...args].join(' ')}\` exited ${r.status ?? r.signal}`);
}

/** A command on PATH, if any (`code`: desktop VS Code's launcher; `reasonix`: the user's Reasonix). */
function findOnPath(name, winExt = '.cmd') {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, process.platform === 'win32' ? `${name}${winExt}` : name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

function options() {
  try {
    const { values } = parseArgs({
      options: {
        port: { type: 'string' },
        server: { type: 'boolean' },
        check: { type: 'boolean' },
        'no-open': { type: 'boolean' },
        dir: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
    const port = values.port === undefined ? 8765 : Number(values.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      throw new Error(`--port must be a port number, got ${values.port}`);
    return {
      port,
      server: values.server === true,
      check: values.check === true || values['no-open'] === true,
      dir: resolve(values.dir ?? join(root, '.demo')),
      help: values.help === true,
    };
  } catch (err) {
    process.stderr.write(`[demo] ${err.message}\n${USAGE}\n`);
    process.exit(2);
  }
}

/**
 * The samples in the demo's home: the showcase and hello for VS Code, and the companion, which the
 * real Reasonix (1.38.x refuses the showcase's runtime.tools and hello's v1 manifest) runs in a
 * Reasonix session as well.
 */
const DEMO_PLUGINS = [...DEFAULT_PLUGINS, 'companion'];
/** The companion's echo model: a Reasonix session's turns run offline with it. */
const SESSION_MODEL = 'plugin/companion/echo/echo-1';

/**
 * Machine-scoped settings for Reasonix sessions: the session's model, and reasonix.path naming the
 * pinned Reasonix in node_modules when PATH has no `reasonix` (a fresh machine with only `npm ci`).
 */
function sessionSettings() {
  const settings = { 'reasonix.sessions.model': SESSION_MODEL };
  if (findOnPath('reasonix')) return settings;
  const exe = `reasonix${process.platform === 'win32' ? '.exe' : ''}`;
  try {
    const require = createRequire(join(root, 'package.json'));
    settings['reasonix.path'] = require.resolve(`@reasonix/cli-${process.platform}-${process.arch}/bin/${exe}`);
  } catch {
    say(
      `  no reasonix on PATH and no @reasonix/cli-${process.platform}-${process.arch} in node_modules: Reasonix sessions will say how to install it`,
    );
  }
  return settings;
}

const WHAT_TO_TRY = [
  'Open the Reasonix view in the activity bar: the showcase status line, its cards, the Notes form.',
  'Run "Reasonix: Run Extension Action…" from the Command Palette (Ctrl+Shift+P) and pick /showcase:pick-theme, /showcase:reset-notes or /hello:say-hello.',
  'Edit and save a file (src/greeting.js): the "Recent changes" card lists it.',
  'Fill in the Notes form and submit it: the "Your notes" card shows what you sent.',
  'Run "Reasonix: Show Logs" to see every sidecar start, frame and stop.',
  'A Reasonix session: in the Reasonix view, open the Extensions view\'s "…" menu and choose "Open Reasonix Session". The real Reasonix runs the companion sample: its card, status and notification appear in the Surfaces view under "workspace · Reasonix session" (VS Code\'s own copy of it stops meanwhile). Press "Pick a color…" on its card (a QuickPick), run /companion:ping from "Run Extension Action…", and type "@reasonix hello" in the Chat view: its Companion Echo model answers offline.',
  'Agent mode: press F9 (with the editor area focused) for a chat turn in which the "Showcase Echo" model calls the showcase\'s count_words tool through the Reasonix MCP server; Shift+F9 asks for a call the showcase blocks, and the chat shows its reason. Or open the Chat view, pick Agent and "Showcase Echo", and send: call mcp_reasonix_ext__showcase__count_words {"text":"hello"}',
];

// Ctrl+C or SIGTERM at any point: a running server is stopped gracefully (see openCodeServer);
// before that, exiting is enough, since code-server.mjs kills a group it started on exit.
let signalled;
const interrupted = new Promise((r) => (signalled = r));
let serverUp = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (serverUp) signalled(sig);
    else {
      say(`interrupted (${sig}) before code-server was up; stopped`);
      process.exit(0);
    }
  });
}

async function main() {
  const opts = options();
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  const state = {
    dir: opts.dir,
    vsix: join(opts.dir, 'reasonix-vscode-host.vsix'),
    home: join(opts.dir, 'home'),
    workspace: join(opts.dir, 'workspace'),
    userData: join(opts.dir, 'user-data'),
    extensions: join(opts.dir, 'extensions'),
  };
  mkdirSync(state.dir, { recursive: true });

  stepLine('dependencies');
  // npm ci leaves node_modules/.package-lock.json behind; without it the tree is not installed.
  if (existsSync(join(root, 'node_modules', '.package-lock.json'))) say('node_modules is installed');
  else {
    say('node_modules is missing: running npm ci');
    run('npm ci', process.platform === 'win32' ? 'npm.cmd' : 'npm', ['ci', '--no-audit', '--no-fund']);
  }

  stepLine('build and package the extension');
  run('packaging', process.execPath, [join(root, 'scripts', 'package.mjs'), state.vsix]);

  stepLine('prepare the Reasonix home and the demo workspace');
  await prepareHome({
    home: state.home,
    workspace: state.workspace,
    plugins: DEMO_PLUGINS,
    log: (line) => say(`  ${line}`),
  });
  state.machineSettings = sessionSettings();
  const rx = state.machineSettings['reasonix.path'];
  say(`  Reasonix sessions: ${rx ? `reasonix.path → ${rx}` : 'the reasonix on PATH'}, model ${SESSION_MODEL}`);

  const code = opts.check || opts.server ? undefined : findOnPath('code');
  if (code) return openDesktop(code, state);
  return openCodeServer(opts, state);
}

/** Desktop VS Code with its own profile: the demo never touches your extensions or settings. */
function openDesktop(code, state) {
  const profile = ['--extensions-dir', state.extensions, '--user-data-dir', state.userData];
  writeDemoProfile(state.userData, { machineSettings: state.machineSettings, remote: false });
  stepLine(`install the extension into desktop VS Code (${code})`);
  run('installing the .vsix', code, [...profile, '--install-extension', state.vsix, '--force']);
  stepLine('open the demo workspace');
  const r = spawnSync(code, [...profile, '--new-window', state.workspace], {
    stdio: 'inherit',
    env: { ...process.env, REASONIX_HOME: state.home },
  });
  if (r.status !== 0) fail(`\`code ${state.workspace}\` exited ${r.status ?? r.signal}`);
  say(`VS Code opened ${state.workspace} with REASONIX_HOME=${state.home}. Things to try:`);
  for (const line of WHAT_TO_TRY) say(`  • ${line}`);
  say('VS Code runs on its own; close its window when you are done.');
  return 0;
}

async function openCodeServer(opts, state) {
  stepLine('provision code-server (cached in .vscode-test/ after the first run)');
  let provisioned;
  try {
    provisioned = provision();
  } catch (err) {
    if (err instanceof ProvisionError) fail(`provision: ${err.message}`);
    throw err;
  }
  say(`  code-server ${provisioned.codeServerVersion} on Node ${provisioned.nodeVersion}`);
  await installExtension({ provisioned, sandbox: state.dir, vsix: state.vsix, extensionsDir: state.extensions });
  say(`  installed ${EXTENSION_ID} into ${state.extensions}`);

  const port = await freePort(opts.port);
  stepLine(`start code-server on 127.0.0.1:${port}${port === opts.port ? '' : ` (${opts.port} is taken)`}`);
  const server = await startCodeServer({
    provisioned,
    sandbox: state.dir,
    port,
    userDataDir: state.userData,
    extensionsDir: state.extensions,
    env: { REASONIX_HOME: state.home },
    machineSettings: state.machineSettings,
  });
  serverUp = true;
  // Slashes left readable; everything else that could end the query is escaped.
  const url = `${server.url}/?folder=${encodeURIComponent(state.workspace).replace(/%2F/g, '/')}`;

  if (opts.check) {
    const problems = await verify(server, url, state);
    await server.stop();
    if (problems.length) fail(problems.join('; '));
    say(
      `check passed: ${server.url}/healthz answers, the workbench loads, ${EXTENSION_ID} is installed, Reasonix sessions are set up; stopped`,
    );
    return 0;
  }

  say('');
  say(`Open ${url}`);
  say(`(REASONIX_HOME=${state.home}; code-server log: ${server.logFile})`);
  say('Things to try:');
  for (const line of WHAT_TO_TRY) say(`  • ${line}`);
  say('Press Ctrl+C to stop.');
  const why = await Promise.race([interrupted, server.exited.then(() => 'exited')]);
  if (why === 'exited') {
    await server.stop();
    fail(`code-server stopped on its own; see ${server.logFile}`);
  }
  say(`stopping (${why})`);
  await server.stop();
  say('stopped');
  return 0;
}

/** What --check proves: the server is healthy, serves the workbench, and has our extension. */
async function verify(server, url, state) {
  const problems = [];
  const health = await fetch(`${server.url}/healthz`).then(
    (r) => r.status,
    (e) => e.message,
  );
  if (health !== 200) problems.push(`${server.url}/healthz answered ${health}`);
  const page = await fetch(url).then(
    async (r) => (r.ok ? await r.text() : `HTTP ${r.status}`),
    (e) => e.message,
  );
  if (!/workbench/i.test(page)) problems.push(`${url} did not serve the workbench (${page.slice(0, 80)})`);
  const installed = readdirSync(state.extensions).filter((d) => d.startsWith(`${EXTENSION_ID}-`));
  if (!installed.length) problems.push(`${EXTENSION_ID} is not in ${state.extensions}`);
  else if (!existsSync(join(state.extensions, installed[0], 'dist', 'extension.js')))
    problems.push(`${installed[0]} has no dist/extension.js`);
  const packages = JSON.parse(readFileSync(join(state.home, 'plugin-packages.json'), 'utf8'));
  const names = (packages.plugins ?? []).map((p) => p.name);
  if (DEMO_PLUGINS.some((n) => !names.includes(n)))
    problems.push(`the Reasonix home lists ${names.join(', ') || 'nothing'}`);
  // Reasonix sessions read machine-scoped settings: a remote window reads the server's Machine settings.
  const machineFile = join(state.userData, 'Machine', 'settings.json');
  const machine = existsSync(machineFile) ? JSON.parse(readFileSync(machineFile, 'utf8')) : {};
  if (machine['reasonix.sessions.model'] !== SESSION_MODEL)
    problems.push(`${machineFile} does not set reasonix.sessions.model to ${SESSION_MODEL}`);
  return problems;
}

main().then(
  (code) => process.exit(code),
  (err) => fail(err.stack ?? String(err)),
);
