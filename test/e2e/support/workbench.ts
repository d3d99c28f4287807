// Drives the VS Code workbench in the page the way a person would: Command Palette, QuickPicks,
// InputBoxes, the activity bar, views, webviews, notifications and the Output panel. Every step
// waits on a visible condition, never on a fixed delay.
import type { Frame, Locator, Page } from 'playwright-core';
import { normalise } from './text';
import { waitFor } from '../../support/wait';

export interface WorkbenchTimeouts {
  /** Workbench shell loaded (first load compiles a lot of JS on 2 cores). */
  readyMs: number;
  /** One UI step: a palette row appears, a view opens, a frame shows up. */
  stepMs: number;
}

export const defaultTimeouts: WorkbenchTimeouts = { readyMs: 90_000, stepMs: 30_000 };

const QUICK_INPUT = '.quick-input-widget';

export class Workbench {
  constructor(
    readonly page: Page,
    readonly timeouts: WorkbenchTimeouts = defaultTimeouts,
  ) {}

  async open(url: string): Promise<void> {
    await this.page.goto(url, { waitUntil: 'domcontentloaded', timeout: this.timeouts.readyMs });
    await this.page
      .locator('.monaco-workbench .part.statusbar')
      .waitFor({ state: 'visible', timeout: this.timeouts.readyMs });
    // The activity bar is rendered once the extension host has registered view containers.
    await this.page
      .locator('.monaco-workbench .part.activitybar')
      .waitFor({ state: 'visible', timeout: this.timeouts.readyMs });
  }

  // ---- quick input (palette, QuickPick, InputBox) ----------------------------------------

  get quickInput(): Locator {
    return this.page.locator(QUICK_INPUT);
  }

  private get quickInputBox(): Locator {
    return this.page.locator(`${QUICK_INPUT} .quick-input-box input`);
  }

