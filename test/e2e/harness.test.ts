// Smoke tests of the real-VS Code harness itself, on a throwaway probe extension: the in-host
// runner (code-server smoke-test driver: pass, deliberate failure, env, multi-root) and the UI
// helpers against the probe installed from its .vsix (palette, notifications, Output channel,
// QuickPick/InputBox, activity-bar container, tree view, webview found by content). The real
// product's UI tests are product.test.ts and hostile.test.ts.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROBE_CONTAINER, packageVsix, writeProbeExtension } from './support/probeExtension';
import { repoRoot } from './support/paths';
import { useSharedUiSession } from './support/session';
import { waitFor } from '../support/wait';

let scratch: string;
before(() => {
  scratch = mkdtempSync(join(tmpdir(), 'reasonix-harness-'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

function runInHostRunner(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [join(repoRoot, 'scripts', 'run-inhost-tests.mjs'), '--no-compile', ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })));
}

function folders(...names: string[]): string[] {
  return names.map((n) => {
    const d = join(scratch, 'ws', n);
    mkdirSync(d, { recursive: true });
    return d;
  });
}

describe('in-host runner (scripts/run-inhost-tests.mjs on code-server)', function () {
  this.timeout(240_000);

  it('runs a passing suite inside the extension host, exits 0 and prints mocha output', async () => {
    const probe = writeProbeExtension(join(scratch, 'probe-ok'));
    const [a, b] = folders('alpha', 'beta');
    const home = join(scratch, 'home-ok');
    const r = await runInHostRunner([
      '--extension',
      probe.extensionPath,
      '--tests',
      probe.testsPath,
      '--workspace',
      a,
      '--workspace',
      b,
      '--env',
      `REASONIX_HOME=${home}`,
      '--env',
      `PROBE_EXPECT_HOME=${home}`,
      '--env',
      'PROBE_EXPECT_FOLDERS=alpha,beta',
      '--name',
      'harness-inhost-pass',
    ]);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /4 passing/);
    assert.match(r.out, /probe console line reached the terminal/);
  });

  it('exits 1 and reports the failures when the extension is broken', async () => {
    const probe = writeProbeExtension(join(scratch, 'probe-broken'), { broken: true });
    const [a] = folders('gamma');
    const r = await runInHostRunner([
      '--extension',
      probe.extensionPath,
      '--tests',
      probe.testsPath,
      '--workspace',
      a,
      '--env',
      'PROBE_EXPECT_FOLDERS=gamma',
      '--name',
      'harness-inhost-broken',
    ]);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /harness probe deliberately broken/);
    assert.match(r.out, /\d+ failing/);
  });
});

describe('UI harness (probe .vsix installed into code-server, driven by Chromium)', function () {
  this.timeout(240_000);
  let vsix: string;
  before(async () => {
    const dir = join(scratch, 'probe-vsix');
    writeProbeExtension(dir);
    vsix = await packageVsix(dir, join(scratch, 'harness-probe.vsix'));
  });

  // One session for the three checks (a session costs 30–40 s); none depends on another's state.
  const session = useSharedUiSession(() => ({
    vsix: [vsix],
    workspace: (sandbox) => {
      const ws = join(sandbox, 'workspace');
      mkdirSync(ws, { recursive: true });
      return ws;
    },
    env: (sandbox) => ({ REASONIX_HOME: join(sandbox, 'reasonix-home') }),
  }));

  it('runs a palette command, then reads its notification and its Output channel', async () => {
    const wb = session().workbench;
    await wb.runCommand('Harness Probe: Say Hello');
    // The first command also activates the probe extension: allow for a slow extension host start.
    const item = await wb.waitForNotification('Hello from the probe', 60_000);
    const text = (await item.textContent()) ?? '';
    assert.match(text, new RegExp(`REASONIX_HOME=${join(session().sandbox, 'reasonix-home')}`));
    assert.ok((await wb.notifications()).some((n) => n.startsWith('Hello from the probe')));
    const out = await wb.waitForOutput('Harness Probe', 'hello  number 1');
    assert.match(out, /hello {2}number 1 \(two spaces kept\)/);
  });

  it('answers a QuickPick and an InputBox, including its validation message', async () => {
    const wb = session().workbench;
    await wb.runCommand('Harness Probe: Ask Questions');
    assert.deepEqual(await wb.quickPickItems(), ['alpha', 'beta', 'gamma']);
    await wb.pickQuickItem('beta');
    await wb.fillInputBox('x', { submit: false });
    assert.match(await waitForText(() => wb.quickInputMessage(), 'at least two characters'), /at least two characters/);
    await wb.fillInputBox('Bea');
    await wb.waitForNotification('Answered beta / Bea');
  });

  it('opens the activity-bar container, reads the tree view and clicks inside the webview', async () => {
    const wb = session().workbench;
    await wb.openViewContainer(PROBE_CONTAINER);
    const tree = wb.view('Probe Tree');
    await tree.locator('.monaco-list-row').first().waitFor({ timeout: 30_000 });
    assert.deepEqual(await wb.viewRows(tree), ['first item', 'second item']);
    const frame = await wb.webviewFrame('#probe-button');
    assert.equal(await frame.locator('#probe-heading').textContent(), 'Probe webview');
    await frame.locator('#probe-button').click();
    await wb.waitForNotification('Webview button pressed');
  });
});

// The packaged Reasonix extension itself is covered by product.test.ts and hostile.test.ts.

async function waitForText(read: () => Promise<string>, expected: string): Promise<string> {
  return waitFor(
    async () => {
      const t = await read();
      return t.includes(expected) ? t : undefined;
    },
    { timeoutMs: 30_000, what: `"${expected}"` },
  );
}
