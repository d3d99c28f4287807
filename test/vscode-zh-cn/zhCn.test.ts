// Issue 29 in a real extension host whose display language is zh-cn: the manifest's contributions,
// a failure notification and the Surfaces webview's labels come back in Simplified Chinese, and
// text from the extensions (plugin ids, stderr, their own labels) stays as they wrote it.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ReasonixApi } from '../../src/vscode/api';
import type { RunOutcome } from '../../src/vscode/actions';
import { VIEW_STRINGS } from '../../src/webviewProtocol/strings';
import { waitFor } from '../support/wait';
import { crashAndRestart, running } from '../vscode/crash';

const EXTENSION_ID = 'reasonix.reasonix-vscode-host';

/** A localized manifest string: VS Code keeps the English as `original` beside the translated `value`. */
type Localized = string | { value: string; original: string };
const shown = (s: Localized): string => (typeof s === 'string' ? s : s.value);

describe('Reasonix in Simplified Chinese (display language zh-cn, in a real VS Code)', function () {
  this.timeout(60_000);
  let ext: vscode.Extension<ReasonixApi>;
  let api: ReasonixApi;
  const json = (rel: string) =>
    JSON.parse(readFileSync(path.join(ext.extensionPath, rel), 'utf8')) as Record<string, string>;

  before(async () => {
    const found = vscode.extensions.getExtension<ReasonixApi>(EXTENSION_ID);
    assert.ok(found, `${EXTENSION_ID} is installed`);
    ext = found;
    api = await ext.activate();
    await waitFor(() => running(api, 'hello'), { timeoutMs: 20_000, what: 'hello running', intervalMs: 50 });
  });

  it('runs with VS Code display language zh-cn', () => {
    assert.equal(vscode.env.language, 'zh-cn');
  });

  it('contributes every command with its Chinese title from package.nls.zh-cn.json, and registers it', async () => {
    const zh = json('package.nls.zh-cn.json');
    const declared = ext.packageJSON.contributes.commands as { command: string; title: Localized }[];
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const c of declared) {
      assert.equal(shown(c.title), zh[`command.${c.command.replace(/^reasonix\./, '')}`], c.command);
      assert.ok(registered.has(c.command), `${c.command} is registered`);
    }
    const titles = new Map(declared.map((c) => [c.command, shown(c.title)]));
    assert.equal(titles.get('reasonix.restartExtension'), '重启扩展…');
    assert.equal(titles.get('reasonix.showLogs'), '显示日志');
    const views = ext.packageJSON.contributes.views.reasonix as { id: string; name: Localized }[];
    assert.deepEqual(
      views.map((v) => shown(v.name)),
      ['扩展', '界面'],
    );
  });

  it('says why an action cannot run in Chinese, keeping the extension-given names as written', async () => {
    const out = (await vscode.commands.executeCommand('reasonix.runAction', {
      plugin: 'no-such-plugin',
      action: 'go',
    })) as RunOutcome;
    assert.equal(out.ran, false);
    assert.match(out.message ?? '', /^无法运行 \/no-such-plugin:go：.+ 中没有 Reasonix 扩展“no-such-plugin”。$/);
  });

  it('reports a crash in Chinese: plugin, stage, elapsed time, the automatic restart', async () => {
    const { failure } = await crashAndRestart(api, 'hello');
    assert.match(failure.notification, /^Reasonix 扩展“hello”在 \S+ 阶段运行 \d+\.\d 秒后崩溃：/);
    assert.match(failure.notification, /正在自动重启（第 1 次，共 4 次）。$/);
  });

  it('has every webview label in the Chinese bundle the extension sends in the snapshot', () => {
    // What the hub sends is vscode.l10n.t of each English value (src/vscode/surfaces/viewStrings.ts);
    // the extension host loaded exactly this file for zh-cn. The UI test sees them drawn.
    const bundle = json('l10n/bundle.l10n.zh-cn.json');
    assert.ok(vscode.l10n.uri, 'VS Code loaded a l10n bundle for the extension');
    assert.equal(path.basename(vscode.l10n.uri?.fsPath ?? ''), 'bundle.l10n.zh-cn.json');
    for (const english of Object.values(VIEW_STRINGS)) assert.equal(vscode.l10n.t(english), bundle[english], english);
    assert.equal(vscode.l10n.t(VIEW_STRINGS.submit), '提交');
    assert.equal(vscode.l10n.t(VIEW_STRINGS.noExtensionsTitle), '尚未安装 Reasonix 扩展。');
  });
});
