// The agent-hooks bridge end to end: the bridge program (a child process, stdin → stdout) against
// a running engine session behind a window endpoint, fed the documented hook inputs. One test per
// row of the README's mapping table, then the failure rules.
import { strict as assert } from 'node:assert';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listWindows } from '../../../src/host/endpoint';
import { fixture, hookOutput, runHook, scratch, TestWindow, type PluginDef } from './support';

describe('agent-hooks bridge: the mapping table, row by row (real sidecars, real bridge process)', function () {
  this.timeout(30_000);
  let root: string;
  let dir: string;
  let ws: string;
  let win: TestWindow | undefined;

  beforeEach(() => {
    ({ root, dir } = scratch());
    ws = join(root, 'ws');
  });
  afterEach(async () => {
    await win?.close();
    win = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  const open = async (plugins: PluginDef[]) => (win = await TestWindow.open(dir, ws, plugins));

  it('UserPromptSubmit → input.receive {text}; block → {"decision":"block","reason"} naming the extension', async () => {
    const w = await open([
      {
        name: 'gate',
        intercepts: ['input.receive'],
        points: { 'input.receive': { decision: 'block', reason: 'prompts about auth need a ticket' } },
      },
    ]);
    const r = await runHook(dir, 'UserPromptSubmit', fixture('vscode-user-prompt-submit', ws));
    assert.equal(r.code, 0);
    assert.equal(r.answer?.decision, 'block');
    assert.match(String(r.answer?.reason), /Reasonix extension "gate".*prompts about auth need a ticket/);
    assert.deepEqual(w.received().find((e) => e.kind === 'intercept')?.payload, { text: 'Refactor the auth module' });
  });

  it('UserPromptSubmit replace → the new text as additionalContext, saying hooks cannot rewrite the prompt', async () => {
    await open([
      {
        name: 'rewriter',
        intercepts: ['input.receive'],
        points: { 'input.receive': { appendText: ' (ticket ABC-1)' } },
      },
    ]);
    const r = await runHook(dir, 'UserPromptSubmit', fixture('claude-user-prompt-submit', ws));
    const out = hookOutput(r.answer);
    assert.equal(out.hookEventName, 'UserPromptSubmit');
    assert.match(String(out.additionalContext), /cannot replace a prompt/);
    assert.match(
      String(out.additionalContext),
      /Write a function to calculate the factorial of a number \(ticket ABC-1\)$/,
    );
    assert.equal(r.answer?.decision, undefined, 'a rewrite does not block');
  });

  it('PreToolUse → tool.before {name, arguments = JSON text of tool_input}; block → permissionDecision "deny" with the reason naming the extension', async () => {
    const w = await open([
      {
        name: 'guard',
        intercepts: ['tool.before'],
        points: { 'tool.before': { decision: 'block', reason: 'dangerous_exec is not allowed here' } },
      },
    ]);
    const r = await runHook(
      dir,
      'PreToolUse',
      fixture('vscode-pre-tool-use', ws, { tool_name: 'dangerous_exec', tool_input: { cmd: 'rm -rf /' } }),
    );
    assert.equal(r.code, 0);
    const out = hookOutput(r.answer);
    assert.equal(out.hookEventName, 'PreToolUse');
    assert.equal(out.permissionDecision, 'deny');
    assert.equal(
      out.permissionDecisionReason,
      'Reasonix extension "guard" blocked this: dangerous_exec is not allowed here',
    );
    assert.deepEqual(w.received().find((e) => e.kind === 'intercept')?.payload, {
      name: 'dangerous_exec',
      arguments: '{"cmd":"rm -rf /"}',
    });
    assert.equal(w.decisions[0]?.record.decision, 'deny');
    assert.equal(w.decisions[0]?.record.extension, 'guard');
    assert.equal(w.decisions[0]?.record.tool, 'dangerous_exec');
  });

  it('PreToolUse replace → updatedInput (the replaced arguments as an object), no permission decision', async () => {
    await open([
      {
        name: 'fixer',
        intercepts: ['tool.before'],
        points: {
          'tool.before': {
            decision: 'replace',
            replacement: { name: 'Write', arguments: '{"file_path":"/safe/file.txt","content":"file content"}' },
          },
        },
      },
    ]);
    const r = await runHook(dir, 'PreToolUse', fixture('claude-pre-tool-use', ws));
    const out = hookOutput(r.answer);
    assert.deepEqual(out.updatedInput, { file_path: '/safe/file.txt', content: 'file content' });
    assert.equal(out.permissionDecision, undefined, "VS Code's own approval still applies");
  });

  it('PreToolUse → then permission.decision {name, arguments, hostDecision:"allow"}; allow → "allow"', async () => {
    const w = await open([
      {
        name: 'approver',
        intercepts: ['permission.decision'],
        points: { 'permission.decision': { decision: 'allow', reason: 'read-only tool' } },
      },
    ]);
    const r = await runHook(dir, 'PreToolUse', fixture('vscode-pre-tool-use', ws));
    const out = hookOutput(r.answer);
    assert.equal(out.permissionDecision, 'allow');
    assert.match(String(out.permissionDecisionReason), /"approver" allowed this tool: read-only tool/);
    assert.deepEqual(w.received().find((e) => e.kind === 'intercept')?.payload, {
      name: 'editFiles',
      arguments: '{"files":["src/main.ts"]}',
      hostDecision: 'allow',
    });
  });

  it('PreToolUse: permission.decision deny → "deny" with the reason', async () => {
    await open([
      {
        name: 'warden',
        intercepts: ['permission.decision'],
        points: { 'permission.decision': { decision: 'deny', reason: 'writes need review' } },
      },
    ]);
    const out = hookOutput((await runHook(dir, 'PreToolUse', fixture('claude-pre-tool-use', ws))).answer);
    assert.equal(out.permissionDecision, 'deny');
    assert.match(String(out.permissionDecisionReason), /"warden" denied this tool: writes need review/);
  });

  it('PreToolUse with interceptors that continue → no decision at all (empty stdout)', async () => {
    const w = await open([{ name: 'watcher', intercepts: ['tool.before', 'permission.decision'] }]);
    const r = await runHook(dir, 'PreToolUse', fixture('vscode-pre-tool-use', ws));
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.deepEqual(
      w
        .received()
        .filter((e) => e.kind === 'intercept')
        .map((e) => e.event),
      ['tool.before', 'permission.decision'],
    );
  });

  it('PostToolUse → tool.after {name, arguments, result, isError}; block → {"decision":"block","reason"}', async () => {
    const w = await open([
      {
        name: 'auditor',
        intercepts: ['tool.after'],
        points: { 'tool.after': { decision: 'block', reason: 'the result leaks a secret' } },
      },
    ]);
    const r = await runHook(dir, 'PostToolUse', fixture('vscode-post-tool-use', ws));
    assert.equal(r.answer?.decision, 'block');
    assert.match(String(r.answer?.reason), /"auditor" blocked this: the result leaks a secret/);
    assert.deepEqual(w.received().find((e) => e.kind === 'intercept')?.payload, {
      name: 'editFiles',
      arguments: '{"files":["src/main.ts"]}',
      result: 'File edited successfully',
    });
  });

  it('PostToolUse replace → additionalContext carrying the replaced result (Claude Code object response as JSON text)', async () => {
    const w = await open([
      {
        name: 'scrubber',
        intercepts: ['tool.after'],
        points: {
          'tool.after': {
            decision: 'replace',
            replacement: { name: 'Write', arguments: '{}', result: 'written (path hidden)' },
          },
        },
      },
    ]);
    const r = await runHook(dir, 'PostToolUse', fixture('claude-post-tool-use', ws));
    const out = hookOutput(r.answer);
    assert.equal(out.hookEventName, 'PostToolUse');
    assert.match(
      String(out.additionalContext),
      /"scrubber" replaced the result of Write[\s\S]*written \(path hidden\)$/,
    );
    const sent = w.received().find((e) => e.kind === 'intercept')?.payload;
    assert.equal(sent?.result, '{"filePath":"/path/to/file.txt","success":true}');
  });

  it('PostToolUse: a Claude Code response with success:false arrives as isError:true', async () => {
    const w = await open([{ name: 'auditor', intercepts: ['tool.after'] }]);
    await runHook(
      dir,
      'PostToolUse',
      fixture('claude-post-tool-use', ws, { tool_response: { success: false, error: 'disk full' } }),
    );
    assert.equal(w.received().find((e) => e.kind === 'intercept')?.payload.isError, true);
  });

  it('SessionStart → agent.before_start {sessionId}; block → continue:false + stopReason', async () => {
    const w = await open([
      {
        name: 'curfew',
        intercepts: ['agent.before_start'],
        points: { 'agent.before_start': { decision: 'block', reason: 'agents are off after hours' } },
      },
    ]);
    const r = await runHook(dir, 'SessionStart', fixture('claude-session-start', ws));
    assert.equal(r.answer?.continue, false);
    assert.match(String(r.answer?.stopReason), /"curfew" stopped this agent session: agents are off after hours/);
    assert.deepEqual(w.received().find((e) => e.kind === 'intercept')?.payload, { sessionId: 'abc123' });
  });

  it('SessionStart (VS Code input, camelCase sessionId) that continues → nothing', async () => {
    const w = await open([{ name: 'observer', intercepts: ['agent.before_start'] }]);
    const r = await runHook(dir, 'SessionStart', fixture('vscode-session-start', ws));
    assert.equal(r.stdout, '');
    assert.deepEqual(w.received().find((e) => e.kind === 'intercept')?.payload, { sessionId: 'session-identifier' });
  });

  it('Stop and PreCompact have no matching Reasonix point: nothing is dispatched, nothing answered', async () => {
    const w = await open([
      {
        name: 'all',
        intercepts: ['tool.before', 'compaction.prepare', 'agent.before_start'],
        points: { '*': { decision: 'block', reason: 'no' } },
      },
    ]);
    for (const name of ['vscode-stop', 'vscode-pre-compact']) {
      const input = fixture(name, ws);
      const r = await runHook(dir, String(input.hookEventName), input);
      assert.equal(r.code, 0);
      assert.equal(r.stdout, '', name);
    }
    assert.equal(w.received().filter((e) => e.kind === 'intercept').length, 0);
  });

  it('the event may come from the input (hook_event_name) when the command line names none', async () => {
    await open([
      { name: 'guard', intercepts: ['tool.before'], points: { 'tool.before': { decision: 'block', reason: 'no' } } },
    ]);
    const r = await runHook(dir, '', fixture('claude-pre-tool-use', ws));
    assert.equal(hookOutput(r.answer).permissionDecision, 'deny');
  });

  it('a 1 MiB tool_input reaches tool.before whole (externalized) and the answer comes back', async () => {
    const w = await open([
      {
        name: 'guard',
        intercepts: ['tool.before'],
        points: { 'tool.before': { decision: 'block', reason: 'too big' } },
      },
    ]);
    const big = 'x'.repeat(1024 * 1024);
    const r = await runHook(dir, 'PreToolUse', fixture('vscode-pre-tool-use', ws, { tool_input: { content: big } }));
    assert.equal(hookOutput(r.answer).permissionDecision, 'deny');
    const got = w.received().find((e) => e.kind === 'intercept') as unknown as {
      externalized: boolean;
      payload: { arguments: string };
    };
    assert.equal(got.externalized, true, 'over 64 KiB travels as a content ref');
    assert.equal(got.payload.arguments, JSON.stringify({ content: big }));
  });

  it('the window record is readable only by this user and names this window', async () => {
    const w = await open([]);
    const [rec] = listWindows(dir);
    assert.equal(rec.pid, process.pid);
    assert.deepEqual(rec.folders, [ws]);
    assert.equal(rec.endpoint, w.window.endpoint);
  });

  it('a stale record whose process is gone is ignored, and the next window to open removes it', async () => {
    await open([]);
    writeFileSync(
      join(dir, 'dead.json'),
      JSON.stringify({
        v: 1,
        id: 'dead',
        pid: 2 ** 22 + 17,
        endpoint: join(dir, 'dead.sock'),
        token: 'x',
        folders: [join(ws, 'inner')],
        startedAt: Date.now() + 1000,
      }),
    );
    writeFileSync(join(dir, 'dead.sock'), '');
    assert.equal(
      listWindows(dir).some((r) => r.id === 'dead'),
      false,
    );
    await win?.close();
    win = await TestWindow.open(dir, ws, []);
    assert.equal(existsSync(join(dir, 'dead.json')), false);
    assert.equal(existsSync(join(dir, 'dead.sock')), false);
  });
});
