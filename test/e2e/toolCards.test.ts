// A Reasonix view on its tool's card in VS Code's chat (issue 41), in code-server 1.139 with its
// built-in chat, offline and signed out, the packaged .vsix, and the showcase's echo model (its
// `call <tool> <json>` line makes it call that tool). The fixture test/fixtures/ui/anchored is a
// protocol v2 sidecar (test/fixtures/ui/anchored.js) whose `count_words` says `anchorsView` and
// anchors a view to the call id our MCP server hands it (a second generation 1.5 s later, a declared
// button "Bump"); its `count_quietly` never anchors one.
//
//   1. an agent turn calls count_words: the card draws the view (the same renderer as the sidebar),
//      its second generation arrives without a new call, and its button reaches the sidecar
//      (`extension/ui/action`, which publishes a third generation "bumped 1"); the card's
//      hostContext.toolCall.toolCallId is the agent hook's tool_use_id (the model's call id);
//   2. screenshots of the card in three themes (test-results/tool-cards/);
//   3. count_quietly gets no card at all (a tool without a view costs nothing on its card);
//   4. after Developer: Reload Window the old transcript's card draws again, and says its view is no
//      longer live (the sidecars restarted; the text result stands);
//   5. with `chat.mcp.apps.enabled: false` (its own window) the text result stands alone.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { repoRoot, resultsDir } from './support/paths';
import { reasonixSessionOptions } from './support/reasonix';
import { useSharedUiSession, type UiSessionOptions } from './support/session';
import { chatShows, chatText, pressInEditor } from './support/chat';
import { normalise } from './support/text';
import type { Workbench } from './support/workbench';
import { waitFor } from '../support/wait';

const FIXTURE = join(repoRoot, 'test', 'fixtures', 'ui', 'anchored');
/** VS Code's names for the fixture's tools served by our MCP server (a single-folder window). */
const ANCHORING = 'mcp_reasonix_ext__anchored__count_words';
const QUIET = 'mcp_reasonix_ext__anchored__count_quietly';

const THEMES = [
  { label: 'Light Modern', doc: 'light' },
  { label: 'Dark High Contrast', doc: 'high-contrast' },
  { label: 'Dark Modern', doc: 'dark' },
] as const;

/** A chat turn in agent mode with the Reasonix echo model, bound to a key. */
const turn = (key: string, query: string) => ({
  key,
  command: 'workbench.action.chat.open',
  args: { mode: 'agent', query, modelSelector: { vendor: 'reasonix' } },
});

interface PDocument {
  body: { textContent: string | null; dataset: Record<string, string | undefined> };
}

function options(settings: Record<string, unknown>): () => UiSessionOptions {
  return () => ({
    ...reasonixSessionOptions({ plugins: ['showcase', FIXTURE] }),
    settings: { 'chat.allowAnonymousAccess': true, 'chat.disableAIFeatures': false, ...settings },
    keybindings: [
      turn('f9', `call ${ANCHORING} {"text":"cards show live views"}`),
      turn('f10', `call ${QUIET} {"text":"no card for me"}`),
    ],
  });
}

const showcaseRunning = async (wb: Workbench) => {
  await wb.openViewContainer('Reasonix');
  await waitFor(
    async () => {
      const rows = await wb.viewRows(wb.view('Extensions'));
      return rows.some((r) => /anchored.*running/i.test(r)) && rows.some((r) => /showcase.*running/i.test(r));
    },
    { timeoutMs: 90_000, what: 'showcase and anchored running' },
  );
};
/** The card page's frame (our dist/mcp-app.html inside VS Code's webview on the card). */
const cardFrame = (wb: Workbench, timeoutMs = 60_000): Promise<Frame> => wb.webviewFrame('body.mcp-app', timeoutMs);
const cardText = async (frame: Frame) =>
  normalise(
    await frame.evaluate(() => (globalThis as unknown as { document: PDocument }).document.body.textContent ?? ''),
  );

