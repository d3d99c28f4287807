// In-host: the agent-hooks bridge inside a real VS Code, with the sample extensions of the in-host
// Reasonix home (showcase refuses a tool named rm_rf at tool.before). Runs on the newest VS Code we
// test on (1.139) and on the oldest we support (1.96), which loads no agent plugins: there the
// contribution is inert, the log says VS Code's own agents are not governed, and the endpoint still
// answers the hook commands (what agents in the window's terminals run), as every test after the
// first proves on both.
//
// What could NOT run here: in this code-server the chat view, agent mode and the agent-plugin
// views/commands ("Chat: Plugins", the @agentPlugins list, hook diagnostics) stay hidden until
// GitHub Copilot is set up, which needs a sign-in this offline machine cannot do; the hook commands
// of agent mode are executed by the Copilot Chat extension, which code-server does not ship. So
// no agent turn runs a tool here, and VS Code's own listing of the plugin's hooks cannot be shown.
// What IS proven: the extension contributes the plugin in the exact layout VS Code 1.139 parses
// (its parser, read in code-server's workbench.js, picks `.claude-plugin/plugin.json` +
// `hooks/hooks.json` and substitutes ${CLAUDE_PLUGIN_ROOT} into command/linux/osx/windows); each
// hook command, run the way the agent runs it, gets its answer from this window's session; the
// decision is counted for the extension; the user setting closes and reopens the endpoint, and a
// workspace setting cannot (issue 28).
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hooksDir, listWindows } from '../../src/host/endpoint';
import type { PluginInfo, ReasonixApi } from '../../src/vscode/api';
import { AGENT_PLUGINS_SINCE, atLeast } from '../../src/vscode/vscodeVersion';
import { runHookCommand } from '../support/processes';
import { waitFor } from '../support/wait';
import { detectMcpApi } from '../../src/vscode/mcp/vscodeMcp';
import { logLine, logLines } from './extensionLog';

const EXTENSION_ID = 'reasonix.reasonix-vscode-host';

interface HookCommand {
  command: string;
  linux: string;
  osx: string;
  windows: string;
}

