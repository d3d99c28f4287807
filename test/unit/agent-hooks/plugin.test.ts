// The contributed agent plugin as VS Code 1.139 reads it (.claude-plugin/plugin.json +
// hooks/hooks.json, `${CLAUDE_PLUGIN_ROOT}` substituted into command/linux/osx/windows), and its
// launcher run exactly like a hook command: `sh -c <command>` on a PATH without `node`, the bridge
// bundled the way esbuild.mjs bundles dist/hook.js, the runtime taken from the window's record.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { chownSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync, stop as stopEsbuild } from 'esbuild';
import { fixture, hookOutput, REPO, runProgram, scratch, TestWindow } from './support';

const PLUGIN = join(REPO, 'agent-plugin');
const EVENTS = ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'SessionStart'];

interface HookCommand {
  type: string;
  command: string;
  linux: string;
  osx: string;
  windows: string;
  timeout: number;
}

function hooksJson(): Record<string, { hooks: HookCommand[] }[]> {
  return (
    JSON.parse(readFileSync(join(PLUGIN, 'hooks', 'hooks.json'), 'utf8')) as {
      hooks: Record<string, { hooks: HookCommand[] }[]>;
    }
  ).hooks;
}

/** A PATH holding only the tools the launcher uses, and no node. */
function pathWithoutNode(root: string): string {
  const bin = join(root, 'bin-no-node');
  mkdirSync(bin);
  for (const tool of ['sh', 'id', 'head', 'dirname', 'cat']) {
    const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    assert.ok(found, `${tool} exists on this machine`);
    symlinkSync(found, join(bin, tool));
  }
  const probe = spawnSync(join(bin, 'sh'), ['-c', 'command -v node'], { env: { PATH: bin }, encoding: 'utf8' });
  assert.ok(probe.status !== 0 && probe.stdout === '', 'no node on that PATH');
  return bin;
}

