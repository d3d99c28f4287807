// Issue 28: governance that no workspace, agent or other local user can switch off — containment
// on path segments, an endpoint only this user can create, fail-closed answers when a window cannot
// be asked, tool inputs too big to send, the headless bridge's budget and leftovers, and the
// endpoint's memory bounds. Real child processes throughout (the bridge program, fixture sidecars).
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import * as path from 'node:path';
import { join } from 'node:path';
import {
  containment,
  HOST_PATHS,
  listenEndpoint,
  listWindows,
  MAX_BUFFERED_BYTES,
  MAX_CONNECTIONS,
  newToken,
  PROTOCOL_VERSION,
  type PathRules,
} from '../../../src/host/endpoint';
import { HookWindow, hookRequestProblem, requestLine } from '../../../src/host/hooks';
import { alive } from '../../support/processes';
import { waitFor } from '../../support/wait';
import { pluginFolder } from '../../support/plugins';
import {
  CLI_JS,
  FIXTURES,
  fixture,
  hookOutput,
  quiet,
  runHook,
  runProgram,
  scratch,
  TestWindow,
  type PluginDef,
} from './support';

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

describe('agent-hooks governance (issue 28)', function () {
  this.timeout(40_000);
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
  const open = async (folder: string, plugins: PluginDef[], dirs = [dir]) => {
    const w = await TestWindow.open(dirs[0], folder, plugins, dirs);
    windows.push(w);
    return w;
  };
  const pre = (cwd: string, extra: Record<string, unknown> = {}) =>
    fixture('vscode-pre-tool-use', cwd, { tool_name: 'dangerous_exec', ...extra });
  const guard = (extra: Partial<PluginDef> = {}): PluginDef => ({
    name: 'guard',
    intercepts: ['tool.before'],
    points: { 'tool.before': { decision: 'block', reason: 'not here' } },
    ...extra,
  });

  describe('containment by path segments (item 3)', () => {
    it('a folder named ..cache inside the workspace is inside; .. and ../x are outside', () => {
      assert.ok(containment('/ws', '/ws/..cache/x') >= 0);
      assert.ok(containment('/ws', '/ws/.cache/x') >= 0);
      assert.ok(containment('/ws', '/ws/...') >= 0);
      assert.equal(containment('/ws', '/'), -1);
      assert.equal(containment('/ws', '/wsx'), -1);
      assert.equal(containment('/ws', '/other/ws'), -1);
      assert.equal(containment('/ws/a', '/ws'), -1);
    });

    it('case-insensitive file systems (Windows, macOS) compare folders without case; Windows separators count', () => {
      const win: PathRules = { ...path.win32, caseInsensitive: true };
      assert.ok(containment('C:\\Work\\Repo', 'c:\\work\\REPO\\..cache\\x', win) >= 0);
      assert.equal(containment('C:\\Work\\Repo', 'C:\\Work\\Repo2', win), -1);
      assert.equal(containment('C:\\Work\\Repo', 'C:\\Work', win), -1);
      const mac: PathRules = { ...path.posix, caseInsensitive: true };
      assert.ok(containment('/Users/me/Repo', '/users/ME/repo/src', mac) >= 0);
      assert.equal(HOST_PATHS.caseInsensitive, process.platform === 'win32' || process.platform === 'darwin');
    });

    it('end to end: a tool whose cwd is under <folder>/..cache is denied like <folder>/.cache', async () => {
      await open(ws, [guard()]);
      for (const sub of ['..cache', '.cache']) {
        mkdirSync(join(ws, sub, 'x'), { recursive: true });
        const r = await runHook(dir, 'PreToolUse', pre(join(ws, sub, 'x')));
        assert.equal(hookOutput(r.answer).permissionDecision, 'deny', `${sub}: ${r.stderr}`);
      }
    });

    it('a symlinked workspace folder matches a cwd given by its real path, and the other way round', async () => {
      const real = join(root, 'real-ws');
      mkdirSync(real, { recursive: true });
      const link = join(root, 'link-ws');
      symlinkSync(real, link);
      await open(link, [guard()]);
      const viaReal = await runHook(dir, 'PreToolUse', pre(join(real)));
      assert.equal(hookOutput(viaReal.answer).permissionDecision, 'deny', viaReal.stderr);
      const viaLink = await runHook(dir, 'PreToolUse', pre(join(link)));
      assert.equal(hookOutput(viaLink.answer).permissionDecision, 'deny', viaLink.stderr);
    });
  });

  describe('an endpoint only this user can create (item 2)', () => {
    it('a directory another user created first is refused, and the window opens in the next candidate', async () => {
      const taken = join(root, 'taken');
      mkdirSync(taken, { mode: 0o700 });
      // As root the directory really belongs to another user; otherwise one others may enter stands in.
      if (isRoot) chownSync(taken, NOBODY, NOBODY);
      else chmodSync(taken, 0o777);
      const w = await open(ws, [guard()], [taken, dir]);
      assert.equal(w.window.dir, dir);
      assert.equal(w.window.problem, undefined);
      const r = await runHook(dir, 'PreToolUse', pre(ws));
      assert.equal(hookOutput(r.answer).permissionDecision, 'deny');
    });

    it('a symlink planted where the directory goes is refused', async () => {
      const planted = join(root, 'planted');
      mkdirSync(join(root, 'elsewhere'), { mode: 0o700 });
      symlinkSync(join(root, 'elsewhere'), planted);
      await assert.rejects(
        HookWindow.open({
          dirs: [planted],
          runtime: process.execPath,
          folders: () => [],
          sessions: () => [],
          logger: quiet,
        }),
        /is not a directory/,
      );
    });

    it('no usable place to listen: the record says so, and a required extension fails closed (deny, naming it)', async () => {
      // A socket path longer than sun_path cannot be listened on; the directory itself is fine.
      const deep = join(dir, 'd'.repeat(100));
      const w = await open(ws, [guard({ required: true })], [deep]);
      assert.match(String(w.window.problem), /could not listen/);
      const r = await runHook(deep, 'PreToolUse', pre(ws));
      assert.equal(r.code, 0);
      assert.equal(hookOutput(r.answer).permissionDecision, 'deny', r.stderr);
      assert.match(
        String(hookOutput(r.answer).permissionDecisionReason),
        /Reasonix extension "guard" is required but the VS Code window could not be asked \(cannot be reached: could not listen/,
      );
      // An optional one is unheard: the user is asked, with why (issue 38 item 4).
      await w.close();
      windows.splice(windows.indexOf(w), 1);
      await open(ws, [guard()], [deep]);
      const optional = await runHook(deep, 'PreToolUse', pre(ws));
      assert.equal(hookOutput(optional.answer).permissionDecision, 'ask', optional.stdout);
      assert.match(optional.stderr, /Reasonix could not ask "guard" .*cannot be reached: could not listen/);
    });

    it('the bridge sends nothing to a record that is a link, nor to a socket outside the directory', async () => {
      const w = await open(ws, [guard()]);
      const file = join(dir, `${w.window.id}.json`);
      const record = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      // A record pointing at a socket elsewhere (e.g. one another user listens on).
      writeFileSync(file, JSON.stringify({ ...record, endpoint: join(root, 'evil.sock') }), { mode: 0o600 });
      const r = await runHook(dir, 'PreToolUse', pre(ws));
      // Nothing sent there: the optional guard is unheard (ask), saying why (issue 38 item 4).
      assert.equal(hookOutput(r.answer).permissionDecision, 'ask', r.stdout);
      assert.match(r.stderr, /evil\.sock is not in /);
      // The record replaced by a link to a copy: not even listed.
      const copy = join(root, 'copy.json');
      writeFileSync(copy, JSON.stringify(record), { mode: 0o600 });
      rmSync(file);
      symlinkSync(copy, file);
      assert.equal(listWindows(dir).length, 0);
    });
  });

  describe('a ruling that cannot be had is never an allow by silence (item 4)', () => {
    const big = (mib: number) => ({ payload: 'x'.repeat(mib * 1024 * 1024) });

    it('a tool input between the 8 MiB content limit and the 32 MiB request cap: optional → ask, required → deny', async () => {
      await open(ws, [guard()]);
      const r = await runHook(dir, 'PreToolUse', pre(ws, { tool_input: big(9) }), 30_000);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(hookOutput(r.answer).permissionDecision, 'ask', r.stderr);
      assert.match(String(hookOutput(r.answer).permissionDecisionReason), /could not ask guard \(frame_too_large/);
      await windows.pop()!.close();
      await open(ws, [guard({ required: true })]);
      const req = await runHook(dir, 'PreToolUse', pre(ws, { tool_input: big(9) }), 30_000);
      assert.equal(hookOutput(req.answer).permissionDecision, 'deny', req.stderr);
      assert.match(
        String(hookOutput(req.answer).permissionDecisionReason),
        /"guard" is required but could not be asked/,
      );
      // 7 MB is still asked, and denied by the guard's own rule.
      const small = await runHook(dir, 'PreToolUse', pre(ws, { tool_input: big(7) }), 30_000);
      assert.match(String(hookOutput(small.answer).permissionDecisionReason), /"guard" blocked this: not here/);
    });

    it('an optional extension that is not running: the tool call is put to the user (ask), with the reason', async () => {
      const w = await open(ws, [guard()]);
      await w.engine.stopPlugin('guard');
      const r = await runHook(dir, 'PreToolUse', pre(ws));
      assert.equal(hookOutput(r.answer).permissionDecision, 'ask', r.stderr);
      assert.match(String(hookOutput(r.answer).permissionDecisionReason), /could not ask guard \(provider_interrupted/);
    });
  });

  describe('reasonix-host hook --headless: the budget bounds the whole run, nothing is left behind (item 5)', () => {
    const stubborn = (name: string, required: boolean) =>
      pluginFolder(join(root, name), name, {
        command: process.execPath,
        args: [join(FIXTURES, 'stubborn.js')],
        capabilities: ['interceptors'],
        intercepts: ['tool.before'],
        required,
        env: { STUBBORN_PID: join(root, `${name}.pid`) },
      });
    const pids = (name: string) =>
      existsSync(join(root, `${name}.pid`))
        ? readFileSync(join(root, `${name}.pid`), 'utf8')
            .split('\n')
            .filter(Boolean)
            .map(Number)
        : [];
    const cli = (args: string[], input: unknown) =>
      runProgram(
        process.execPath,
        [CLI_JS, 'hook', ...args],
        JSON.stringify(input),
        { ...process.env, REASONIX_HOOKS_DIR: dir },
        20_000,
      );

    it('a plugin that never answers the handshake: answered within the 5 s budget; required → deny; nothing left running', async () => {
      const r = await cli(
        ['PreToolUse', '--headless', '--plugin', stubborn('slow', true)],
        fixture('claude-pre-tool-use', root),
      );
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.ms < 5_000 + 1_500, `within the budget (${Math.round(r.ms)} ms)`);
      assert.equal(hookOutput(r.answer).permissionDecision, 'deny', r.stderr);
      assert.match(String(hookOutput(r.answer).permissionDecisionReason), /"slow" is required but could not be asked/);
      for (const pid of pids('slow')) assert.equal(alive(pid), false, `sidecar ${pid} left running`);
    });

    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      it(`${signal} to the bridge while its plugin starts leaves no sidecar running`, async () => {
        const child = spawn(
          process.execPath,
          [CLI_JS, 'hook', 'PreToolUse', '--headless', '--plugin', stubborn('held', false)],
          {
            stdio: ['pipe', 'ignore', 'ignore'],
          },
        );
        child.stdin.end(JSON.stringify(fixture('claude-pre-tool-use', root)));
        await waitFor(() => pids('held').length > 0, { timeoutMs: 10_000, what: 'the sidecar started' });
        child.kill(signal);
        await new Promise((r) => child.once('exit', r));
        const [pid] = pids('held');
        await waitFor(() => !alive(pid), { timeoutMs: 5_000, what: `sidecar ${pid} gone after ${signal}` });
      });
    }
  });

  describe('the endpoint bounds its memory and checks every request early (item 6)', () => {
    const token = newToken();
    let sock: string;
    let server: Awaited<ReturnType<typeof listenEndpoint>> | undefined;
    const replies: unknown[] = [];
    beforeEach(async () => {
      mkdirSync(dir, { mode: 0o700 });
      sock = join(dir, 'caps.sock');
      server = await listenEndpoint(
        sock,
        token,
        {
          hook: {
            check: hookRequestProblem,
            handle: async (req) => {
              replies.push(req);
              return { v: PROTOCOL_VERSION, note: 'handled' };
            },
          },
        },
        () => undefined,
      );
    });
    const clients: Socket[] = [];
    afterEach(async () => {
      for (const c of clients.splice(0)) c.destroy();
      await new Promise((r) => server?.close(r));
      replies.length = 0;
    });
    const connect = () =>
      new Promise<Socket>((resolve, reject) => {
        const s = createConnection(sock);
        clients.push(s);
        s.once('connect', () => resolve(s));
        s.once('error', reject);
      });
    const answerOf = (s: Socket) =>
      new Promise<string>((resolve) => {
        let text = '';
        s.on('data', (d) => (text += d.toString()));
        s.on('close', () => resolve(text));
        s.on('error', () => undefined);
      });

    it('a wrong token is refused from the first bytes, before a newline or the rest arrives', async () => {
      const s = await connect();
      const answer = answerOf(s);
      s.write(`{"v":1,"token":"${'0'.repeat(64)}","event":"PreToolUse",`);
      s.write('x'.repeat(1024 * 1024)); // never reaches a newline
      assert.match(await answer, /"note":"wrong token"/);
      assert.equal(replies.length, 0);
    });

    it(`${MAX_BUFFERED_BYTES / 1048576} MiB held across connections at most: a flood without newlines is refused as busy`, async () => {
      const prefix = requestLine({ token, event: 'PreToolUse', inputText: '{}', budgetMs: 1000 }).slice(0, 90);
      const sockets = await Promise.all(Array.from({ length: 3 }, connect));
      try {
        const answers = sockets.map(answerOf);
        const chunk = 'x'.repeat(1024 * 1024);
        // 3 × 31 MiB, no newline: each alone fits the 32 MiB request cap, together they do not fit.
        for (let i = 0; i < 31; i++)
          for (const s of sockets) if (!s.destroyed) s.write(i === 0 ? prefix + chunk : chunk);
        const first = await Promise.race(answers.map((a, i) => a.then((text) => ({ i, text }))));
        assert.match(first.text, /the window is busy/, `socket ${first.i} was refused as busy`);
        assert.equal(replies.length, 0, 'nothing reached the handler');
      } finally {
        for (const s of sockets) s.destroy();
      }
    });

    it(`at most ${MAX_CONNECTIONS} connections are served at once`, async () => {
      const sockets = await Promise.all(
        Array.from({ length: MAX_CONNECTIONS + 8 }, () => connect().catch(() => undefined)),
      );
      await new Promise((r) => setTimeout(r, 300));
      const open = sockets.filter((s) => s && !s.destroyed && s.readyState === 'open').length;
      assert.ok(open <= MAX_CONNECTIONS, `${open} open`);
      for (const s of sockets) s?.destroy();
    });

    it('a nonsense budgetMs (NaN, 1e12, a string) is refused with its own note, not "no interceptor"', async () => {
      for (const budget of ['null', '1e12', '"soon"', '-1']) {
        // null: what JSON makes of NaN
        const s = await connect();
        const answer = answerOf(s);
        s.end(
          `{"v":1,"token":${JSON.stringify(token)},"kind":"hook","event":"PreToolUse","budgetMs":${budget},"input":{}}\n`,
        );
        assert.match(await answer, /invalid budgetMs/, budget);
      }
      assert.equal(replies.length, 0);
    });

    it('requests are served by kind, from a table: a known kind is handled, an unknown one refused by name', async () => {
      const good = await connect();
      const handled = answerOf(good);
      good.end(requestLine({ token, event: 'PreToolUse', inputText: '{"cwd":"/x"}', budgetMs: 1000 }));
      assert.match(await handled, /"note":"handled"/);
      assert.deepEqual(replies, [
        { v: PROTOCOL_VERSION, token, kind: 'hook', event: 'PreToolUse', budgetMs: 1000, input: { cwd: '/x' } },
      ]);
      const odd = await connect();
      const refused = answerOf(odd);
      odd.end(`{"v":1,"token":${JSON.stringify(token)},"kind":"toString","budgetMs":1000}\n`);
      assert.match(await refused, /unknown request kind \\"toString\\".*"unasked":true/);
      assert.equal(replies.length, 1);
    });
  });
});
