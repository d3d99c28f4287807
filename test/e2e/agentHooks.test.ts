// Agent hooks as an agent outside the window meets them (Claude Code in a terminal, say): the
// packaged .vsix in code-server 1.139, the sample extensions running, and the contributed agent
// plugin's PreToolUse hook command run from this test process against the workbench's session. VS
// Code's own agent running the same hooks in a real chat turn is test/e2e/agentMode.test.ts.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { resultsDir } from './support/paths';
import { reasonixSessionOptions } from './support/reasonix';
import { useSharedUiSession, type UiSessionOptions } from './support/session';
import { runHookCommand } from '../support/processes';
import { waitFor } from '../support/wait';

describe('Agent hooks: the contributed plugin answers agents from the running workbench', function () {
  this.timeout(180_000);
  // A hooks directory of this sandbox, so parallel runs never meet each other's windows.
  const session = useSharedUiSession((): UiSessionOptions => {
    const base = reasonixSessionOptions();
    const env = base.env as (sandbox: string) => Record<string, string>;
    return { ...base, env: (sandbox) => ({ ...env(sandbox), REASONIX_HOOKS_DIR: join(sandbox, 'hooks') }) };
  });
  const hooksDir = () => join(session().sandbox, 'hooks');
  const shots = join(resultsDir, 'agent-hooks');

  it("the installed plugin's PreToolUse command gets a deny from showcase, logged in the Reasonix output and counted in its tooltip", async () => {
    const s = session();
    const wb = s.workbench;
    mkdirSync(shots, { recursive: true });
    await wb.openViewContainer('Reasonix');
    const view = wb.view('Extensions');
    await waitFor(async () => (await wb.viewRows(view)).some((r) => /showcase.*running/i.test(r)), {
      timeoutMs: 90_000,
      what: 'showcase running',
    });

    const extDir = readdirSync(join(s.sandbox, 'extensions')).find((d) =>
      d.startsWith('reasonix.reasonix-vscode-host-'),
    );
    assert.ok(extDir, 'the .vsix is installed');
    const pluginRoot = join(s.sandbox, 'extensions', extDir, 'agent-plugin');
    const hooks = (
      JSON.parse(readFileSync(join(pluginRoot, 'hooks', 'hooks.json'), 'utf8')) as {
        hooks: Record<string, { hooks: { linux: string }[] }[]>;
      }
    ).hooks;
    const command = hooks.PreToolUse[0].hooks[0].linux.replaceAll('${CLAUDE_PLUGIN_ROOT}', pluginRoot);
    const input = {
      timestamp: new Date().toISOString(),
      cwd: s.workspace,
      sessionId: 'ui',
      hookEventName: 'PreToolUse',
      transcript_path: '/dev/null',
      tool_name: 'rm_rf',
      tool_input: { path: '/' },
      tool_use_id: 'tool-1',
    };
    const env = { PATH: process.env.PATH, REASONIX_HOOKS_DIR: hooksDir() };
    const r = await waitFor(
      async () => {
        const run = await runHookCommand(command, input, env);
        return run.stdout ? run : undefined;
      },
      { timeoutMs: 30_000, what: 'an answer from the window' },
    );
    assert.equal(r.code, 0, r.stderr);
    const answer = JSON.parse(r.stdout) as {
      hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string };
    };
    assert.equal(answer.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(answer.hookSpecificOutput.permissionDecisionReason, /^Reasonix extension "showcase" blocked this/);

    await wb.waitForOutput('Reasonix', 'agent hook PreToolUse rm_rf: deny by showcase');
    await wb.screenshot(join(shots, 'agent-hooks-output.png'));

    await wb.openViewContainer('Reasonix');
    const row = view.locator('.monaco-list-row', { hasText: 'showcase' }).first();
    const tooltip = await waitFor(
      async () => {
        await wb.page.mouse.move(0, 0);
        await row.hover();
        const hover = wb.page
          .locator('.monaco-hover, .workbench-hover')
          .filter({ hasText: 'Agent decisions this session' })
          .first();
        // The workbench shows a tree item's hover after its hover delay: wait for it, then re-hover.
        const shown = await hover.waitFor({ state: 'visible', timeout: 5_000 }).then(
          () => true,
          () => false,
        );
        return shown ? (await hover.innerText()).replace(/\u00a0/g, ' ') : undefined;
      },
      { timeoutMs: 45_000, what: 'the showcase tooltip with its agent decisions' },
    );
    assert.match(tooltip, /Agent decisions this session: 1/);
    await wb.screenshot(join(shots, 'agent-hooks-tooltip.png'));

    // VS Code's own plugin UI: what this code-server offers without a Copilot sign-in.
    await wb.page.mouse.move(0, 0);
    await wb.openCommandPalette();
    await wb.page.keyboard.type('Plugins');
    await new Promise((res) => setTimeout(res, 1500));
    const offered = await wb.quickPickItems();
    await wb.screenshot(join(shots, 'agent-hooks-palette-plugins.png'));
    await wb.dismissQuickInput();
    console.log(`  Command Palette for "Plugins": ${offered.join(' | ') || '(nothing)'}`);
  });
});
