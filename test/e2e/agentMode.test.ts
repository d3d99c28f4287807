// The whole agent loop in VS Code run by Reasonix extensions (issue 24), as a new user meets it: the
// packaged .vsix in code-server 1.139 with its built-in chat, offline and signed out. The profile
// sets `chat.allowAnonymousAccess` (chat setup then completes without a sign-in) and turns the
// chat back on (the quiet test profile turns AI features off). Turns are started without typing,
// the way a user's keybinding would: `workbench.action.chat.open` in agent mode with the showcase's
// echo model, whose `call <tool> <json>` line makes it call that tool with exactly those arguments.
//
//   1. an agent turn: the Reasonix model calls a Reasonix v2 tool through our MCP server; the
//      sidecar runs it (its panel counts the call) and the chat shows the result;
//   2. a tool the showcase's tool.before blocks: PreToolUse reaches the bridge, VS Code refuses the
//      tool and the chat shows the extension's reason; across both turns the showcase saw
//      tool.before once per call (exactly once: its panel's "Tool rulings");
//   3. the model picker lists the Reasonix model;
//   4. MCP: List Servers shows the Reasonix server Running.
// Screenshots go to test-results/agent-mode/ (UPDATE_SCREENSHOTS=1 also writes docs/images/agent-*.png
// for the README's "Agent mode" section).
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, resultsDir } from './support/paths';
import { reasonixSessionOptions } from './support/reasonix';
import { useSharedUiSession, type UiSessionOptions } from './support/session';
import { chatShows, pressInEditor } from './support/chat';
import { normalise } from './support/text';
import type { Workbench } from './support/workbench';
import { waitFor } from '../support/wait';

/** VS Code's name for the showcase's count_words tool served by our MCP server (the model calls it so). */
const COUNT_WORDS = 'mcp_reasonix_ext__showcase__count_words';

/** A chat turn in agent mode with the Reasonix model, bound to a key (what a user's keybinding does). */
const turn = (key: string, query: string) => ({
  key,
  command: 'workbench.action.chat.open',
  args: { mode: 'agent', query, modelSelector: { vendor: 'reasonix' } },
});

