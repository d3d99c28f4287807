// The one tool chain (src/host/tools/chain.ts) as its two callers walk it, against real sidecars: the
// engine's call (tools/call.ts: MCP clients, `reasonix-host tool`) follows a tool.before rename to
// another offered tool; an agent hook (hooks/mapping.ts) refuses it, since a hook's answer cannot
// name another tool. The same refusal reaches both, worded for each reader. Each case runs with the
// interceptor speaking protocol v1 and v2.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { answerHookEvent } from '../../../src/host/hooks';
import type { SessionEngine } from '../../../src/host/session';
import { startTestEngine } from '../../support/engine';
import { pluginFolder, pluginFolderV2 } from '../../support/plugins';

const REPO = path.resolve(__dirname, '../../../..');
const TOOLS = path.join(REPO, 'test', 'fixtures', 'tools', 'tools.js');
const INTERCEPTOR = path.join(REPO, 'test', 'fixtures', 'interceptors', 'interceptor.js');

const tool = (name: string, readOnly: boolean) => ({
  name,
  description: `the ${name} tool`,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  readOnly,
});

type Line = { kind?: string; event?: string; payload?: Record<string, unknown>; params?: Record<string, unknown> };

for (const protocol of ['v1', 'v2'] as const)
  describe(`the tool chain's two callers (interceptor on protocol ${protocol})`, function () {
    this.timeout(30_000);
    let base: string;
    let engine: SessionEngine | undefined;
    const seen = () => path.join(base, 'chain.jsonl');
    const calls = () => path.join(base, 'calls.jsonl');
    const lines = (file: string): Line[] =>
      existsSync(file)
        ? readFileSync(file, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Line)
            // The interceptor's intercepts (not the best-effort events a chain member also gets
            // after each point, which may or may not have landed yet) and the tool's calls.
            .filter((r) => r.kind === 'intercept' || r.params !== undefined)
        : [];

    beforeEach(() => {
      base = mkdtempSync(path.join(tmpdir(), 'rx-chain-'));
    });
    afterEach(async () => {
      await engine?.stop();
      engine = undefined;
      rmSync(base, { recursive: true, force: true });
    });

    /** A v2 tool plugin serving `echo` (writes) and `count_words` (read-only), and the interceptor. */
    const start = (rule: Record<string, unknown>) => {
      const folder = protocol === 'v1' ? pluginFolder : pluginFolderV2;
      return startTestEngine({
        base,
        plugins: [
          pluginFolderV2(path.join(base, 'tools'), 'tools', {
            command: process.execPath,
            args: [TOOLS],
            capabilities: ['tools'],
            tools: [tool('echo', false), tool('count_words', true)],
            env: { TOOLS_RECORD: calls() },
          }),
          folder(path.join(base, 'guard'), 'guard', {
            command: process.execPath,
            args: [INTERCEPTOR],
            capabilities: ['interceptors'],
            intercepts: ['tool.before', 'permission.decision', 'tool.after'],
            env: { INTERCEPTOR_CONFIG: JSON.stringify({ record: seen(), points: { 'tool.before': rule } }) },
          }),
        ],
      }).then((e) => (engine = e));
    };
    const renameToCountWords = {
      decision: 'replace',
      replacement: { name: 'ext__tools__count_words', arguments: '{"text":"one two three"}' },
    };

    it('the engine follows a tool.before rename to another offered tool: permission and the call are the new tool’s', async () => {
      const e = await start(renameToCountWords);
      assert.equal(e.plugins().find((p) => p.pluginId === 'guard')?.state, 'running');
      const out = await e.callTool('ext__tools__echo', { text: 'x' });
      assert.equal(out.kind, 'result', JSON.stringify(out));
      assert.equal(out.modelName, 'ext__tools__count_words');
      assert.equal((out as { content: string }).content, '3');
      assert.deepEqual(
        lines(calls()).map((c) => c.params),
        [{ name: 'count_words', arguments: { text: 'one two three' }, timeoutMillis: 300_000 }],
      );
      const perm = lines(seen()).find((l) => l.event === 'permission.decision');
      assert.equal(perm?.payload?.name, 'ext__tools__count_words');
      assert.equal(perm?.payload?.readOnly, true, "the renamed tool's readOnly hint reaches permission.decision");
    });

    it('an agent hook refuses the same rename (its answer cannot name another tool): denied, permission never asked', async () => {
      const e = await start(renameToCountWords);
      const r = await answerHookEvent(
        'PreToolUse',
        { tool_name: 'ext__tools__echo', tool_input: { text: 'x' }, cwd: base },
        e,
      );
      assert.deepEqual(r.answer, {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason:
            'Reasonix extension "guard" renamed the tool to "ext__tools__count_words", which an agent hook cannot do; refused',
        },
      });
      assert.equal(r.record.decision, 'deny');
      assert.equal(r.record.extension, 'guard');
      assert.deepEqual(
        lines(seen()).map((l) => l.event),
        ['tool.before'],
        'the refusal ends the chain before permission.decision',
      );
      assert.deepEqual(lines(calls()), []);
    });

    it('one refusal, worded for each reader: the engine names the tool, the hook says "this"', async () => {
      const e = await start({ decision: 'block', reason: 'not today' });
      const out = await e.callTool('ext__tools__echo', { text: 'x' });
      assert.deepEqual(
        { kind: out.kind, point: (out as { point?: string }).point, by: (out as { by?: string }).by },
        { kind: 'refused', point: 'tool.before', by: 'guard' },
      );
      assert.equal(
        (out as { message: string }).message,
        'Reasonix extension "guard" blocked ext__tools__echo: not today',
      );
      const hook = await answerHookEvent('PreToolUse', { tool_name: 'ext__tools__echo', tool_input: { text: 'x' } }, e);
      assert.deepEqual(hook.record, {
        event: 'PreToolUse',
        tool: 'ext__tools__echo',
        decision: 'deny',
        extension: 'guard',
        reason: 'Reasonix extension "guard" blocked this: not today',
      });
      assert.deepEqual(lines(calls()), [], 'neither call reached the tool');
    });
  });
