// A throwaway minimal extension, generated per test run, that exercises every harness helper
// without depending on the real extension: one palette command with a notification and an
// Output channel line, a QuickPick + InputBox flow, an activity-bar container with a tree view
// and a webview view, and an in-host mocha suite. `broken: true` makes activate() throw, to
// prove the runners fail when the extension does.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths';

export const PROBE_ID = 'reasonix-test.harness-probe';
export const PROBE_CONTAINER = 'Harness Probe';

const manifest = {
  name: 'harness-probe',
  displayName: 'Harness Probe',
  description: 'Throwaway extension that proves the test harness.',
  publisher: 'reasonix-test',
  version: '0.0.1',
  license: 'MIT',
  repository: { type: 'git', url: 'https://example.invalid/harness-probe.git' },
  engines: { vscode: '^1.96.0' },
  main: './extension.js',
  activationEvents: ['onStartupFinished'],
  contributes: {
    commands: [
      { command: 'harnessProbe.hello', title: 'Say Hello', category: 'Harness Probe' },
      { command: 'harnessProbe.ask', title: 'Ask Questions', category: 'Harness Probe' },
    ],
    viewsContainers: { activitybar: [{ id: 'harnessProbe', title: PROBE_CONTAINER, icon: 'probe.svg' }] },
    views: {
      harnessProbe: [
        { id: 'harnessProbe.tree', name: 'Probe Tree' },
        { type: 'webview', id: 'harnessProbe.panel', name: 'Probe Panel' },
      ],
    },
  },
};

const extensionJs = (broken: boolean) => `const vscode = require('vscode');
let hellos = 0;
exports.activate = function (context) {
  ${broken ? "throw new Error('harness probe deliberately broken');" : ''}
  const out = vscode.window.createOutputChannel('Harness Probe');
  context.subscriptions.push(out);
  context.subscriptions.push(vscode.commands.registerCommand('harnessProbe.hello', () => {
    hellos++;
    out.appendLine('hello  number ' + hellos + ' (two spaces kept)');
    vscode.window.showInformationMessage('Hello from the probe; REASONIX_HOME=' + (process.env.REASONIX_HOME || '<unset>'));
  }));
  context.subscriptions.push(vscode.commands.registerCommand('harnessProbe.ask', async () => {
    const pick = await vscode.window.showQuickPick(['alpha', 'beta', 'gamma'], { title: 'Pick a letter' });
    if (!pick) return;
    const name = await vscode.window.showInputBox({ title: 'Name it', prompt: 'A name for ' + pick,
      validateInput: (v) => (v.length < 2 ? 'at least two characters' : undefined) });
    if (name) vscode.window.showInformationMessage('Answered ' + pick + ' / ' + name);
  }));
  context.subscriptions.push(vscode.window.registerTreeDataProvider('harnessProbe.tree', {
    getChildren: () => ['first item', 'second item'],
    getTreeItem: (label) => new vscode.TreeItem(label),
  }));
  context.subscriptions.push(vscode.window.registerWebviewViewProvider('harnessProbe.panel', {
    resolveWebviewView(view) {
      view.webview.options = { enableScripts: true };
      view.webview.onDidReceiveMessage((m) => {
        if (m && m.type === 'pressed') vscode.window.showInformationMessage('Webview button pressed');
      });
      view.webview.html = '<!DOCTYPE html><html><body><h3 id="probe-heading">Probe webview</h3>' +
        '<button id="probe-button">Press me</button><script>const api = acquireVsCodeApi();' +
        'document.getElementById("probe-button").addEventListener("click", () => api.postMessage({ type: "pressed" }));</script></body></html>';
    },
  }));
  return { hellos: () => hellos };
};
exports.deactivate = function () {};
`;

// Plain JS, loaded by the extension host; reuses our real index (test/vscode/index.ts).
const testIndexJs = (repo: string) => `const path = require('path');
exports.run = () => require(${JSON.stringify(join(repo, 'out', 'test', 'vscode', 'index.js'))}).runSuites({ dir: path.join(__dirname, 'suite') });
`;

const suiteJs = `const assert = require('assert');
const vscode = require('vscode');
describe('harness probe (in-host)', () => {
  it('activates and registers its command', async () => {
    const ext = vscode.extensions.getExtension('${PROBE_ID}');
    assert.ok(ext, 'probe extension is loaded');
    await ext.activate();
    assert.ok((await vscode.commands.getCommands(true)).includes('harnessProbe.hello'));
  });
  it('runs a command through the real API', async () => {
    await vscode.commands.executeCommand('harnessProbe.hello');
    assert.strictEqual(vscode.extensions.getExtension('${PROBE_ID}').exports.hellos(), 1);
  });
  it('sees the environment given to code-server', () => {
    assert.strictEqual(process.env.REASONIX_HOME, process.env.PROBE_EXPECT_HOME);
  });
  it('opens the requested workspace folders', () => {
    const names = (vscode.workspace.workspaceFolders || []).map((f) => f.name).sort().join(',');
    assert.strictEqual(names, process.env.PROBE_EXPECT_FOLDERS);
    console.log('probe console line reached the terminal');
  });
});
`;

const svg =
  '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><circle cx="12" cy="12" r="8" fill="currentColor"/></svg>\n';

/** Writes the probe extension (with its in-host suite under test/) into `dir`. */
export function writeProbeExtension(
  dir: string,
  opts: { broken?: boolean } = {},
): { extensionPath: string; testsPath: string } {
  mkdirSync(join(dir, 'test', 'suite'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, 'extension.js'), extensionJs(opts.broken === true));
  writeFileSync(join(dir, 'probe.svg'), svg);
  writeFileSync(join(dir, 'README.md'), '# Harness Probe\n\nGenerated by the test harness.\n');
  writeFileSync(join(dir, 'LICENSE'), 'MIT\n');
  writeFileSync(join(dir, '.vscodeignore'), 'test/**\n');
  writeFileSync(join(dir, 'test', 'index.js'), testIndexJs(repoRoot));
  writeFileSync(join(dir, 'test', 'suite', 'probe.test.js'), suiteJs);
  return { extensionPath: dir, testsPath: join(dir, 'test', 'index.js') };
}

/** Packages an extension folder with vsce (offline; no dependencies bundled). */
export async function packageVsix(extensionDir: string, outFile: string): Promise<string> {
  const vsce = join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  const child = spawn(process.execPath, [vsce, 'package', '--no-dependencies', '-o', outFile], {
    cwd: extensionDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`vsce package failed in ${extensionDir} (exit ${code}): ${out.trim()}`);
  return outFile;
}
