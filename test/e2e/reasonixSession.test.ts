// A Reasonix session in VS Code (issue 44) as a user meets it: the packaged .vsix in code-server with
// the demo's samples (showcase and hello for VS Code, the companion, which the real Reasonix 1.38.11
// runs too) and the real Reasonix (reasonix.path, the pinned devDependency) in the sandbox's HOME and
// REASONIX_HOME, its turns answered offline by the companion's echo model (reasonix.sessions.model).
//
//   1. Open Reasonix Session from the Extensions view's "…" menu: the companion's cards in the
//      Surfaces view under "<folder> · Reasonix session", the session in the Extensions view;
//   2. the card's "Pick a color…" button runs the action in Reasonix; its choice prompt is a
//      QuickPick; the card comes back from Reasonix with the color;
//   3. /companion:ping from Run Extension Action…;
//   4. Reload Reasonix Session Extensions (the companion restarts inside Reasonix);
//   5. "@reasonix …" typed in VS Code's chat, answered by the companion's model;
//   6. Reasonix killed mid-turn: an error naming Reasonix, the extensions VS Code hosts untouched.
// Screenshots go to test-results/reasonix-session/.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import { resultsDir } from './support/paths';
import { reasonixSessionOptions, SAMPLE_PLUGINS } from './support/reasonix';
import { useSharedUiSession, type UiSessionOptions } from './support/session';
import { cardField, textOf, waitForText } from './support/surfaces';
import { chatShows, chatText } from './support/chat';
import type { Workbench } from './support/workbench';
import { waitFor } from '../support/wait';
import { realReasonixBinary } from '../support/reasonix';

const MODEL = 'plugin/companion/echo/echo-1';
const GROUP = 'workspace · Reasonix session';

/** The `reasonix acp` process of this test's window: the one whose cwd is the workspace (never another run's). */
function reasonixAcpPid(workspace: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (!cmd[0]?.endsWith('reasonix') || cmd[1] !== 'acp') continue;
      if (readlinkSync(`/proc/${entry}/cwd`) === workspace) return Number(entry);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return undefined;
}

