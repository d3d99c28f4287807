// In-host: Reasonix extension tools offered to VS Code's agents through the MCP server definition
// provider (issue 24), in the real VS Code (code-server 1.139) with the sample extensions running.
// VS Code itself starts the server our definition describes (`dist/cli.js mcp --window <id>`, which
// relays to this window's endpoint), lists its tools among its language-model tools, and calls one
// through `vscode.lm.invokeTool` — the path an agent's tool call takes. On a VS Code without the
// API (older than 1.101) the suite proves instead that nothing is offered and nothing breaks.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { silentLogger } from '../../src/host/log';
import { isAgentNameFor } from '../../src/host/tools';
import type { ReasonixApi } from '../../src/vscode/api';
import { McpDefinitions } from '../../src/vscode/mcp/provider';
import { detectMcpApi, type McpStdioServerDefinition } from '../../src/vscode/mcp/vscodeMcp';
import { MCP_PROVIDER_SINCE, atLeast } from '../../src/vscode/vscodeVersion';
import { waitFor } from '../support/wait';
import { lm } from './lmTools';
import { folder, manager } from './managers';

const EXTENSION_ID = 'reasonix.reasonix-vscode-host';
const COUNT_WORDS = 'ext__showcase__count_words';

const ours = (model: string) => lm().tools.find((t) => isAgentNameFor(t.name, model));

/** Starts the MCP servers VS Code knows (ours among them) and waits until it has listed their tools. */
async function startServers(): Promise<void> {
  await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
}

const api = detectMcpApi(vscode);

/** Copy MCP Server Configuration… works with or without the API (other clients need no VS Code API). */
async function copiesConfiguration(): Promise<void> {
  const copied = await vscode.commands.executeCommand<string>('reasonix.copyMcpConfiguration', {
    folder: '/some/folder',
    format: 'json',
  });
  const doc = JSON.parse(String(copied)) as { mcpServers: { reasonix: { command: string; args: string[] } } };
  assert.equal(doc.mcpServers.reasonix.command, process.execPath);
  assert.deepEqual(doc.mcpServers.reasonix.args.slice(1), ['mcp', '--workspace', '/some/folder']);
  assert.match(doc.mcpServers.reasonix.args[0], /[\\/]dist[\\/]cli\.js$/);
  assert.equal(await vscode.env.clipboard.readText(), copied);
}

