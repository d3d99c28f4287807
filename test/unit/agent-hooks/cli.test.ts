// `reasonix-host hook <Event>`: the same bridge for agents outside VS Code. Without --headless it
// asks the window serving cwd; with --headless it starts the plugins for one event and stops them
// (the root hook checks that no process is left behind).
import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_JS, fixture, hookOutput, REPO, runProgram, scratch, TestWindow } from './support';
import { pluginFolder } from '../../support/plugins';

const SHOWCASE = join(REPO, 'examples', 'showcase');

describe('reasonix-host hook', function () {
  this.timeout(30_000);
  let root: string;
  let dir: string;
  let win: TestWindow | undefined;

  beforeEach(() => ({ root, dir } = scratch()));
  afterEach(async () => {
    await win?.close();
    win = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  const cli = (args: string[], input: unknown) =>
    runProgram(process.execPath, [CLI_JS, 'hook', ...args], typeof input === 'string' ? input : JSON.stringify(input), {
      ...process.env,
      REASONIX_HOOKS_DIR: dir,
    });

  it('asks the window serving cwd, exactly like the agent plugin', async () => {
    const ws = join(root, 'ws');
    win = await TestWindow.open(dir, ws, [
      {
        name: 'guard',
        intercepts: ['tool.before'],
        points: { 'tool.before': { decision: 'block', reason: 'not from a terminal agent' } },
      },
    ]);
    const r = await cli(['PreToolUse'], fixture('claude-pre-tool-use', ws));
    assert.equal(r.code, 0);
    assert.equal(hookOutput(r.answer).permissionDecision, 'deny');
    assert.match(
      String(hookOutput(r.answer).permissionDecisionReason),
      /"guard" blocked this: not from a terminal agent/,
    );
  });

  it('--headless --plugin starts the plugin for one event: the showcase refuses rm_rf, then everything stops', async () => {
    const r = await cli(
      ['PreToolUse', '--headless', '--plugin', SHOWCASE],
      fixture('claude-pre-tool-use', root, { tool_name: 'rm_rf', tool_input: { path: '/' } }),
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(hookOutput(r.answer).permissionDecision, 'deny');
    assert.match(String(hookOutput(r.answer).permissionDecisionReason), /Reasonix extension "showcase" blocked this/);
    assert.equal(r.stdout.split('\n').filter(Boolean).length, 1, 'only the answer on stdout');
  });

  it('--headless: an allowed tool gets no decision', async () => {
    const r = await cli(
      ['PreToolUse', '--headless', '--plugin', SHOWCASE],
      fixture('claude-pre-tool-use', root, { tool_name: 'read_file', tool_input: { path: 'a.txt' } }),
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
  });

  it('--headless: a required plugin that cannot start → deny, naming it', async () => {
    const bad = join(root, 'bad-guard');
    pluginFolder(bad, 'bad-guard', {
      command: join(bad, 'missing-binary'),
      args: [],
      capabilities: ['interceptors'],
      intercepts: ['tool.before'],
      required: true,
    });
    const r = await cli(['PreToolUse', '--headless', '--plugin', bad], fixture('claude-pre-tool-use', root));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(hookOutput(r.answer).permissionDecision, 'deny');
    assert.match(
      String(hookOutput(r.answer).permissionDecisionReason),
      /"bad-guard" is required but could not be asked/,
    );
  });

  it('usage errors exit 1, never 2 (a hook exiting 2 would block the agent), and print nothing on stdout', async () => {
    const r = await cli(['PreToolUse', '--plugin', SHOWCASE], '{}');
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /--plugin needs --headless/);
    const bad = await cli(['PreToolUse', '--bogus'], '{}');
    assert.equal(bad.code, 1);
  });

  it('invalid JSON → exit 0, no decision, a note', async () => {
    const r = await cli(['PreToolUse', '--headless', '--plugin', SHOWCASE], 'not json');
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /stdin is not JSON/);
  });
});