describe('A Reasonix view on its tool’s card in VS Code’s chat (MCP Apps, issue 41)', function () {
  this.timeout(300_000);
  const session = useSharedUiSession(options({}));
  const shots = join(resultsDir, 'tool-cards');

  before(async function () {
    this.timeout(180_000);
    await showcaseRunning(session().workbench);
  });

  it('an agent turn calls an anchoring tool: the view appears on its card, updates without a new call, and its button reaches the sidecar', async () => {
    const wb = session().workbench;
    await pressInEditor(wb, 'F9');
    await chatShows(wb, /Echo: tool result call_\d+: 4 words/, 'the echo model answering with the tool result');
    const frame = await cardFrame(wb);
    // Generation 2 ("Counted 4 words") comes 1.5 s after the call, by the page's own long-poll.
    await waitFor(async () => /Counted 4 words/.test(await cardText(frame)), {
      timeoutMs: 60_000,
      what: 'the second generation on the card',
    });
    assert.doesNotMatch(await cardText(frame), /sk-live-0123456789abcdef/, 'redacted as in the sidebar');
    const region = frame.locator('section.view[role="region"]');
    assert.match(String(await region.getAttribute('aria-label')), /^anchored: count-/);
    // The declared button, from the keyboard: the sidecar hears extension/ui/action and publishes again.
    await frame.locator('vscode-button[data-action-id="bump"]').focus();
    await wb.page.keyboard.press('Enter');
    await waitFor(async () => /bumped 1/.test(await cardText(frame)), { timeoutMs: 30_000, what: 'bumped 1' });
    assert.match(await cardText(frame), /Counted 4 words, bumped 1/);
    // VS Code's own id of the call, as the page got it in hostContext.toolCall.toolCallId.
    const hostCallId = await frame.evaluate(
      () => (globalThis as unknown as { document: PDocument }).document.body.dataset.toolCallId,
    );
    assert.ok(hostCallId, 'VS Code gives the page its tool call id');
    // The agent hook's tool_use_id is the model's tool call id (VS Code 1.139's chat hook service
    // passes toolCall.id to PreToolUse), which the echo model's answer names ("tool result call_N").
    const modelCallId = /Echo: tool result (call_\d+): 4 words/.exec(await chatText(wb))?.[1];
    assert.ok(modelCallId, 'the echo model names its tool call');
    assert.equal(hostCallId, modelCallId, 'hostContext.toolCall.toolCallId is the agent hook’s tool_use_id');
    mkdirSync(shots, { recursive: true });
    await wb.screenshot(join(shots, 'card-live.png'));
    assert.equal(await wb.page.locator('.part.auxiliarybar .mcp-app-webview').count(), 1, 'one card');
  });

  it('looks native in Light Modern, Dark High Contrast and Dark Modern (screenshots)', async () => {
    const wb = session().workbench;
    mkdirSync(shots, { recursive: true });
    for (const theme of THEMES) {
      await wb.runCommandByKeyboard('Preferences: Color Theme');
      await wb.pickQuickItemByKeyboard(theme.label);
      const card = wb.page.locator('.part.auxiliarybar .mcp-app-part').first();
      await card.scrollIntoViewIfNeeded();
      // The card's webview follows the theme (host-context-changed) and is drawn over its place.
      await wb.page.waitForTimeout(2000);
      await wb.screenshot(join(shots, `card-${theme.doc}.png`));
    }
  });

  it('a tool that never anchors a view gets no card', async () => {
    const wb = session().workbench;
    const before = await wb.page.locator('.part.auxiliarybar .mcp-app-webview').count();
    await pressInEditor(wb, 'F10');
    await chatShows(wb, /Echo: tool result call_\d+: 4 words[\s\S]*Echo: tool result call_\d+: 4 words/, 'the answer');
    await wb.page.waitForTimeout(3000);
    assert.equal(await wb.page.locator('.part.auxiliarybar .mcp-app-webview').count(), before, 'no new card');
  });

  it('after a window reload the old card draws again and says its view is no longer live', async () => {
    const wb = session().workbench;
    await wb.reloadWindow();
    // VS Code restores the chat and draws the old card; our server, started from VS Code's cached
    // definition (the window id from before the reload), relays to the reloaded window once it is up.
    const drawn = async () => {
      for (const f of wb.page.frames()) {
        const n = await f
          .locator('body.mcp-app')
          .count()
          .catch(() => 0);
        if (n > 0 && /no longer live|Counted/.test(await cardText(f).catch(() => ''))) return f;
      }
      return undefined;
    };
    // If VS Code tried the server before the reloaded window could serve it, the card says so with
    // a Retry button (VS Code's): press it once, as a user would, and say so in the test's output.
    const retry = wb.page.locator('.part.auxiliarybar .mcp-app-part .chat-buttons-container .monaco-button');
    const frame = await waitFor(
      async () => {
        const f = await drawn();
        if (f) return f;
        if (await retry.count()) {
          console.log('      (the restored card showed VS Code’s load error first; pressed Retry)');
          await retry.first().click();
        }
        return undefined;
      },
      { timeoutMs: 120_000, what: 'the old card drawn again after the reload', intervalMs: 2000 },
    );
    assert.match(await cardText(frame), /This Reasonix view is no longer live/);
    mkdirSync(shots, { recursive: true });
    await wb.page.waitForTimeout(2000);
    await wb.screenshot(join(shots, 'card-after-reload.png'));
  });
});

describe('With chat.mcp.apps.enabled off, the text result stands alone (issue 41)', function () {
  this.timeout(300_000);
  const session = useSharedUiSession(options({ 'chat.mcp.apps.enabled': false }));

  it('the anchoring tool’s call shows its text and no card', async () => {
    const wb = session().workbench;
    await showcaseRunning(wb);
    await pressInEditor(wb, 'F9');
    await chatShows(wb, /Echo: tool result call_\d+: 4 words/, 'the echo model answering with the tool result');
    await wb.page.waitForTimeout(3000);
    assert.equal(await wb.page.locator('.mcp-app-webview').count(), 0, 'no card');
  });
});