describe('A Reasonix session in VS Code (UI, the real Reasonix)', function () {
  this.timeout(180_000);
  const session = useSharedUiSession((): UiSessionOptions => ({
    ...reasonixSessionOptions({ plugins: [...SAMPLE_PLUGINS, 'companion'] }),
    machineSettings: { 'reasonix.path': realReasonixBinary(), 'reasonix.sessions.model': MODEL },
    settings: { 'chat.allowAnonymousAccess': true, 'chat.disableAIFeatures': false },
    // Opens the chat view in Ask mode (where participants answer); the test then types into it.
    keybindings: [{ key: 'f9', command: 'workbench.action.chat.open', args: { mode: 'ask' } }],
  }));
  const shots = join(resultsDir, 'reasonix-session');
  const shoot = async (wb: Workbench, name: string) => {
    mkdirSync(shots, { recursive: true });
    await wb.page.mouse.move(900, 700); // no hover, no tooltip
    await wb.screenshot(join(shots, `${name}.png`));
  };
  const extensionRows = async (wb: Workbench) => {
    await wb.openViewContainer('Reasonix');
    return wb.viewRows(wb.view('Extensions'));
  };
  const rowMatching = (wb: Workbench, wanted: RegExp, what: string, timeoutMs = 60_000) => {
    let rows: string[] = [];
    return waitFor(async () => (rows = await extensionRows(wb)).find((r) => wanted.test(r)), {
      timeoutMs,
      what,
    }).catch((e: Error) => {
      throw new Error(`${e.message}; rows: ${rows.join(' | ')}`);
    });
  };
  /** The Surfaces webview's group of the session (`section.folder` named "<folder> · Reasonix session"). */
  const sessionGroup = async (wb: Workbench, name = GROUP): Promise<{ frame: Frame; group: Locator }> => {
    await wb.openViewContainer('Reasonix');
    const frame = await wb.webviewFrame(`.folder-name:text-is("${name}")`, 60_000);
    const group = frame.locator('section.folder').filter({ has: frame.locator('.folder-name', { hasText: name }) });
    return { frame, group };
  };
  const companionCard = (frame: Frame, group: Locator) =>
    group
      .locator('article.surface.card')
      .filter({ has: frame.locator('h3.surface-title', { hasText: /^\s*Companion\s*$/ }) });
  /** Types a message into the chat view's input and sends it, as a user does. */
  const send = async (wb: Workbench, text: string) => {
    await wb.page.mouse.click(700, 400);
    await wb.page.keyboard.press('F9');
    const input = wb.page.locator('.part.auxiliarybar .interactive-input-editor').first();
    await input.waitFor({ state: 'visible', timeout: 30_000 });
    await input.click();
    // @reasonix is sticky: after a turn the input already holds it.
    await wb.page.keyboard.press('ControlOrMeta+A');
    await wb.page.keyboard.press('Backspace');
    // The participant typed key by key (its suggestion accepted with the space), the rest pasted in one go.
    const [mention, ...rest] = text.split(' ');
    await wb.page.keyboard.type(`${mention} `, { delay: 20 });
    await wb.page.keyboard.insertText(rest.join(' '));
    await wb.page.keyboard.press('Enter');
  };

  before(async function () {
    this.timeout(120_000);
    const wb = session().workbench;
    await rowMatching(wb, /companion.*running/i, 'VS Code hosting the companion');
  });

  it('opens from the Extensions view: the companion’s cards under “workspace · Reasonix session”', async () => {
    const wb = session().workbench;
    await wb.openViewContainer('Reasonix');
    const view = wb.view('Extensions');
    // The "…" menu can be drawn again under the pointer (the view's title actions change as the
    // extensions start): a click on a detached item is retried with the menu opened again.
    await waitFor(
      async () => {
        await view.hover();
        await view.locator('.action-label[aria-label^="More Actions"]').first().click();
        const item = wb.page.locator('.monaco-menu .action-label', { hasText: 'Open Reasonix Session' }).first();
        try {
          await item.click({ timeout: 5_000 });
          return true;
        } catch {
          await wb.page.keyboard.press('Escape');
          return undefined;
        }
      },
      { timeoutMs: 60_000, what: 'Open Reasonix Session chosen from the Extensions view menu' },
    );

    const { frame, group } = await sessionGroup(wb);
    const companion = companionCard(frame, group);
    await waitForText(companion, 'runs inside your Reasonix session, or in VS Code', 60_000);
    assert.equal(await cardField(companion, 'Workspace'), 'workspace');
    // One set of cards: VS Code's copy of the companion stops, and its cards leave with it.
    const companions = frame
      .locator('article.surface.card')
      .filter({ has: frame.locator('h3.surface-title', { hasText: /^\s*Companion\s*$/ }) });
    await waitFor(async () => (await companions.count()) === 1 || undefined, {
      timeoutMs: 30_000,
      what: 'one Companion card (the session’s)',
    });
    // The status with progress settles; the notification is in the group too.
    await waitForText(group, /Companion is ready\s*2 actions, model plugin\/companion\/echo\/echo-1/, 30_000);
    // The Extensions view: the session, its extension running in Reasonix, VS Code's copy stopped.
    await rowMatching(
      wb,
      /workspace · Reasonix session.*VS Code's copies stopped: companion/,
      'the session row',
      30_000,
    );
    await rowMatching(wb, /^companion.*running in Reasonix/, 'the companion in the session', 30_000);
    // The group's heading at the top of the view, so the shot shows whose cards these are.
    await group
      .locator('.folder-header')
      .first()
      .evaluate((e) => (e as { scrollIntoView(o: object): void }).scrollIntoView({ block: 'start' }));
    await shoot(wb, 'session-opened');
  });

  it('a card button runs its action in Reasonix; its prompt is a QuickPick; the card comes back changed', async () => {
    const wb = session().workbench;
    const { frame, group } = await sessionGroup(wb);
    const companion = companionCard(frame, group);
    const runs = Number(await cardField(companion, 'Actions run'));
    await companion.locator('vscode-button', { hasText: 'Pick a color…' }).click();
    let items: string[] = [];
    await waitFor(async () => (items = await wb.quickPickItems()).includes('Violet') || undefined, {
      timeoutMs: 60_000,
      what: 'the color QuickPick',
    });
    assert.deepEqual(
      items.filter((i) => ['Teal', 'Amber', 'Violet', 'Slate'].includes(i)),
      ['Teal', 'Amber', 'Violet', 'Slate'],
    );
    await shoot(wb, 'prompt-quickpick');
    await wb.pickQuickItem('Violet');
    await waitFor(
      async () =>
        ((await cardField(companion, 'Color')) === 'Violet' &&
          Number(await cardField(companion, 'Actions run')) === runs + 1) ||
        undefined,
      { timeoutMs: 60_000, what: 'the Companion card from Reasonix showing Violet' },
    );
    await shoot(wb, 'card-changed');
  });

  it('runs /companion:ping from Run Extension Action…, the session named', async () => {
    const wb = session().workbench;
    const { frame, group } = await sessionGroup(wb);
    const companion = companionCard(frame, group);
    const pings = Number(await cardField(companion, 'Pings'));
    await wb.runCommand('Reasonix: Run Extension Action…');
    // VS Code's stopped copy lists its action too ("companion is stopped"): the session's entry names the session.
    const row = wb.page
      .locator('.quick-input-widget .monaco-list-row', { hasText: '/companion:ping' })
      .filter({ hasText: GROUP })
      .first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    await row.click();
    await waitFor(async () => Number(await cardField(companion, 'Pings')) === pings + 1 || undefined, {
      timeoutMs: 60_000,
      what: 'Pings counted on the card',
    });
  });

  it('Reload Reasonix Session Extensions restarts the companion inside Reasonix', async () => {
    const wb = session().workbench;
    await wb.runCommand('Reasonix: Reload Reasonix Session Extensions');
    await wb.waitForNotification(`Reasonix reloaded the extensions of ${GROUP}`, 60_000);
    // A new process: its card starts again from nothing.
    const { frame, group } = await sessionGroup(wb);
    const companion = companionCard(frame, group);
    await waitFor(async () => (await cardField(companion, 'Actions run')) === '0' || undefined, {
      timeoutMs: 60_000,
      what: 'the reloaded companion’s card',
    });
    assert.equal(await cardField(companion, 'Color'), 'Teal');
    await wb.clearNotifications();
  });

  it('“@reasonix …” typed in VS Code’s chat is answered by the extension’s model', async () => {
    const wb = session().workbench;
    await send(wb, '@reasonix hello from VS Code');
    await chatShows(wb, /Echo: hello from VS Code/, 'the echo model’s answer in the chat');
    // A chat conversation has an ACP session of its own, with its own extensions' cards, named after
    // the conversation's first words: the companion there counts the answer.
    const { frame, group } = await sessionGroup(wb, 'workspace · Reasonix chat: hello from VS Code');
    await waitFor(async () => Number(await cardField(companionCard(frame, group), 'Model answers')) >= 1 || undefined, {
      timeoutMs: 30_000,
      what: 'the answer counted on the card',
    });
    await shoot(wb, 'chat-answer');
  });

  it('Reasonix killed mid-turn: an error naming Reasonix; the extensions VS Code hosts are untouched', async () => {
    const s = session();
    const wb = s.workbench;
    const showcaseBefore = await rowMatching(wb, /^showcase.*running/, 'showcase running');
    // 400 words at 60 ms a chunk: the answer streams for about 24 s.
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    await send(wb, `@reasonix ${words}`);
    await chatShows(wb, /Echo: word0 word1/, 'the turn streaming');
    const pid = reasonixAcpPid(s.workspace);
    assert.ok(pid, 'the reasonix acp process of this window');
    process.kill(pid, 'SIGKILL');

    await chatShows(
      wb,
      /Reasonix could not answer: Reasonix was stopped by SIGKILL/,
      'the turn failing with Reasonix named',
    );
    assert.doesNotMatch(await chatText(wb), /Echo: [^\n]*word399/, 'the turn stopped mid-way');
    await wb.page.keyboard.press('Escape'); // the toasts would cover the chat's answer
    await shoot(wb, 'reasonix-killed-chat');
    const note = await wb.waitForNotification('Reasonix stopped', 30_000);
    // What happened and what to do, without Reasonix's start-up warnings (the log has them).
    assert.match(
      await textOf(note.locator('.notification-list-item-message')),
      /^Reasonix stopped: Reasonix was stopped by SIGKILL\. Its sessions are closed; open them again with "Open Reasonix Session"/,
    );
    await shoot(wb, 'reasonix-killed');
    // VS Code's hosting: the showcase still runs with the same process, its cards still there.
    const pidOf = (row: string) => /pid (\d+)/.exec(row)?.[1];
    const showcaseAfter = await rowMatching(wb, /^showcase.*running/, 'showcase still running');
    assert.ok(pidOf(showcaseBefore), showcaseBefore);
    assert.equal(pidOf(showcaseAfter), pidOf(showcaseBefore), 'the same showcase process');
    const frame = await wb.webviewFrame('article.surface.card');
    const showcase = frame
      .locator('article.surface.card')
      .filter({ has: frame.locator('h3.surface-title', { hasText: /^\s*Showcase\s*$/ }) });
    assert.match(await textOf(showcase.first()), /Actions run/);
    // VS Code's copy of the companion, stopped for the session, runs again.
    await rowMatching(wb, /^companion(?!.*Reasonix).*running/, 'VS Code’s companion running again', 60_000);
    await wb.clearNotifications();
  });
});
