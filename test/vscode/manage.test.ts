// In-host: Reasonix extensions managed from VS Code through the real Reasonix 1.38.11 (the pinned
// devDependency, named by the user's reasonix.path), in the runner's scratch REASONIX_HOME and
// code-server's sandboxed HOME. A change to plugin-packages.json made outside (Reasonix in a
// terminal) shows up in the Extensions view; the install command shows the plan, installs only
// after the answer, and the extension runs without a reload; refuse, disable/enable in Reasonix,
// show details and remove. The samples (hello, showcase) keep their processes throughout.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PluginInfo, ReasonixApi } from '../../src/vscode/api';
import type { ReasonixTesting } from '../../src/vscode/context';
import type { InstallOutcome } from '../../src/vscode/manage/commands';
import { waitFor } from '../support/wait';
import { FIXTURES, realReasonixBinary } from '../support/reasonix';

const EXTENSION_ID = 'reasonix.reasonix-vscode-host';

describe('managing Reasonix extensions from VS Code (the real Reasonix)', function () {
  this.timeout(90_000);
  let api: ReasonixApi & { testing?: ReasonixTesting };
  let home: string;
  let original: string;
  let scratch: string;
  const asked: { title: string; detail: string }[] = [];
  let answer: 'agree' | 'refuse' = 'agree';

  const plugin = (id: string): PluginInfo | undefined => api.listPlugins().find((p) => p.pluginId === id);
  const pids = () => ['hello', 'showcase'].map((id) => plugin(id)?.pid);
  const packagesFile = () => path.join(home, 'plugin-packages.json');

  /** Reasonix run from "a terminal": the same binary and home, outside the extension. */
  function terminal(...args: string[]): string {
    const r = spawnSync(realReasonixBinary(), ['plugin', ...args], {
      cwd: scratch,
      env: { ...process.env, REASONIX_HOME: home },
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(r.status, 0, `reasonix plugin ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  }

  function greeterCopy(as: string, name = as): string {
    const dir = path.join(scratch, as);
    cpSync(path.join(FIXTURES, 'greeter'), dir, { recursive: true });
    const manifest = path.join(dir, 'reasonix-plugin.json');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"name": "greeter"', `"name": "${name}"`));
    return dir;
  }

  before(async () => {
    const ext = vscode.extensions.getExtension<ReasonixApi>(EXTENSION_ID);
    assert.ok(ext);
    api = await ext.activate();
    assert.ok(api.testing, 'the test seam exists in Test mode');
    home = process.env.REASONIX_HOME as string;
    assert.ok(home, 'REASONIX_HOME is set by the in-host runner');
    original = readFileSync(packagesFile(), 'utf8');
    scratch = mkdtempSync(path.join(tmpdir(), 'rx-manage-'));
    await waitFor(() => pids().every((p) => p !== undefined), { timeoutMs: 20_000, what: 'the samples running' });
    await vscode.workspace
      .getConfiguration('reasonix')
      .update('path', realReasonixBinary(), vscode.ConfigurationTarget.Global);
    api.testing.setConsent((title, detail, button) => {
      asked.push({ title, detail });
      return Promise.resolve(answer === 'agree' ? button : undefined);
    });
  });

  after(async () => {
    api.testing?.setConsent(undefined);
    await vscode.workspace.getConfiguration('reasonix').update('path', undefined, vscode.ConfigurationTarget.Global);
    // Leave the shared home as the other suites expect it, and wait until the sessions follow.
    writeFileSync(packagesFile(), original);
    await waitFor(() => !plugin('greeter') && !plugin('outside'), { timeoutMs: 15_000, what: 'the home restored' });
    rmSync(scratch, { recursive: true, force: true });
  });

  it('a change to plugin-packages.json from outside shows up in the Extensions view without a reload', async () => {
    const before = pids();
    terminal('install', greeterCopy('outside'), '--yes');
    const row = await waitFor(() => plugin('outside')?.state === 'running' && plugin('outside'), {
      timeoutMs: 15_000,
      what: '"outside" running after the terminal install',
    });
    assert.equal(row.source, 'installed');
    terminal('disable', 'outside');
    await waitFor(() => plugin('outside')?.state === 'disabled', { timeoutMs: 15_000, what: '"outside" disabled' });
    assert.equal(plugin('outside')?.disabledIn, 'reasonix');
    terminal('remove', 'outside', '--yes');
    await waitFor(() => plugin('outside') === undefined, { timeoutMs: 15_000, what: '"outside" gone' });
    assert.deepEqual(pids(), before, 'hello and showcase kept their processes');
  });

  it('Install Reasonix Extension…: the plan is shown, nothing is written when refused', async () => {
    answer = 'refuse';
    asked.length = 0;
    const before = readFileSync(packagesFile(), 'utf8');
    const out = (await vscode.commands.executeCommand('reasonix.installExtension', {
      source: greeterCopy('declined'),
    })) as InstallOutcome;
    assert.equal(out.outcome, 'declined');
    assert.equal(asked.length, 1);
    assert.equal(asked[0].title, 'Install "declined" 1.0.0 with Reasonix?');
    assert.equal(readFileSync(packagesFile(), 'utf8'), before, 'nothing written');
    assert.equal(plugin('declined'), undefined);
  });

  it('Install Reasonix Extension…: agreed, exactly that plan is installed and the extension runs at once', async () => {
    answer = 'agree';
    asked.length = 0;
    const before = pids();
    const out = (await vscode.commands.executeCommand('reasonix.installExtension', {
      source: greeterCopy('greeter'),
    })) as InstallOutcome;
    assert.equal(out.outcome, 'installed', out.message);
    assert.deepEqual(out.names, ['greeter']);
    const detail = asked[0].detail;
    for (const want of [
      /^Risk: high$/m,
      /^ {2}• FULL TRUST: declares a runtime process/m,
      /^Runtime command: \$\{REASONIX_PLUGIN_ROOT\}\/bin\/greeter$/m,
      /^Hook points: tool\.before$/m,
      /^Capabilities: ui, interceptors$/m,
      /^Compatibility: full$/m,
      /^Planned by Reasonix 1\.38\.11$/m,
      new RegExp(`^Reasonix plan ${(out.planId ?? '').slice(0, 'hmac-v1:'.length + 16)}…$`, 'm'),
    ])
      assert.match(detail, want);
    // Running right after the command returned: no reload, and the samples untouched.
    assert.equal(plugin('greeter')?.state, 'running');
    assert.equal(plugin('greeter')?.source, 'installed');
    assert.deepEqual(pids(), before);
  });

  it('a source Reasonix cannot read, and no Reasonix at all: the message names the step and what to do', async () => {
    const bad = (await vscode.commands.executeCommand('reasonix.installExtension', {
      source: path.join(scratch, 'nowhere'),
    })) as InstallOutcome;
    assert.equal(bad.outcome, 'failed');
    assert.match(bad.message ?? '', /^Reasonix failed while planning the install \(.*nowhere\): /);
    assert.match(bad.message ?? '', /is not a readable local path.*Fix what Reasonix names, then try again\.$/);
    const cfg = vscode.workspace.getConfiguration('reasonix');
    await cfg.update('path', path.join(scratch, 'no-reasonix-here'), vscode.ConfigurationTarget.Global);
    try {
      const none = (await vscode.commands.executeCommand('reasonix.installExtension', {
        source: greeterCopy('missing'),
      })) as InstallOutcome;
      assert.equal(none.outcome, 'failed');
      assert.match(none.message ?? '', /^Reasonix failed while finding Reasonix .*not an executable file/);
      assert.match(none.message ?? '', /Install Reasonix \(npm install -g reasonix\) or set reasonix\.path/);
    } finally {
      await cfg.update('path', realReasonixBinary(), vscode.ConfigurationTarget.Global);
    }
    assert.equal(plugin('missing'), undefined);
  });

  it('Migrate to v2 on the v1 sample: Reasonix 1.38.11 refuses and says why; hello keeps running', async () => {
    const pid = plugin('hello')?.pid;
    assert.equal(await vscode.commands.executeCommand('reasonix.migrateExtension', 'hello'), false);
    assert.equal(plugin('hello')?.state, 'running');
    assert.equal(plugin('hello')?.pid, pid);
  });

  it('the per-folder switch stops and starts only that extension', async () => {
    const showcase = plugin('showcase')?.pid;
    const hello = plugin('hello') as PluginInfo;
    await vscode.commands.executeCommand('reasonix.toggleEnablement', {
      sessionKey: hello.sessionKey,
      pluginId: 'hello',
    });
    assert.equal(plugin('hello')?.state, 'disabled');
    assert.equal(plugin('hello')?.disabledIn, 'folder');
    await vscode.commands.executeCommand('reasonix.toggleEnablement', {
      sessionKey: hello.sessionKey,
      pluginId: 'hello',
    });
    assert.equal(plugin('hello')?.state, 'running');
    assert.notEqual(plugin('hello')?.pid, hello.pid, 'hello started again');
    assert.equal(plugin('showcase')?.pid, showcase, 'showcase kept its process');
  });

  it('Disable and Enable in Reasonix, Show Details, Remove', async () => {
    const before = pids();
    assert.equal(await vscode.commands.executeCommand('reasonix.disableGlobally', 'greeter'), true);
    assert.equal(plugin('greeter')?.state, 'disabled');
    assert.equal(plugin('greeter')?.disabledIn, 'reasonix');
    assert.match(terminal('list'), /^greeter\tdisabled\t/m);
    assert.equal(await vscode.commands.executeCommand('reasonix.enableGlobally', 'greeter'), true);
    assert.equal(plugin('greeter')?.state, 'running');

    const uri = (await vscode.commands.executeCommand('reasonix.showExtensionDetails', 'greeter')) as vscode.Uri;
    const text = (await vscode.workspace.openTextDocument(uri)).getText();
    assert.match(text, /^Reasonix 1\.38\.11 at /);
    assert.match(text, /^\$ reasonix plugin show greeter\nname: greeter$/m);
    assert.match(text, /^ok: greeter /m);

    assert.equal(await vscode.commands.executeCommand('reasonix.removeExtension', 'greeter'), true);
    assert.equal(plugin('greeter'), undefined);
    assert.doesNotMatch(terminal('list'), /greeter/);
    assert.deepEqual(pids(), before, 'hello and showcase kept their processes');
  });
});