// One of the two suites runs, chosen by what this VS Code has (never a skipped suite).
if (api)
  describe('Reasonix extension tools in VS Code agents (MCP)', function () {
    this.timeout(90_000);
    let reasonix: ReasonixApi;

    before(async () => {
      const ext = vscode.extensions.getExtension<ReasonixApi>(EXTENSION_ID);
      assert.ok(ext, `${EXTENSION_ID} is installed`);
      reasonix = await ext.activate();
      await waitFor(
        () => {
          try {
            return reasonix.listTools().some((t) => t.modelName === COUNT_WORDS);
          } catch {
            return false; // no session yet
          }
        },
        { timeoutMs: 30_000, what: 'the showcase tools running', intervalMs: 100 },
      );
    });

    it('VS Code lists the showcase tools (description, input schema) and a call reaches the showcase sidecar', async () => {
      await startServers();
      const tool = await waitFor(() => ours(COUNT_WORDS), {
        timeoutMs: 30_000,
        what: `VS Code offering ${COUNT_WORDS}: ${lm()
          .tools.map((t) => t.name)
          .join(', ')}`,
        intervalMs: 200,
      });
      assert.match(tool.name, /^mcp_reasonix_/);
      assert.match(tool.description, /Count the words in a text/);
      assert.deepEqual((tool.inputSchema as { required?: string[] }).required, ['text']);
      assert.ok(ours('ext__showcase__add_note'), 'both tools are offered');
      const before = reasonix.surfaces().length;
      const r = await lm().invokeTool(
        tool.name,
        { input: { text: 'agents count words' }, toolInvocationToken: undefined },
        new vscode.CancellationTokenSource().token,
      );
      assert.match(JSON.stringify(r.content), /3 words; the longest is \\"agents\\"/);
      assert.ok(reasonix.surfaces().length >= before);
    });

    it('follows the extension: stopping the showcase withdraws its tools, starting it offers them again', async () => {
      await startServers();
      await waitFor(() => ours(COUNT_WORDS), { timeoutMs: 30_000, what: 'offered before the stop', intervalMs: 200 });
      const key = reasonix.listSessions()[0].key;
      await vscode.commands.executeCommand('reasonix.stopExtension', { sessionKey: key, pluginId: 'showcase' });
      await waitFor(() => !ours(COUNT_WORDS), { timeoutMs: 30_000, what: 'the tools withdrawn', intervalMs: 200 });
      await vscode.commands.executeCommand('reasonix.startExtension', { sessionKey: key, pluginId: 'showcase' });
      await waitFor(() => reasonix.listTools().length > 0, { timeoutMs: 30_000, what: 'showcase serving again' });
      await startServers();
      await waitFor(() => ours(COUNT_WORDS), { timeoutMs: 30_000, what: 'the tools offered again', intervalMs: 200 });
    });

    it('Copy MCP Server Configuration… puts a ready snippet on the clipboard', copiesConfiguration);

    it('the provider offers nothing untrusted, one definition per tool-serving folder once trusted', async () => {
      let trusted = false;
      const isTrusted = () => trusted;
      const m = manager({ trusted: isTrusted });
      const dirs = [mkdtempSync(path.join(tmpdir(), 'reasonix-mcp-'))];
      const endpoint = new vscode.EventEmitter<void>();
      const defs = new McpDefinitions(api!.StdioDefinition, {
        sessions: m,
        isTrusted,
        windowId: () => 'window-1',
        onDidChangeEndpoint: endpoint.event,
        launch: { runtime: process.execPath, cli: '/ext/dist/cli.js', version: '9.9.9' },
        log: silentLogger,
      });
      let changes = 0;
      defs.onDidChangeMcpServerDefinitions(() => changes++);
      try {
        await m.syncFolders([folder(dirs[0], 0)]);
        assert.equal(m.sessions().length, 0, 'nothing runs untrusted');
        assert.deepEqual(defs.provideMcpServerDefinitions(), []);

        trusted = true;
        await m.syncFolders([folder(dirs[0], 0)]);
        await waitFor(() => changes > 0 && defs.provideMcpServerDefinitions().length === 1, {
          timeoutMs: 20_000,
          what: 'a definition once the showcase runs',
          intervalMs: 50,
        });
        const [d] = defs.provideMcpServerDefinitions() as McpStdioServerDefinition[];
        // issue 41: the label (VS Code's id of the server) names the folder even when it is the only one.
        assert.equal(d.label, `Reasonix extension tools · ${path.basename(dirs[0])}`);
        assert.equal(d.command, process.execPath, "VS Code's own runtime");
        assert.deepEqual(d.args, ['/ext/dist/cli.js', 'mcp', '--window', 'window-1', '--workspace', dirs[0]]);
        assert.deepEqual(d.env, { ELECTRON_RUN_AS_NODE: '1', REASONIX_MCP_TITLE: 'Reasonix' });
        assert.equal(d.version, '9.9.9');
        assert.equal(d.cwd?.fsPath, dirs[0]);

        trusted = false; // the provider asks the trust gate itself on every listing
        assert.deepEqual(defs.provideMcpServerDefinitions(), []);
      } finally {
        defs.dispose();
        endpoint.dispose();
        await m.stopAll();
        dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
      }
    });
  });
else
  describe('Reasonix extension tools on a VS Code without the MCP API', function () {
    this.timeout(60_000);
    it('activates, offers no MCP server, and still copies an MCP configuration for other clients', async () => {
      // A VS Code that should have the API but lost it fails here instead of passing as "absent".
      assert.ok(!atLeast(vscode.version, MCP_PROVIDER_SINCE), `VS Code ${vscode.version} lacks the MCP API`);
      const ext = vscode.extensions.getExtension<ReasonixApi>(EXTENSION_ID);
      assert.ok(ext);
      await ext.activate();
      assert.equal(
        typeof (vscode.lm as unknown as Record<string, unknown>).registerMcpServerDefinitionProvider,
        'undefined',
      );
      await copiesConfiguration();
    });
  });
