// Issue 12 §6–7: the exec-form rules that were easy to get around, on POSIX and (on paper, with
// path.win32) on Windows, and each refusal proved end to end: nothing is launched.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { commandProblem, windowsTreeKill, type Platform } from '../../../src/host/plugins/commandRules';
import { decodeManifest, discoverPlugins } from '../../../src/host/plugins';
import { Sidecar, SidecarFailure } from '../../../src/host/sidecar';
import { liveDescendants } from '../../support/orphans';
import { pluginFor, SESSION } from '../sidecar/fixtures';
import { makeTempHome, v1Manifest } from './temp-home';

const WIN: Platform = { path: path.win32, os: 'win32' };
const POSIX: Platform = { path: path.posix, os: 'linux' };

describe('plugins: command rules on Windows (path.win32)', () => {
  it('refuses .cmd and .bat whatever the case, saying to use an .exe or node with the script', () => {
    for (const command of ['C:\\tools\\run.cmd', 'C:\\tools\\RUN.BAT', 'D:\\x\\y\\start.Cmd']) {
      const problem = commandProblem(command, [], WIN);
      assert.ok(problem, command);
      assert.match(problem, /must not be a batch file/);
      assert.match(problem, /\.exe/);
      assert.match(problem, /node\.exe with the script/);
    }
  });

  it('refuses shells by name with or without .exe, and accepts absolute programs', () => {
    for (const command of [
      'C:\\Windows\\System32\\cmd.exe',
      'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
      'C:\\Program Files\\PowerShell\\7\\PWSH.EXE',
      'C:\\msys64\\usr\\bin\\bash.exe',
    ]) {
      assert.match(commandProblem(command, [], WIN) ?? '', /must not be a shell/, command);
    }
    assert.equal(commandProblem('C:\\Program Files\\nodejs\\node.exe', ['C:\\ext\\main.js'], WIN), undefined);
    assert.equal(commandProblem('\\\\server\\share\\tool.exe', [], WIN), undefined, 'a UNC path is absolute');
  });

  it('refuses relative and drive-relative commands (no PATH lookup)', () => {
    for (const command of ['node.exe', 'bin\\tool.exe', 'C:tool.exe'])
      assert.match(commandProblem(command, [], WIN) ?? '', /must be absolute/, command);
  });

  it('names the tree kill: taskkill /T /F /PID', () => {
    assert.deepEqual(windowsTreeKill(4242), { command: 'taskkill', args: ['/T', '/F', '/PID', '4242'] });
  });

  it('does not apply the batch-file rule on POSIX', () => {
    assert.equal(commandProblem('/opt/x/run.cmd', [], POSIX), undefined);
  });
});

describe('plugins: command rules that were easy to get around', () => {
  it('refuses env launching a shell, in every spelling', () => {
    for (const args of [
      ['sh', '-c', 'x'],
      ['/bin/bash', '-c', 'x'],
      ['-i', 'FOO=1', 'dash'],
      ['-u', 'HOME', 'zsh'],
      ['--', 'sh'],
      ['-S', 'node x.js'],
      ['--split-string=sh -c x'],
    ]) {
      assert.ok(commandProblem('/usr/bin/env', args, POSIX), JSON.stringify(args));
    }
    assert.equal(
      commandProblem('/usr/bin/env', ['FOO=1', '/usr/bin/node', 'main.js'], POSIX),
      undefined,
      'env launching a program is fine',
    );
  });

  it('a NUL byte in command, args or env is a manifest error naming the field', () => {
    const file = '/p/reasonix-plugin.json';
    const reason = (runtime: Record<string, unknown>) => {
      const m = decodeManifest(JSON.stringify(v1Manifest('d', runtime)), file, '/p');
      assert.equal(m.status, 'invalid');
      return 'reason' in m ? m.reason : '';
    };
    assert.match(reason({ command: '/usr/bin/node\u0000x' }), /runtime\.command must not contain a NUL byte/);
    assert.match(reason({ args: ['a\u0000b'] }), /runtime\.args\[0\] must not contain a NUL byte/);
    assert.match(reason({ env: { A: 'x\u0000' } }), /runtime\.env\.A must not contain a NUL byte/);
  });

  it('accepts a UTF-8 BOM in reasonix-plugin.json and in plugin-packages.json', async () => {
    const home = await makeTempHome();
    try {
      const root = await home.manifest('plugins/bom', `\uFEFF${JSON.stringify(v1Manifest('bom'))}`);
      await home.packages(`\uFEFF${JSON.stringify({ version: 1, plugins: [{ name: 'bom', enabled: true, root }] })}`);
      const r = await discoverPlugins({ home: home.dir });
      assert.deepEqual(r.problems, []);
      assert.ok(
        r.plugins.some((p) => p.id === 'bom'),
        JSON.stringify(r.entries),
      );
    } finally {
      await home.remove();
    }
  });

  it('refuses a manifest over 1 MiB without reading it, with a clear message', async () => {
    const home = await makeTempHome();
    try {
      const root = await home.manifest(
        'dev/huge',
        JSON.stringify({ ...v1Manifest('huge'), description: 'd'.repeat(1024 * 1024) }),
      );
      const r = await discoverPlugins({ home: home.dir, linked: [root] });
      const entry = r.entries.find((e) => e.root === root);
      assert.equal(entry?.status, 'invalid');
      assert.match(
        entry?.reason ?? '',
        /reasonix-plugin\.json is \d+ bytes, over the 1048576 bytes \(1 MiB\) it may have/,
      );
    } finally {
      await home.remove();
    }
  });

  describe('at spawn, against the real file system', function () {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'rx-rules-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    async function refused(command: string, args: string[]): Promise<string> {
      const s = new Sidecar({
        plugin: pluginFor('well-behaved.js', { command, args }),
        session: SESSION,
        uiHost: 'headless',
      });
      try {
        await s.start();
      } catch (err) {
        assert.ok(err instanceof SidecarFailure);
        assert.equal(err.info.stage, 'spawn');
        assert.equal(s.pid, undefined, 'nothing was launched');
        assert.equal(liveDescendants().length, 0);
        return err.info.message;
      }
      await s.stop();
      throw new Error(`${command} was launched`);
    }

    it('resolves symlinks before the shell check: bin/notashell → /bin/sh is refused', async () => {
      const link = path.join(dir, 'notashell');
      symlinkSync('/bin/sh', link);
      writeFileSync(path.join(dir, 'marker'), '');
      const message = await refused(link, ['-c', `touch ${path.join(dir, 'ran')}`]);
      assert.match(message, /resolves to/);
      assert.match(message, /must not be a shell/);
    });

    it('refuses /usr/bin/env sh -c …, and env running a symlinked shell', async () => {
      assert.match(await refused('/usr/bin/env', ['sh', '-c', 'echo hi']), /shell through env/);
      const link = path.join(dir, 'innocent');
      symlinkSync('/bin/sh', link);
      assert.match(await refused('/usr/bin/env', [link, '-c', 'echo hi']), /shell through env/);
    });
  });
});