describe('agent hooks (in a real VS Code)', function () {
  this.timeout(60_000);
  let api: ReasonixApi;
  let ext: vscode.Extension<ReasonixApi>;
  let folder: string;
  let pluginRoot: string;
  let hooks: Record<string, { hooks: HookCommand[] }[]>;

  const commandFor = (event: string) => hooks[event][0].hooks[0].linux.replaceAll('${CLAUDE_PLUGIN_ROOT}', pluginRoot);
  const showcase = () => api.listPlugins().find((p) => p.pluginId === 'showcase');
  const preToolUse = (tool: string) => ({
    timestamp: new Date().toISOString(),
    cwd: folder,
    sessionId: 'in-host',
    hookEventName: 'PreToolUse',
    transcript_path: '/dev/null',
    tool_name: tool,
    tool_input: { path: '/' },
    tool_use_id: 'tool-1',
  });

  before(async () => {
    const found = vscode.extensions.getExtension<ReasonixApi>(EXTENSION_ID);
    assert.ok(found, `${EXTENSION_ID} is installed`);
    ext = found;
    api = await ext.activate();
    await waitFor(() => showcase()?.state === 'running', {
      timeoutMs: 20_000,
      what: 'showcase running',
      intervalMs: 50,
    });
    folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const contributed = (ext.packageJSON as { contributes: { chatPlugins: { path: string; when: string }[] } })
      .contributes.chatPlugins;
    pluginRoot = path.join(ext.extensionPath, contributed[0].path);
    hooks = (JSON.parse(readFileSync(path.join(pluginRoot, 'hooks', 'hooks.json'), 'utf8')) as { hooks: typeof hooks })
      .hooks;
  });

  /** The manifest's contribution and the plugin folder it names, complete in the installed extension. */
  const contributesThePlugin = () => {
    const contributed = (ext.packageJSON as { contributes: { chatPlugins: { path: string; when: string }[] } })
      .contributes.chatPlugins;
    assert.deepEqual(contributed, [
      { path: './agent-plugin', when: 'config.reasonix.agentHooks.enabled && isWorkspaceTrusted' },
    ]);
    assert.ok(existsSync(path.join(pluginRoot, '.claude-plugin', 'plugin.json')));
    assert.deepEqual(Object.keys(hooks).sort(), ['PostToolUse', 'PreToolUse', 'SessionStart', 'UserPromptSubmit']);
    for (const event of Object.keys(hooks)) {
      const launcher = commandFor(event).split(' ')[1];
      assert.ok(existsSync(launcher), `${event}: ${launcher} is in the installed extension`);
    }
    assert.ok(existsSync(path.join(ext.extensionPath, 'dist', 'hook.js')), 'the bridge is built next to the plugin');
  };
  const NO_AGENT_PLUGINS = /^agent hooks: VS Code \S+ loads no agent plugins/;

  // No API says whether VS Code reads `chatPlugins`: the extension goes by the version where the
  // contribution point appeared, and so does this choice.
  if (atLeast(vscode.version, AGENT_PLUGINS_SINCE)) {
    it(`runs in VS Code ${AGENT_PLUGINS_SINCE} or later and contributes the agent plugin folder VS Code reads (chatPlugins)`, async () => {
      contributesThePlugin();
      await logLine('info', /^agent hooks: answering VS Code's agent hooks on /);
      assert.deepEqual(logLines('info', NO_AGENT_PLUGINS), []);
    });
  } else {
    it(`on VS Code ${vscode.version}, which loads no agent plugins, activates with the inert chatPlugins contribution and says at info that its agents are not governed`, async () => {
      contributesThePlugin();
      assert.equal(ext.isActive, true);
      const line = await logLine('info', NO_AGENT_PLUGINS);
      const said = `agent hooks: VS Code ${vscode.version} loads no agent plugins (chatPlugins, ${AGENT_PLUGINS_SINCE} or later), so its own agents are not governed; agents in this window's terminals reach Reasonix through \`reasonix-host hook\` on `;
      assert.ok(line.includes(said), line);
      assert.deepEqual(logLines('info', /^agent hooks: answering VS Code's agent hooks/), []);
      for (const level of ['warning', 'error'] as const)
        assert.deepEqual(logLines(level, /agent hook/), [], `no ${level} about agent hooks`);
    });
  }

  it("records the extension host's own runtime and this window's folder for the bridge", async () => {
    const dir = hooksDir();
    const mine = await waitFor(() => listWindows(dir).find((w) => w.pid === process.pid), {
      timeoutMs: 20_000,
      what: 'this window in the registry',
      intervalMs: 50,
    });
    assert.deepEqual(mine.folders, [folder]);
    assert.equal(readFileSync(path.join(dir, 'runtime'), 'utf8').trim(), process.execPath);
  });

  it("the PreToolUse hook command gets this window's answer: showcase denies rm_rf, naming itself; the decision is counted", async () => {
    const before = showcase()?.agentDecisions ?? 0;
    const r = await runHookCommand(commandFor('PreToolUse'), preToolUse('rm_rf'));
    assert.equal(r.code, 0, r.stderr);
    const answer = JSON.parse(r.stdout) as {
      hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string };
    };
    assert.equal(answer.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(answer.hookSpecificOutput.permissionDecisionReason, /^Reasonix extension "showcase" blocked this/);
    await waitFor(() => (showcase() as PluginInfo).agentDecisions === before + 1, {
      timeoutMs: 20_000,
      what: 'the decision counted for showcase',
      intervalMs: 50,
    });
    const allowed = await runHookCommand(commandFor('PreToolUse'), preToolUse('read_file'));
    assert.equal(allowed.code, 0);
    assert.equal(allowed.stdout, '', 'an allowed tool: no decision, VS Code approves as usual');
  });

  it("a workspace's .vscode/settings.json cannot switch governance off (nor keep a crashed policy extension down)", async () => {
    const dir = hooksDir();
    const vscodeDir = path.join(folder, '.vscode');
    const file = path.join(vscodeDir, 'settings.json');
    const hadDir = existsSync(vscodeDir);
    // What a repository, or the governed agent itself, can write as a tool call.
    mkdirSync(vscodeDir, { recursive: true });
    writeFileSync(file, JSON.stringify({ 'reasonix.agentHooks.enabled': false, 'reasonix.autoRestart': false }));
    try {
      const cfg = () => vscode.workspace.getConfiguration('reasonix');
      // The window-scoped value shows that VS Code has read the file.
      await waitFor(() => cfg().inspect<boolean>('autoRestart')?.workspaceValue === false, {
        timeoutMs: 20_000,
        what: 'VS Code reading the workspace settings',
        intervalMs: 50,
      });
      // A machine-scoped setting: VS Code itself does not apply a workspace value.
      assert.equal(cfg().get('agentHooks.enabled'), true);
      // The window has looked at the settings again (what used to close the endpoint) and says the
      // workspace's value is ignored, naming the file.
      await logLine(
        'warning',
        /agent hooks: the workspace setting reasonix\.agentHooks\.enabled = false \(.*settings\.json\) is ignored/,
        20_000,
      );
      assert.ok(
        listWindows(dir).some((w) => w.pid === process.pid),
        'the endpoint stays open',
      );
      const r = await runHookCommand(commandFor('PreToolUse'), preToolUse('rm_rf'));
      assert.match(r.stdout, /"permissionDecision":"deny"/, 'rm_rf is still denied');
    } finally {
      if (hadDir) rmSync(file, { force: true });
      else rmSync(vscodeDir, { recursive: true, force: true });
    }
  });

  it('reasonix.agentHooks.enabled off: no decision (the endpoint stays only for MCP tools), on: rulings again', async () => {
    const cfg = vscode.workspace.getConfiguration('reasonix');
    const dir = hooksDir();
    // Where VS Code can list MCP servers the window keeps its endpoint for them (issue 24); else it closes.
    const servesMcp = detectMcpApi(vscode) !== undefined;
    try {
      await cfg.update('agentHooks.enabled', false, vscode.ConfigurationTarget.Global);
      if (servesMcp) {
        await waitFor(async () => (await runHookCommand(commandFor('PreToolUse'), preToolUse('rm_rf'))).stdout === '', {
          timeoutMs: 20_000,
          what: 'no decision once hooks are off',
          intervalMs: 200,
        });
        assert.ok(
          listWindows(dir).some((w) => w.pid === process.pid),
          'the endpoint stays open for MCP clients',
        );
      } else {
        await waitFor(() => !listWindows(dir).some((w) => w.pid === process.pid), {
          timeoutMs: 20_000,
          what: 'the window record removed',
          intervalMs: 50,
        });
      }
      const r = await runHookCommand(commandFor('PreToolUse'), preToolUse('rm_rf'));
      assert.equal(r.code, 0);
      assert.equal(r.stdout, '');
    } finally {
      await cfg.update('agentHooks.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor(() => listWindows(dir).some((w) => w.pid === process.pid), {
      timeoutMs: 20_000,
      what: 'the window record back',
      intervalMs: 50,
    });
    await waitFor(
      async () =>
        /"permissionDecision":"deny"/.test(
          (await runHookCommand(commandFor('PreToolUse'), preToolUse('rm_rf'))).stdout,
        ),
      { timeoutMs: 20_000, what: 'rm_rf denied again', intervalMs: 200 },
    );
  });
});