  private rows(): Locator {
    return this.page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`);
  }

  /** Opens the Command Palette with F1 and waits for its input. */
  async openCommandPalette(): Promise<void> {
    await this.page
      .locator('.monaco-workbench')
      .focus()
      .catch(() => undefined);
    await this.page.keyboard.press('F1');
    await this.quickInputBox.waitFor({ state: 'visible', timeout: this.timeouts.stepMs });
  }

  /**
   * Runs a command by its palette label ("Reasonix: Restart Extensions"). Retypes while the
   * command list is still loading (contributions appear once the extension host has scanned).
   */
  async runCommand(label: string): Promise<void> {
    await this.openCommandPalette();
    await this.page.keyboard.type(label);
    const row = await waitFor(
      async () => {
        const match = await this.findRow(label);
        if (match) return match;
        // Re-typing forces the palette to refresh commands that registered meanwhile.
        await this.quickInputBox.fill(`>${label} `);
        await this.quickInputBox.fill(`>${label}`);
        return undefined;
      },
      { timeoutMs: this.timeouts.stepMs, what: `command "${label}" in the Command Palette`, intervalMs: 250 },
    );
    await row.click();
    await this.waitQuickInputClosedOrChanged(label);
  }

  /**
   * Runs a command with the keyboard alone: F1, its label typed, the arrow keys onto the row
   * whose label ends with `label` (so "Focus on Surfaces View" finds "Reasonix: Focus on …"),
   * Enter. No mouse event is sent.
   */
  async runCommandByKeyboard(label: string): Promise<void> {
    await this.openCommandPalette();
    await this.page.keyboard.type(label);
    const focusedLabel = async () =>
      normalise(
        (await this.page
          .locator(`${QUICK_INPUT} .monaco-list-row.focused .label-name`)
          .first()
          .textContent()
          .catch(() => '')) ?? '',
      ).trim();
    await waitFor(
      async () => {
        if ((await focusedLabel()).endsWith(label)) return true;
        const n = await this.rows().count();
        if (n === 0) return false;
        await this.page.keyboard.press('ArrowDown');
        return false;
      },
      { timeoutMs: this.timeouts.stepMs, what: `command "${label}" focused in the Command Palette`, intervalMs: 150 },
    );
    await this.page.keyboard.press('Enter');
    await this.waitQuickInputClosedOrChanged(label);
  }

  /**
   * In an open QuickPick: enters `label` as one input event (in the colour theme picker every
   * keystroke would preview a theme), arrows onto the row with exactly that label, Enter.
   */
  async pickQuickItemByKeyboard(label: string): Promise<void> {
    await this.quickInputBox.waitFor({ state: 'visible', timeout: this.timeouts.stepMs });
    await this.quickInputBox.fill(label);
    const focusedLabel = async () =>
      normalise(
        (await this.page
          .locator(`${QUICK_INPUT} .monaco-list-row.focused .label-name`)
          .first()
          .textContent()
          .catch(() => '')) ?? '',
      ).trim();
    await waitFor(
      async () => {
        if ((await focusedLabel()) === label) return true;
        if ((await this.rows().count()) > 0) await this.page.keyboard.press('ArrowDown');
        return false;
      },
      { timeoutMs: this.timeouts.stepMs, what: `QuickPick item "${label}" focused`, intervalMs: 150 },
    );
    await this.page.keyboard.press('Enter');
    await this.quickInput.waitFor({ state: 'hidden', timeout: this.timeouts.stepMs });
  }

  private async waitQuickInputClosedOrChanged(label: string): Promise<void> {
    // After choosing, the palette closes or another QuickPick/InputBox replaces it.
    await waitFor(
      async () => !(await this.quickInput.isVisible()) || (await this.quickInputBox.inputValue()) !== `>${label}`,
      {
        timeoutMs: this.timeouts.stepMs,
        what: `the palette to accept "${label}"`,
      },
    );
  }

  private async findRow(label: string): Promise<Locator | undefined> {
    const rows = this.rows();
    const n = await rows.count();
    for (let i = 0; i < n; i++) {
      const row = rows.nth(i);
      const name = normalise(
        (await row
          .locator('.label-name')
          .first()
          .textContent()
          .catch(() => '')) ?? '',
      ).trim();
      if (name === label) return row;
    }
    return undefined;
  }

  /** Labels of the items the open QuickPick shows. */
  async quickPickItems(): Promise<string[]> {
    await this.rows().first().waitFor({ state: 'visible', timeout: this.timeouts.stepMs });
    const names = await this.rows().locator('.label-name').allTextContents();
    return names.map((t) => normalise(t).trim());
  }

  /** Chooses the QuickPick item with this exact label. */
  async pickQuickItem(label: string): Promise<void> {
    const row = await waitFor(() => this.findRow(label), {
      timeoutMs: this.timeouts.stepMs,
      what: `QuickPick item "${label}"`,
    });
    await row.click();
  }

  /** The open InputBox's (or QuickPick's) prompt/validation message and title. */
  async quickInputMessage(): Promise<string> {
    return normalise((await this.page.locator(`${QUICK_INPUT} .quick-input-message`).textContent()) ?? '').trim();
  }

  async quickInputTitle(): Promise<string> {
    return normalise((await this.page.locator(`${QUICK_INPUT} .quick-input-title`).textContent()) ?? '').trim();
  }

  /** Types into the open InputBox and, unless told otherwise, accepts with Enter. */
  async fillInputBox(text: string, opts: { submit?: boolean } = {}): Promise<void> {
    await this.quickInputBox.waitFor({ state: 'visible', timeout: this.timeouts.stepMs });
    await this.quickInputBox.fill(text);
    if (opts.submit !== false) await this.quickInputBox.press('Enter');
  }

  async dismissQuickInput(): Promise<void> {
    if (await this.quickInput.isVisible()) await this.page.keyboard.press('Escape');
    await this.quickInput.waitFor({ state: 'hidden', timeout: this.timeouts.stepMs });
  }

  // ---- window, status bar, dialogs ---------------------------------------------------------

  /**
   * "Developer: Reload Window": the page reloads, a new extension host starts. Waits for the new
   * workbench shell (the old DOM, frames included, is gone afterwards).
   */
  async reloadWindow(): Promise<void> {
    const loaded = this.page.waitForEvent('load', { timeout: this.timeouts.readyMs });
    await this.openCommandPalette();
    await this.quickInputBox.fill('>Developer: Reload Window');
    const row = await waitFor(() => this.findRow('Developer: Reload Window'), {
      timeoutMs: this.timeouts.stepMs,
      what: 'command "Developer: Reload Window"',
    });
    await row.click();
    await loaded;
    await this.page
      .locator('.monaco-workbench .part.statusbar')
      .waitFor({ state: 'visible', timeout: this.timeouts.readyMs });
    await this.page
      .locator('.monaco-workbench .part.activitybar')
      .waitFor({ state: 'visible', timeout: this.timeouts.readyMs });
  }

  /** A status bar entry by (part of) its text, e.g. "Reasonix". */
  statusBarItem(text: string): Locator {
    return this.page.locator('.part.statusbar .statusbar-item').filter({ hasText: text });
  }

  /** The modal dialog (showMessage with {modal: true}) once it is up. */
  async modalDialog(): Promise<Locator> {
    const box = this.page.locator('.monaco-dialog-box');
    await box.waitFor({ state: 'visible', timeout: this.timeouts.stepMs });
    return box;
  }

  /** Clicks the modal dialog's button labelled `label` and waits for the dialog to close. */
  async clickDialogButton(label: string): Promise<void> {
    const box = await this.modalDialog();
    await box
      .locator('.dialog-buttons .monaco-button', { hasText: new RegExp(`^\\s*${label}\\s*$`) })
      .first()
      .click();
    await box.waitFor({ state: 'hidden', timeout: this.timeouts.stepMs });
  }

  // ---- activity bar and views ---------------------------------------------------------------

  /** The activity-bar icon whose title starts with `title` (e.g. "Reasonix"). */
  activityBarItem(title: string): Locator {
    return this.page.locator(`.part.activitybar .action-item .action-label[aria-label^="${title}"]`);
  }

  /** Opens a view container from the activity bar and waits for the side bar to show it. */
  async openViewContainer(title: string): Promise<Locator> {
    const item = this.activityBarItem(title);
    await item.waitFor({ state: 'visible', timeout: this.timeouts.stepMs });
    const sidebar = this.page.locator('.part.sidebar');
    const titleLabel = sidebar.locator('.composite.title .title-label');
    const showing = async () =>
      (await sidebar.isVisible()) &&
      normalise((await titleLabel.textContent()) ?? '')
        .toLowerCase()
        .includes(title.toLowerCase());
    // Clicking the item of the container already shown hides the side bar, and the title can lag
    // behind a switch: click only when it is not showing, and again if a click toggled it away.
    let lastClick = 0;
    await waitFor(
      async () => {
        if (await showing()) return true;
        if (Date.now() - lastClick > 1500) {
          lastClick = Date.now();
          await item.click();
        }
        return false;
      },
      { timeoutMs: this.timeouts.stepMs, what: `side bar showing "${title}"` },
    );
    return sidebar;
  }

  /** A view (pane) in the side bar by its name; works when its header is merged into the title. */
  view(name: string): Locator {
    const sidebar = this.page.locator('.part.sidebar');
    return sidebar
      .locator('.split-view-view .pane')
      .filter({ has: this.page.locator(`.pane-header[aria-label^="${name}"]`) });
  }

  /** Row texts of a tree/list view. */
  async viewRows(view: Locator): Promise<string[]> {
    return (await view.locator('.monaco-list-row').allTextContents()).map((t) => normalise(t).trim());
  }

  // ---- webviews -----------------------------------------------------------------------------

  /**
   * The frame holding a webview's content. Webviews live in `iframe.webview` > `#active-frame`
   * outside the side bar's DOM, so the only reliable way is by content: the first frame in
   * which `selector` matches.
   */
  async webviewFrame(selector: string, timeoutMs = this.timeouts.stepMs): Promise<Frame> {
    return waitFor(
      async () => {
        for (const frame of this.page.frames()) {
          if (frame === this.page.mainFrame()) continue;
          const n = await frame
            .locator(selector)
            .count()
            .catch(() => 0);
          if (n > 0) return frame;
        }
        return undefined;
      },
      { timeoutMs, what: `a webview frame containing ${selector}` },
    );
  }

  // ---- notifications -----------------------------------------------------------------------

  /**
   * Opens the notification center ("Notifications: Show Notifications"). Toasts are unreliable
   * on a fresh profile, the center lists every notification.
   */
  async showNotifications(): Promise<Locator> {
    const center = this.page.locator('.notifications-center');
    if (!(await center.isVisible())) await this.runCommand('Notifications: Show Notifications');
    await center.waitFor({ state: 'visible', timeout: this.timeouts.stepMs });
    return center;
  }

  async notifications(): Promise<string[]> {
    const center = await this.showNotifications();
    return (await center.locator('.notification-list-item-message').allTextContents()).map((t) => normalise(t).trim());
  }

  /** Waits for a notification whose message contains `text`; returns its list item. */
  async waitForNotification(text: string, timeoutMs = this.timeouts.stepMs): Promise<Locator> {
    const center = await this.showNotifications();
    const item = center.locator('.notification-list-item').filter({ hasText: text });
    await item.first().waitFor({ state: 'visible', timeout: timeoutMs });
    return item.first();
  }

  async clickNotificationButton(text: string, button: string): Promise<void> {
    const item = await this.waitForNotification(text);
    await item.locator('.monaco-button', { hasText: button }).first().click();
  }

  async clearNotifications(): Promise<void> {
    await this.runCommand('Notifications: Clear All Notifications');
  }

  // ---- output panel ------------------------------------------------------------------------

  /** Shows an Output channel by name (via "Output: Show Output Channels..."). */
  async showOutputChannel(name: string): Promise<void> {
    await this.runCommand('Output: Show Output Channels...');
    await this.pickQuickItem(name);
    await this.outputEditor().waitFor({ state: 'visible', timeout: this.timeouts.stepMs });
  }

  private outputEditor(): Locator {
    return this.page.locator('.part.panel .output-view .monaco-editor .view-lines').first();
  }

  /** The visible text of the Output panel (the editor virtualises: only on-screen lines). */
  async outputText(): Promise<string> {
    return normalise(await this.outputEditor().innerText());
  }

  /**
   * Shows the channel and waits until its text contains `text`. Whitespace runs compare as one
   * space: a long line wraps in a narrow panel.
   */
  async waitForOutput(name: string, text: string, timeoutMs = this.timeouts.stepMs): Promise<string> {
    await this.showOutputChannel(name);
    const flat = (t: string) => t.replace(/\s+/g, ' ');
    return waitFor(
      async () => {
        const t = await this.outputText();
        return flat(t).includes(flat(text)) ? t : undefined;
      },
      { timeoutMs, what: `"${text}" in Output channel "${name}"` },
    );
  }

  async screenshot(path: string): Promise<void> {
    await this.page.screenshot({ path, fullPage: true });
  }
}