describe('Agent mode: a Reasonix model, Reasonix tools and Reasonix interceptors in one VS Code agent turn', function () {
  this.timeout(240_000);
  const session = useSharedUiSession((): UiSessionOptions => {
    const base = reasonixSessionOptions();
    const env = base.env as (sandbox: string) => Record<string, string>;
    return {
      ...base,
      // A hooks directory of this sandbox, so parallel runs never meet each other's windows.
      env: (sandbox) => ({ ...env(sandbox), REASONIX_HOOKS_DIR: join(sandbox, 'hooks') }),
      settings: { 'chat.allowAnonymousAccess': true, 'chat.disableAIFeatures': false },
      keybindings: [
        turn('f9', `call ${COUNT_WORDS} {"text":"agents count reasonix words"}`),
        turn('shift+f9', `call ${COUNT_WORDS} {"text":"[showcase:block-tool] the secret plans"}`),
        { key: 'f8', command: 'workbench.action.chat.openModelPicker' },
      ],
    };
  });
  const shots = join(resultsDir, 'agent-mode');
  const shoot = async (wb: Workbench, name: string) => {
    mkdirSync(shots, { recursive: true });
    const file = join(shots, `${name}.png`);
    await wb.screenshot(file);
    if (process.env.UPDATE_SCREENSHOTS === '1') copyFileSync(file, join(repoRoot, 'docs', 'images', `${name}.png`));
  };
  /** The showcase panel's fields, read from the Surfaces webview. */
  const activity = async (wb: Workbench): Promise<string> => {
    const frame = await wb.webviewFrame("[data-key*='activity']");
    return normalise(await frame.locator('body').innerText());
  };

  /**
   * The showcase panel's count_words figures (0 while none yet): calls it ran, and tool.before
   * rulings it saw and blocked. Read before and after a turn, so each test proves its own turn
   * whatever ran before it (or alone, with --grep).
   */
  const countWords = async (wb: Workbench) => {
    const text = (await activity(wb)).replace(/\s+/g, ' ');
    const field = (key: string, next: string) => new RegExp(`${key} (.*?) ${next}`).exec(text)?.[1] ?? '';
    const calls = field('Tool calls', 'Tool rulings');
    const rulings = field('Tool rulings', 'Latest note');
    const num = (re: RegExp, s: string) => Number(re.exec(s)?.[1] ?? 0);
    return {
      calls: num(/(?:^|, )count_words ×(\d+)/, calls),
      seen: num(/ext__showcase__count_words ×(\d+)/, rulings),
      blocked: num(/ext__showcase__count_words ×\d+ \((\d+) blocked\)/, rulings),
    };
  };

  before(async function () {
    this.timeout(180_000);
    const wb = session().workbench;
    await wb.openViewContainer('Reasonix');
    await waitFor(async () => (await wb.viewRows(wb.view('Extensions'))).some((r) => /showcase.*running/i.test(r)), {
      timeoutMs: 90_000,
      what: 'showcase running',
    });
  });

  it('an agent turn: the Reasonix model calls a Reasonix tool through the MCP server, and the chat shows its result', async () => {
    const wb = session().workbench;
    await pressInEditor(wb, 'F9');
    await chatShows(
      wb,
      /Echo: tool result call_\d+: 4 words; the longest is "reasonix"/,
      'the echo model answering with the tool result',
    );
    // The showcase sidecar ran it (extension/tool/call) and says so in its panel.
    await waitFor(async () => /Tool calls\s*count_words ×1/.test(await activity(wb)), {
      timeoutMs: 30_000,
      what: 'the showcase panel counting the call',
    });
    // The window's MCP server served it; the agent's PreToolUse hook had ruled, so only tool.after ran there.
    const log = await wb.waitForOutput('Reasonix', 'MCP tool ext__showcase__count_words: result', 60_000);
    assert.match(
      log.replace(/\s+/g, ' '),
      /MCP tool ext__showcase__count_words: result in \d+ ms \(tool\.after only: PreToolUse had ruled\)/,
    );
    await wb.openViewContainer('Reasonix');
    await shoot(wb, 'agent-tool-call');
  });

  it("a tool the showcase blocks: VS Code refuses it at PreToolUse and the chat shows the extension's reason", async () => {
    const wb = session().workbench;
    const was = await countWords(wb);
    await pressInEditor(wb, 'Shift+F9');
    await chatShows(
      wb,
      /Tool execution denied: Reasonix extension "showcase" blocked this: showcase blocked ext__showcase__count_words: its arguments are marked \[showcase:block-tool\]/,
      'the refusal in the chat',
    );
    await wb.waitForOutput('Reasonix', `agent hook PreToolUse ${COUNT_WORDS}: deny by showcase`, 60_000);
    // Exactly once: this call was ruled on once at tool.before and blocked there, so it never ran.
    const want = { calls: was.calls, seen: was.seen + 1, blocked: was.blocked + 1 };
    await waitFor(async () => JSON.stringify(await countWords(wb)) === JSON.stringify(want), {
      timeoutMs: 30_000,
      what: `the showcase panel: count_words ${JSON.stringify(want)} (was ${JSON.stringify(was)})`,
    });
    await wb.openViewContainer('Reasonix');
    await shoot(wb, 'agent-tool-blocked');
  });

  it('the model picker lists the Reasonix model', async () => {
    const wb = session().workbench;
    await wb.page.locator('.part.auxiliarybar .interactive-input-editor').first().click();
    await wb.page.keyboard.press('F8');
    const picker = wb.page.locator('.action-widget').first();
    await picker.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(normalise(await picker.innerText()), /Showcase Echo\s*Reasonix · showcase/);
    await shoot(wb, 'agent-model-picker');
    await wb.page.keyboard.press('Escape');
  });

  it('MCP: List Servers shows the Reasonix server Running', async () => {
    const wb = session().workbench;
    await wb.runCommand('MCP: List Servers');
    const row = wb.page
      .locator('.quick-input-widget .monaco-list-row', { hasText: 'Reasonix extension tools ·' })
      .first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(normalise(await row.innerText()), /Reasonix extension tools · \S+\s*Running/);
    await shoot(wb, 'agent-mcp-servers');
    await wb.dismissQuickInput();
  });
});