describe('agent-hooks bridge: the contributed agent plugin and its launcher', function () {
  this.timeout(30_000);
  let root: string;
  let dir: string;
  let installed: string;
  let win: TestWindow | undefined;

  before(() => {
    ({ root, dir } = scratch());
    // What the .vsix holds: agent-plugin/ next to dist/hook.js.
    installed = join(root, 'extension');
    cpSync(PLUGIN, join(installed, 'agent-plugin'), { recursive: true });
    buildSync({
      entryPoints: [join(REPO, 'src', 'hook.ts')],
      outfile: join(installed, 'dist', 'hook.js'),
      bundle: true,
      minify: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'silent',
    });
    stopEsbuild(); // no esbuild service may outlive the build (every test checks for leftovers)
  });
  after(() => rmSync(root, { recursive: true, force: true }));
  afterEach(async () => {
    await win?.close();
    win = undefined;
  });

  it('ships the Claude plugin layout VS Code 1.139 reads for a chatPlugins folder', () => {
    const manifest = JSON.parse(readFileSync(join(PLUGIN, '.claude-plugin', 'plugin.json'), 'utf8')) as {
      name: string;
    };
    assert.equal(manifest.name, 'reasonix-agent-hooks');
    // VS Code picks the format by the first manifest it finds; another one would change the token.
    assert.equal(existsSync(join(PLUGIN, '.plugin', 'plugin.json')), false);
    assert.equal(existsSync(join(PLUGIN, 'plugin.json')), false);
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
      contributes: {
        chatPlugins: { path: string; when: string }[];
        configuration: { properties: Record<string, { default: unknown }> }[];
      };
    };
    assert.deepEqual(pkg.contributes.chatPlugins, [
      { path: './agent-plugin', when: 'config.reasonix.agentHooks.enabled && isWorkspaceTrusted' },
    ]);
    const setting = pkg.contributes.configuration.map((c) => c.properties['reasonix.agentHooks.enabled']).find(Boolean);
    assert.equal(setting?.default, true);
    const ignore = readFileSync(join(REPO, '.vscodeignore'), 'utf8').split('\n');
    assert.ok(
      ignore.includes('!agent-plugin/**') && ignore.includes('!dist/hook.js'),
      'both are in the .vsix allow-list',
    );
  });

  it('hooks.json has one command hook per mapped event, with linux/osx/windows overrides and a timeout above the budget', () => {
    const hooks = hooksJson();
    assert.deepEqual(Object.keys(hooks).sort(), [...EVENTS].sort());
    for (const event of EVENTS) {
      const [h] = hooks[event][0].hooks;
      assert.equal(h.type, 'command');
      for (const cmd of [h.command, h.linux, h.osx])
        assert.equal(cmd, `sh \${CLAUDE_PLUGIN_ROOT}/bin/reasonix-hook ${event}`);
      assert.equal(h.windows, `cmd /d /c \${CLAUDE_PLUGIN_ROOT}\\bin\\reasonix-hook.cmd ${event}`);
      assert.ok(
        h.timeout * 1000 > (event === 'SessionStart' ? 30_000 : 5_000),
        `${event}: VS Code's timeout leaves the bridge its budget`,
      );
    }
    const cmd = readFileSync(join(PLUGIN, 'bin', 'reasonix-hook.cmd'), 'utf8');
    assert.match(cmd, /set ELECTRON_RUN_AS_NODE=1\r\n"%rt%" "%~dp0\.\.\\\.\.\\dist\\hook\.js" %\*\r\nexit \/b 0/);
  });

  it('each hook command, run like VS Code runs it on Linux with no node on PATH, reaches the window and answers', async () => {
    const ws = join(root, 'ws');
    win = await TestWindow.open(dir, ws, [
      {
        name: 'guard',
        intercepts: ['tool.before', 'input.receive', 'tool.after', 'agent.before_start'],
        points: { '*': { decision: 'block', reason: 'policy says no' } },
      },
    ]);
    const env = { PATH: pathWithoutNode(root), REASONIX_HOOKS_DIR: dir };
    const pluginRoot = join(installed, 'agent-plugin');
    const inputs: Record<string, string> = {
      UserPromptSubmit: 'vscode-user-prompt-submit',
      PreToolUse: 'vscode-pre-tool-use',
      PostToolUse: 'vscode-post-tool-use',
      SessionStart: 'vscode-session-start',
    };
    for (const event of EVENTS) {
      // VS Code substitutes the token with the plugin folder (quoting it when it has spaces).
      const command = hooksJson()[event][0].hooks[0].linux.replaceAll('${CLAUDE_PLUGIN_ROOT}', pluginRoot);
      const r = await runProgram(
        join(env.PATH, 'sh'),
        ['-c', command],
        JSON.stringify(fixture(inputs[event], ws)),
        env,
      );
      assert.equal(r.code, 0, `${event}: ${r.stderr}`);
      const text = JSON.stringify(r.answer);
      assert.match(text, /Reasonix extension \\"guard\\".*policy says no/, `${event} answered: ${text}`);
    }
    assert.equal(
      hookOutput(
        (
          await runProgram(
            join(env.PATH, 'sh'),
            ['-c', `sh ${pluginRoot}/bin/reasonix-hook PreToolUse`],
            JSON.stringify(fixture('vscode-pre-tool-use', ws)),
            env,
          )
        ).answer,
      ).permissionDecision,
      'deny',
    );
  });

  it('before any window recorded a runtime the launcher answers nothing (exit 0) and consumes stdin', async () => {
    const empty = join(root, 'empty-hooks');
    mkdirSync(empty, { mode: 0o700 });
    const r = await runProgram(
      'sh',
      [join(installed, 'agent-plugin', 'bin', 'reasonix-hook'), 'PreToolUse'],
      JSON.stringify({ cwd: root, tool_name: 'x' }),
      { PATH: process.env.PATH, REASONIX_HOOKS_DIR: empty },
    );
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /no VS Code window with Reasonix agent hooks has run for this user; no decision/);
  });

  it('the launcher never runs a runtime recorded in a directory another user owns', async function () {
    if (process.getuid?.() !== 0) {
      // Only root can hand a directory to another user; the check is `[ -O "$d" ]` in the launcher.
      assert.match(readFileSync(join(PLUGIN, 'bin', 'reasonix-hook'), 'utf8'), /\[ ! -O "\$d" \]/);
      return;
    }
    const planted = join(root, 'planted-hooks');
    mkdirSync(planted, { mode: 0o700 });
    const marker = join(root, 'ran');
    writeFileSync(join(planted, 'runtime'), `/bin/sh -c "touch ${marker}"\n`);
    chownSync(join(planted, 'runtime'), 65534, 65534);
    chownSync(planted, 65534, 65534);
    const r = await runProgram('sh', [join(installed, 'agent-plugin', 'bin', 'reasonix-hook'), 'PreToolUse'], '{}', {
      PATH: process.env.PATH,
      REASONIX_HOOKS_DIR: planted,
    });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.equal(existsSync(marker), false);
  });
});
