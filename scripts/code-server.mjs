// code-server for the demo, on a port a person can type: installs the packaged extension and runs
// the server as the leader of its own process group (it forks extension hosts, file watchers and
// pty hosts that outlive it), so stopping always ends the whole group. Everything it writes (HOME,
// XDG folders, config, user data, extensions) lives in one private folder.
//
// The UI tests' harness (test/e2e/support/codeServer.ts) starts code-server on port 0 for a fresh
// profile per test; the demo needs a stable port, a kept profile and a foreground lifetime, so it
// has this small launcher of its own. Only Node built-ins: it runs before `npm ci` may have.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sandboxEnv } from './vscode/sandboxEnv.cjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
/** The id VS Code gives the packaged extension (publisher.name, lower case). */
export const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`.toLowerCase();

/** HOME and XDG folders inside the sandbox (the one copy, shared with the UI tests' harness). */
export { sandboxEnv };

function configFile(sandbox) {
  const file = join(sandbox, 'code-server.yaml');
  // Only 127.0.0.1 and no password: the workbench is for the person at this machine.
  writeFileSync(file, 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n');
  return file;
}

/** `preferred` when nothing listens on it, else a port the kernel picks. */
export function freePort(preferred) {
  const tryListen = (port) =>
    new Promise((resolvePort, reject) => {
      const srv = createServer();
      srv.once('error', reject);
      srv.listen(port, '127.0.0.1', () => {
        const { port: got } = srv.address();
        srv.close(() => resolvePort(got));
      });
    });
  return tryListen(preferred).catch(() => tryListen(0));
}

/** Installs a .vsix with code-server's own CLI (the same code desktop VS Code uses). */
export async function installExtension({ provisioned, sandbox, vsix, extensionsDir }) {
  mkdirSync(extensionsDir, { recursive: true });
  const child = spawn(
    provisioned.node,
    [
      provisioned.codeServerEntry,
      '--install-extension',
      vsix,
      '--force',
      '--extensions-dir',
      extensionsDir,
      '--user-data-dir',
      join(sandbox, 'install-user-data'),
      '--config',
      configFile(sandbox),
    ],
    { env: sandboxEnv(sandbox), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const code = await new Promise((r) => {
    child.once('exit', r);
    child.once('error', (e) => {
      out += e.message;
      r(null);
    });
  });
  if (code !== 0 || !/successfully installed/i.test(out))
    throw new Error(`installing ${vsix} failed (exit ${code}): ${out.trim()}`);
}

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // the group is empty
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Adds the keys a settings file lacks (what a person set is kept); creates it when missing. */
function addSettings(file, wanted) {
  mkdirSync(dirname(file), { recursive: true });
  const settings = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  writeFileSync(file, JSON.stringify({ ...wanted, ...settings }, null, 2));
}

/**
 * A calm first start with VS Code's chat on in agent mode without a sign-in (anonymous access), and
 * F9 / Shift+F9 bound to sample agent turns with the showcase's echo model: one calls a Reasonix
 * tool, one a tool the showcase blocks. Kept afterwards, so what a person changes survives the next
 * demo; keys it lacks (a profile from an older demo) are added. `machineSettings` (reasonix.path,
 * reasonix.sessions.model) go where VS Code reads machine-scoped settings: the server's Machine
 * settings for code-server (a remote window ignores them in the user settings), the user settings
 * for desktop VS Code (`remote: false`).
 */
export function writeDemoProfile(userDataDir, { machineSettings = {}, remote = true } = {}) {
  const dir = join(userDataDir, 'User');
  mkdirSync(dir, { recursive: true });
  const settingsFile = join(dir, 'settings.json');
  const settings = existsSync(settingsFile) ? JSON.parse(readFileSync(settingsFile, 'utf8')) : {};
  const wanted = {
    'workbench.startupEditor': 'none',
    'telemetry.telemetryLevel': 'off',
    'extensions.autoUpdate': false,
    'extensions.autoCheckUpdates': false,
    'workbench.tips.enabled': false,
    // VS Code's agent with the sample's model, offline: chat setup completes without a sign-in.
    'chat.allowAnonymousAccess': true,
  };
  // Earlier demos turned AI features off; agent mode is part of the demo now.
  if (!('chat.allowAnonymousAccess' in settings)) delete settings['chat.disableAIFeatures'];
  writeFileSync(settingsFile, JSON.stringify({ ...wanted, ...(remote ? {} : machineSettings), ...settings }, null, 2));
  if (remote) addSettings(join(userDataDir, 'Machine', 'settings.json'), machineSettings);
  const keysFile = join(dir, 'keybindings.json');
  if (!existsSync(keysFile)) writeFileSync(keysFile, JSON.stringify(DEMO_KEYBINDINGS, null, 2));
}

const COUNT_WORDS = 'mcp_reasonix_ext__showcase__count_words';
const agentTurn = (key, query) => ({
  key,
  command: 'workbench.action.chat.open',
  args: { mode: 'agent', query, modelSelector: { vendor: 'reasonix' } },
});
/** Sample turns: the echo model calls the tool a `call <tool> <json>` line names. */
export const DEMO_KEYBINDINGS = [
  agentTurn('f9', `call ${COUNT_WORDS} {"text":"Reasonix tools in a VS Code agent"}`),
  agentTurn('shift+f9', `call ${COUNT_WORDS} {"text":"[showcase:block-tool] please count this"}`),
];

/**
 * Starts code-server on 127.0.0.1:`port` and resolves once /healthz answers. `env` reaches the
 * extension host (REASONIX_HOME). `stop()` ends the whole process group (TERM, then KILL).
 */
export async function startCodeServer({
  provisioned,
  sandbox,
  port,
  userDataDir,
  extensionsDir,
  env = {},
  machineSettings = {},
  readyTimeoutMs = 90_000,
}) {
  writeDemoProfile(userDataDir, { machineSettings });
  const logFile = join(sandbox, 'code-server.log');
  const fd = openSync(logFile, 'w');
  const child = spawn(
    provisioned.node,
    [
      provisioned.codeServerEntry,
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--config',
      configFile(sandbox),
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
    ],
    { cwd: sandbox, env: sandboxEnv(sandbox, env), detached: true, stdio: ['ignore', fd, fd] },
  );
  closeSync(fd);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`cannot start ${provisioned.node}`);
  let done = false;
  const exited = new Promise((r) => {
    child.once('exit', (code) => {
      done = true;
      r(code);
    });
    child.once('error', () => {
      done = true;
      r(null);
    });
  });
  // Last resort if this process ends any other way: 'exit' handlers can only be synchronous.
  const onExit = () => signalGroup(pid, 'SIGKILL');
  process.on('exit', onExit);

  let stopped;
  const stop = () =>
    (stopped ??= (async () => {
      signalGroup(pid, 'SIGTERM');
      const deadline = Date.now() + 3000;
      while (signalGroup(pid, 0) && Date.now() < deadline) await sleep(50);
      signalGroup(pid, 'SIGKILL');
      await exited;
      // Killed members linger as zombies until init reaps them; wait for that, bounded.
      const reaped = Date.now() + 5000;
      while (signalGroup(pid, 0) && Date.now() < reaped) await sleep(20);
      process.off('exit', onExit);
    })());

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (done) {
      await stop();
      const tail = readFileSync(logFile, 'utf8').trim().split('\n').slice(-15).join('\n');
      throw new Error(`code-server exited during start-up; last lines of ${logFile}:\n${tail}`);
    }
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer ${url}/healthz within ${readyTimeoutMs / 1000} s; see ${logFile}`);
    }
    await sleep(200);
  }
  return { url, pid, logFile, exited, stop };
}
