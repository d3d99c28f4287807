// `npm run demo` (scripts/demo.mjs) end to end: build, package, home, provision, code-server.
// It lives in the real-VS Code stage because it needs the provisioned code-server; the root hook
// (support/hooks.ts) fails a test that leaves any process behind.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './support/paths';
import { RetryableError, waitFor } from '../support/wait';

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
}

function demo(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): { child: ChildProcess; output: () => string; exited: Promise<Finished> } {
  const child = spawn(process.execPath, [join(repoRoot, 'scripts', 'demo.mjs'), ...args], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<Finished>((r) => child.once('close', (code, signal) => r({ code, signal })));
  return { child, output: () => out, exited };
}

function waitForOutput(run: ReturnType<typeof demo>, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  let ended = false;
  void run.exited.then(() => (ended = true));
  return waitFor(
    () => {
      const m = pattern.exec(run.output());
      if (m) return m;
      if (ended) throw new Error(`the demo exited before printing ${pattern}:\n${run.output()}`);
      throw new RetryableError(`output so far:\n${run.output()}`);
    },
    { timeoutMs, what: `the demo to print ${pattern}` },
  );
}

describe('npm run demo (scripts/demo.mjs)', function () {
  this.timeout(180_000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'reasonix-demo-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('--check builds, packages, prepares the home, starts code-server, verifies it, stops (exit 0)', async () => {
    const run = demo(['--check', '--dir', dir]);
    const { code } = await run.exited;
    const out = run.output();
    assert.equal(code, 0, out);
    for (const step of [
      '1/5 dependencies',
      '2/5 build and package',
      '3/5 prepare the Reasonix home',
      '4/5 provision code-server',
      '5/5 start code-server on 127.0.0.1:',
    ]) {
      assert.ok(out.includes(step), `progress line "${step}" in:\n${out}`);
    }
    assert.match(
      out,
      /check passed: http:\/\/127\.0\.0\.1:\d+\/healthz answers, the workbench loads, reasonix\.reasonix-vscode-host is installed, Reasonix sessions are set up; stopped/,
    );
  });

  it('serves the workbench in the foreground, prints the URL, and Ctrl+C stops everything (exit 0)', async () => {
    const run = demo(['--server', '--dir', dir]);
    try {
      const [, url] = await waitForOutput(run, /Open (http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)/, 120_000);
      await waitForOutput(run, /Press Ctrl\+C to stop/, 5_000);
      assert.ok(url.endsWith(`folder=${join(dir, 'workspace')}`), url);
      assert.match(run.output(), /Run Extension Action/, 'the what-to-try list');
      const origin = new URL(url).origin;
      assert.equal((await fetch(`${origin}/healthz`)).status, 200);
      run.child.kill('SIGINT');
      assert.deepEqual(await run.exited, { code: 0, signal: null });
      assert.match(run.output(), /stopping \(SIGINT\)\n\[demo\] stopped\n$/);
      await assert.rejects(fetch(`${origin}/healthz`), 'nothing listens any more');
    } finally {
      if (run.child.exitCode === null && run.child.signalCode === null) {
        run.child.kill('SIGTERM');
        await run.exited;
      }
    }
  });

  it('with a `code` command: installs the .vsix into a private profile and opens the workspace with REASONIX_HOME', async () => {
    // A stand-in for desktop VS Code's launcher that records how it was called.
    const bin = join(dir, 'fake-bin');
    const calls = join(dir, 'code-calls.log');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'code'), `#!/bin/sh\necho "$* | REASONIX_HOME=$REASONIX_HOME" >> '${calls}'\n`);
    chmodSync(join(bin, 'code'), 0o755);
    const run = demo(['--dir', join(dir, 'desktop')], { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` });
    const { code } = await run.exited;
    assert.equal(code, 0, run.output());
    const d = join(dir, 'desktop');
    const profile = `--extensions-dir ${d}/extensions --user-data-dir ${d}/user-data`;
    assert.deepEqual(readFileSync(calls, 'utf8').trim().split('\n'), [
      `${profile} --install-extension ${d}/reasonix-vscode-host.vsix --force | REASONIX_HOME=${process.env.REASONIX_HOME ?? ''}`,
      `${profile} --new-window ${d}/workspace | REASONIX_HOME=${d}/home`,
    ]);
    assert.match(run.output(), /5\/5 open the demo workspace/);
    // The profile lets a newcomer try agent mode with the sample's model, offline and signed out.
    const settings = JSON.parse(readFileSync(join(d, 'user-data', 'User', 'settings.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    assert.equal(settings['chat.allowAnonymousAccess'], true);
    assert.equal(settings['chat.disableAIFeatures'], undefined);
    // A Reasonix session with the companion's offline model, and the pinned Reasonix when PATH has none
    // (desktop VS Code reads machine-scoped settings from the user settings).
    assert.equal(settings['reasonix.sessions.model'], 'plugin/companion/echo/echo-1');
    const rx = settings['reasonix.path'];
    if (rx !== undefined) assert.ok(existsSync(rx as string), `reasonix.path ${String(rx)} exists`);
    const home = JSON.parse(readFileSync(join(d, 'home', 'plugin-packages.json'), 'utf8')) as {
      plugins: { name: string }[];
    };
    assert.deepEqual(home.plugins.map((p) => p.name).sort(), ['companion', 'hello', 'showcase']);
    assert.match(run.output(), /Open Reasonix Session/);
    const keys = JSON.parse(readFileSync(join(d, 'user-data', 'User', 'keybindings.json'), 'utf8')) as {
      key: string;
      command: string;
      args: { mode: string; modelSelector: { vendor: string } };
    }[];
    assert.deepEqual(
      keys.map((k) => [k.key, k.command, k.args.mode, k.args.modelSelector.vendor]),
      [
        ['f9', 'workbench.action.chat.open', 'agent', 'reasonix'],
        ['shift+f9', 'workbench.action.chat.open', 'agent', 'reasonix'],
      ],
    );
    assert.match(run.output(), /Agent mode: press F9/);
  });

  it('rejects a bad --port with exit 2 before doing anything', async () => {
    const run = demo(['--port', 'eighty', '--dir', join(dir, 'unused')]);
    assert.equal((await run.exited).code, 2);
    assert.match(run.output(), /--port must be a port number/);
    assert.doesNotMatch(run.output(), /1\/5/);
  });
});
