// The bridge's failure rules: whatever goes wrong it exits 0, prints nothing but a JSON answer on
// stdout, and says why on stderr; only a required extension that cannot be asked turns into a
// refusal. Plus the endpoint's privacy: a 0700 directory, 0600 socket and records, and another
// user cannot connect.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ensurePrivateDir,
  hooksDir,
  hooksDirs,
  listWindows,
  privacyProblem,
  RUNTIME_FILE,
} from '../../../src/host/endpoint';
import { budgetFor } from '../../../src/host/hooks';
import { fixture, hookOutput, runHook, scratch, TestWindow, type PluginDef } from './support';

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

describe('agent-hooks bridge: failure rules', function () {
  this.timeout(30_000);
  let root: string;
  let dir: string;
  let ws: string;
  const windows: TestWindow[] = [];

  beforeEach(() => {
    ({ root, dir } = scratch());
    ws = join(root, 'ws');
  });
  afterEach(async () => {
    await Promise.all(windows.splice(0).map((w) => w.close()));
    rmSync(root, { recursive: true, force: true });
  });

  const open = async (folder: string, plugins: PluginDef[]) => {
    const w = await TestWindow.open(dir, folder, plugins);
    windows.push(w);
    return w;
  };
  const pre = (cwd: string) => fixture('vscode-pre-tool-use', cwd, { tool_name: 'dangerous_exec' });
  const noDecision = (r: { code: number | null; stdout: string }) => {
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '', 'no decision: nothing on stdout');
  };
  // The 200 ms figure for "no window" is measured by bench/agentHooks.ts; here: no waiting at all.
  const quick = (ms: number) =>
    assert.ok(ms < budgetFor('PreToolUse') / 2, `answered without waiting (${Math.round(ms)} ms)`);

  it('no window serves the folder → exit 0, no decision, a note on stderr, no waiting', async () => {
    await open(ws, [
      { name: 'guard', intercepts: ['tool.before'], points: { 'tool.before': { decision: 'block', reason: 'no' } } },
    ]);
    const r = await runHook(dir, 'PreToolUse', pre(join(root, 'elsewhere')));
    noDecision(r);
    assert.match(r.stderr, /no VS Code window with Reasonix serves .*elsewhere; no decision/);
    quick(r.ms);
  });

  it('no window has ever run (no hooks directory) → no decision', async () => {
    const r = await runHook(join(root, 'never-created'), 'PreToolUse', pre(ws));
    noDecision(r);
    assert.match(r.stderr, /no VS Code window with Reasonix serves .*; no decision/);
    quick(r.ms);
  });

  it('the endpoint is gone (record of a live process, no socket) → no decision, no waiting', async () => {
    ensurePrivateDir(dir);
    writeFileSync(
      join(dir, 'gone.json'),
      JSON.stringify({
        v: 1,
        id: 'gone',
        pid: process.pid,
        endpoint: join(dir, 'gone.sock'),
        token: 't',
        folders: [ws],
        startedAt: Date.now(),
      }),
      { mode: 0o600 },
    );
    const r = await runHook(dir, 'PreToolUse', pre(ws));
    noDecision(r);
    assert.match(r.stderr, /cannot be reached: .*gone\.sock is missing \(ENOENT\); no decision/);
    quick(r.ms);
  });

  it('a request with the wrong token is refused by the window → an optional extension it would have asked is unheard: "ask", naming it', async () => {
    const w = await open(ws, [
      { name: 'guard', intercepts: ['tool.before'], points: { 'tool.before': { decision: 'block', reason: 'no' } } },
    ]);
    const file = join(dir, `${w.window.id}.json`);
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), token: 'f'.repeat(64) }));
    const r = await runHook(dir, 'PreToolUse', pre(ws));
    assert.equal(r.code, 0);
    assert.equal(hookOutput(r.answer).permissionDecision, 'ask', r.stdout);
    assert.match(
      String(hookOutput(r.answer).permissionDecisionReason),
      /Reasonix could not ask "guard" \(the VS Code window could not be asked: refused the request: wrong token\)/,
    );
    assert.match(r.stderr, /wrong token/);
    assert.equal(w.received().length, 0, 'nothing was dispatched');
  });

  it('a folder of the window without a running session → no decision', async () => {
    const w = await open(ws, []);
    await w.engine.stop();
    const r = await runHook(dir, 'PreToolUse', pre(ws));
    noDecision(r);
  });

  it('a required extension that crashed cannot be asked → deny, with the reason', async () => {
    const w = await open(ws, [{ name: 'guard', required: true, intercepts: ['tool.before'] }]);
    const pid = w.engine.plugins().find((p) => p.pluginId === 'guard')?.pid;
    assert.ok(pid);
    const crashed = new Promise<void>((r) => w.engine.onCrash(() => r()));
    process.kill(pid, 'SIGKILL');
    await crashed;
    const r = await runHook(dir, 'PreToolUse', pre(ws));
    const out = hookOutput(r.answer);
    assert.equal(out.permissionDecision, 'deny');
    assert.match(
      String(out.permissionDecisionReason),
      /Reasonix extension "guard" is required but could not be asked \(it is crashed\)/,
    );
    assert.equal(r.stdout.split('\n').filter(Boolean).length, 1, 'exactly one JSON line on stdout');
  });

  it('a required extension that does not answer in time → deny before the 5 s budget ends', async () => {
    await open(ws, [
      {
        name: 'slowpoke',
        required: true,
        timeoutMillis: 60_000,
        intercepts: ['tool.before'],
        points: { 'tool.before': { never: true } },
      },
    ]);
    const r = await runHook(dir, 'PreToolUse', pre(ws));
    assert.equal(hookOutput(r.answer).permissionDecision, 'deny');
    assert.match(
      String(hookOutput(r.answer).permissionDecisionReason),
      /"slowpoke" is required but could not be asked \(no answer within the tool.before budget\)/,
    );
    assert.ok(r.ms < budgetFor('PreToolUse') + 1000, `the bridge kept to its budget (${Math.round(r.ms)} ms)`);
  });

  it('an optional extension that does not answer in time → never silent: a system message, and the bridge never hangs past the budget', async () => {
    await open(ws, [
      {
        name: 'dawdler',
        timeoutMillis: 60_000,
        intercepts: ['input.receive'],
        points: { 'input.receive': { never: true } },
      },
    ]);
    const w = windows[windows.length - 1];
    const r = await runHook(dir, 'UserPromptSubmit', fixture('vscode-user-prompt-submit', ws));
    assert.equal(r.code, 0);
    assert.match(String(r.answer?.systemMessage), /Reasonix could not ask dawdler \(intercept_timeout: .*\)/);
    assert.equal(r.answer?.decision, undefined, 'the prompt is not blocked for an optional extension');
    assert.match(String(w.decisions[0]?.record.unheard), /^dawdler \(intercept_timeout/);
    assert.ok(r.ms < budgetFor('UserPromptSubmit') + 1000, `the bridge kept to its budget (${Math.round(r.ms)} ms)`);
  });

  it('invalid JSON on stdin → exit 0, no decision, a note on stderr', async () => {
    await open(ws, []);
    for (const text of ['{"tool_name": "x",', '', '[1,2]']) {
      const r = await runHook(dir, 'PreToolUse', text);
      noDecision(r);
      assert.match(r.stderr, /reasonix-hook: stdin is not (JSON|a JSON object).*; no decision/, JSON.stringify(text));
    }
  });

  it('an input without tool_name → no decision (nothing dispatched)', async () => {
    const w = await open(ws, [
      { name: 'guard', intercepts: ['tool.before'], points: { 'tool.before': { decision: 'block', reason: 'no' } } },
    ]);
    const r = await runHook(dir, 'PreToolUse', { cwd: ws, tool_input: {} });
    noDecision(r);
    assert.equal(w.received().length, 0);
  });

  it('two windows with nested folders: the innermost folder wins, a sibling goes to the outer window', async () => {
    const inner = join(ws, 'packages', 'inner');
    await open(ws, [
      {
        name: 'outer-guard',
        intercepts: ['tool.before'],
        points: { 'tool.before': { decision: 'block', reason: 'outer window' } },
      },
    ]);
    await open(inner, [
      {
        name: 'inner-guard',
        intercepts: ['tool.before'],
        points: { 'tool.before': { decision: 'block', reason: 'inner window' } },
      },
    ]);
    mkdirSync(join(inner, 'src'), { recursive: true });
    const inInner = hookOutput((await runHook(dir, 'PreToolUse', pre(join(inner, 'src')))).answer);
    assert.match(String(inInner.permissionDecisionReason), /"inner-guard".*inner window/);
    const inOuter = hookOutput((await runHook(dir, 'PreToolUse', pre(join(ws, 'packages', 'other')))).answer);
    assert.match(String(inOuter.permissionDecisionReason), /"outer-guard".*outer window/);
  });

  it('the endpoint is private: 0700 directory, 0600 socket, record and runtime file', async () => {
    const w = await open(ws, []);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(w.window.endpoint).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, `${w.window.id}.json`)).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, RUNTIME_FILE)).mode & 0o777, 0o600);
    assert.equal(readFileSync(join(dir, RUNTIME_FILE), 'utf8').trim(), process.execPath);
    assert.equal(statSync(w.window.endpoint).uid, process.getuid?.());
  });

  it('another user cannot open the endpoint', async function () {
    const w = await open(ws, []);
    const probe = `require('net').createConnection(${JSON.stringify(w.window.endpoint)}).on('connect',()=>{console.log('connected');process.exit(0)}).on('error',(e)=>{console.log(e.code);process.exit(0)})`;
    if (isRoot) {
      // Root can run the probe as "nobody": the kernel refuses it at the 0700 directory.
      const r = spawnSync(process.execPath, ['-e', probe], { uid: NOBODY, gid: NOBODY, encoding: 'utf8' });
      assert.equal(r.stdout.trim(), 'EACCES');
    } else {
      // Without root no other user is at hand: the modes above are what the kernel enforces.
      assert.equal(statSync(dir).mode & 0o077, 0);
    }
    const me = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
    assert.equal(me.stdout.trim(), 'connected', 'the owner can');
  });

  it('a hooks directory other users could enter or own is refused by the window and ignored by the bridge', async () => {
    mkdirSync(dir, { mode: 0o777 });
    chmodSync(dir, 0o777);
    assert.match(String(privacyProblem(dir)), /open to other users \(mode 777\)/);
    assert.throws(() => ensurePrivateDir(dir), /agent hooks endpoint refused: .*open to other users/);
    writeFileSync(
      join(dir, 'planted.json'),
      JSON.stringify({
        v: 1,
        id: 'planted',
        pid: process.pid,
        endpoint: join(dir, 'planted.sock'),
        token: 't',
        folders: [ws],
        startedAt: Date.now(),
      }),
    );
    const r = await runHook(dir, 'PreToolUse', pre(ws));
    noDecision(r);
    assert.match(r.stderr, /open to other users/);
    if (isRoot) {
      chmodSync(dir, 0o700);
      chownSync(dir, NOBODY, NOBODY);
      assert.match(String(privacyProblem(dir)), /belongs to another user/);
    }
    assert.equal(listWindows(dir).length, 0, "a record that is not its owner's own 0600 file is not even listed");
  });

  it('the default directories belong to the user alone: $XDG_RUNTIME_DIR/reasonix-host, else the state directory, never /tmp', () => {
    const home = mkdtempSync(join(tmpdir(), 'rx-home-'));
    try {
      const runtime = join(home, 'run');
      mkdirSync(runtime, { mode: 0o700 });
      chmodSync(runtime, 0o700);
      const state = process.platform === 'darwin' ? join(home, 'Library', 'Caches') : join(home, '.local', 'state');
      assert.deepEqual(hooksDirs({ HOME: home, XDG_RUNTIME_DIR: runtime, TMPDIR: '/somewhere/else' }), [
        join(runtime, 'reasonix-host'),
        join(state, 'reasonix-host', 'hooks'),
      ]);
      assert.equal(hooksDir({ HOME: home }), join(state, 'reasonix-host', 'hooks'));
      if (process.platform !== 'darwin')
        assert.equal(
          hooksDir({ HOME: home, XDG_STATE_HOME: join(home, 's') }),
          join(home, 's', 'reasonix-host', 'hooks'),
        );
      // A runtime directory others may enter is not used.
      chmodSync(runtime, 0o755);
      assert.deepEqual(hooksDirs({ HOME: home, XDG_RUNTIME_DIR: runtime }), [join(state, 'reasonix-host', 'hooks')]);
      assert.deepEqual(hooksDirs({ REASONIX_HOOKS_DIR: '/x/y' }), ['/x/y']);
      for (const d of hooksDirs({ HOME: home, XDG_RUNTIME_DIR: runtime }))
        assert.ok(!d.startsWith('/tmp/reasonix-host'));
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
