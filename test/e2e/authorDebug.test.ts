// Writing a Reasonix extension in the real workbench (issue 42), as an author does it: New Reasonix
// Extension… (Node) into an empty folder picked in VS Code's own folder dialog, a breakpoint in
// its handshake (F9 on `extension/initialize`), Debug Extension…: VS Code's JavaScript debugger
// attaches to the sidecar held by --inspect-brk and stops at the breakpoint. Held there past the
// 30 s handshake budget, it still comes up once continued (the budget is suspended while
// debugging); the trace view then shows its frames (screenshots: test-results/author-debug/).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, resultsDir } from './support/paths';
import { reasonixSessionOptions } from './support/reasonix';
import { useUiSession } from './support/session';
import { waitFor } from '../support/wait';

/** The Extensions view's row of the new extension says it runs. */
const running = (row: string) => row.includes('traced') && /running/i.test(row);

/** The handshake budget of a normal start (src/host/sidecar DEFAULT_TIMEOUTS.handshakeMs). */
const HANDSHAKE_MS = 30_000;

/** The 1-based line of the handshake's first statement in the Node template. */
function handshakeLine(): number {
  const lines = readFileSync(join(repoRoot, 'templates', 'scaffold', 'node', 'sidecar.js'), 'utf8').split('\n');
  const i = lines.findIndex((l) => l.includes('session = params.session;'));
  assert.ok(i >= 0, 'the template answers extension/initialize with `session = params.session;`');
  return i + 1;
}

describe('Debug Extension… (UI): a new Node extension stopped at a breakpoint in its handshake', function () {
  this.timeout(600_000);
  // Generous steps: the machines these run on are often busy (a load of 6 per core was seen).
  const session = useUiSession(() => ({ ...reasonixSessionOptions(), timeouts: { readyMs: 180_000, stepMs: 90_000 } }));
  const shots = join(resultsDir, 'author-debug');

  it('creates the extension, stops at the breakpoint past the handshake budget, continues, and shows its trace', async () => {
    const s = session();
    const wb = s.workbench;
    const page = wb.page;
    mkdirSync(shots, { recursive: true });
    const target = join(s.sandbox, 'traced');
    mkdirSync(target);

    await wb.openViewContainer('Reasonix');
    await wb.runCommand('Reasonix: New Reasonix Extension…');
    // The language QuickPick: Node.js is its first item, focused; Enter takes it.
    const input = wb.quickInput.locator('input').first();
    await waitFor(async () => ((await input.getAttribute('placeholder')) ?? '').includes('language') || undefined, {
      timeoutMs: 90_000,
      what: 'the language QuickPick',
    });
    await page.waitForTimeout(500);
    await input.press('Enter');
    // VS Code's folder dialog in the browser is a quick input holding a path; then the name prompt,
    // which offers the folder's name.
    await wb.fillInputBox(`${target}/`, { submit: true });
    const box = wb.quickInput.locator('input').first();
    let again = false;
    await waitFor(
      async () => {
        const value = await box.inputValue().catch(() => '');
        if (value === 'traced') return true;
        if (!again && value.startsWith(target)) {
          again = true; // the dialog listed the folder: Enter selects it
          await box.press('Enter');
        }
        return undefined;
      },
      { timeoutMs: 90_000, what: 'the name prompt offering "traced"', intervalMs: 500 },
    );
    await page.screenshot({ path: join(shots, 'name-prompt.png') });
    await box.press('Enter');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await waitFor(async () => (await page.locator('.tab.active').textContent())?.includes('sidecar.js') || undefined, {
      timeoutMs: 90_000,
      what: 'sidecar.js open in the editor',
    });
    const view = wb.view('Extensions');
    await waitFor(async () => (await wb.viewRows(view)).some((r) => running(r)) || undefined, {
      timeoutMs: 120_000,
      what: 'the new extension linked and running',
    });

    // A breakpoint on the handshake's first statement.
    await editor.click();
    await page.keyboard.press('Control+G');
    // Go to Line is quick access with its ":" prefix.
    await wb.fillInputBox(`:${handshakeLine()}`, { submit: true });
    await page.keyboard.press('F9');
    await editor.locator('.codicon-debug-breakpoint').first().waitFor({ state: 'visible', timeout: 90_000 });

    await wb.runCommand('Reasonix: Debug Extension…');
    await wb.pickQuickItem('traced');
    // Stopped at the breakpoint: the current-frame arrow in the margin, the debug toolbar.
    const stopped = editor.locator('.codicon-debug-stackframe');
    await stopped.first().waitFor({ state: 'visible', timeout: 120_000 });
    const pausedAt = Date.now();
    await page.locator('.debug-toolbar').waitFor({ state: 'visible', timeout: 90_000 });
    await page.screenshot({ path: join(shots, 'stopped-in-handshake.png') });
    // Held longer than a normal start may take.
    await page.waitForTimeout(HANDSHAKE_MS + 2_000 - (Date.now() - pausedAt));
    await page.locator('.debug-toolbar .codicon-debug-continue').first().click();
    // Debugging showed Run and Debug in the side bar: back to Reasonix's Extensions view.
    await wb.openViewContainer('Reasonix');
    await waitFor(
      async () => ((await wb.viewRows(view)).some((r) => running(r)) && !(await stopped.count())) || undefined,
      { timeoutMs: 120_000, what: 'the debugged extension running after continue' },
    );

    await wb.runCommand('Reasonix: Show Protocol Trace…');
    await wb.pickQuickItem('Every frame');
    const trace = page.locator('.editor-instance .monaco-editor .view-lines').first();
    await waitFor(
      async () =>
        ((await trace.textContent()) ?? '').replace(/\u00a0/g, ' ').includes('extension/initialized') || undefined,
      { timeoutMs: 90_000, what: 'the trace view showing the handshake' },
    );
    const text = ((await trace.textContent()) ?? '').replace(/\u00a0/g, ' ');
    assert.match(text, /request {2}extension\/initialize/);
    assert.match(text, /host\/ui\/publish/);
    // The debugged start's initialize was answered after the breakpoint's hold, past the budget.
    const waits = [...text.matchAll(/response {2}extension\/initialize .*?answers #\d+ after (\d+) ms/g)].map((m) =>
      Number(m[1]),
    );
    assert.ok(
      waits.some((ms) => ms > HANDSHAKE_MS),
      `an initialize answered after more than ${HANDSHAKE_MS} ms: ${waits.join(', ')}`,
    );
    await page.screenshot({ path: join(shots, 'trace-view.png') });

    // Stopping the debug session: the normal start again.
    await page.locator('.debug-toolbar .codicon-debug-disconnect, .debug-toolbar .codicon-debug-stop').first().click();
    await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 90_000 });
    await wb.openViewContainer('Reasonix');
    await waitFor(async () => (await wb.viewRows(view)).some((r) => running(r)) || undefined, {
      timeoutMs: 120_000,
      what: 'the extension running normally after the debug session',
    });
  });
});
