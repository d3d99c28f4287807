// One UI test's world: a fresh sandbox (profile, user data, extensions, HOME), code-server with
// the given .vsix files installed and env (REASONIX_HOME), Chromium on the workspace, and the
// Workbench driver. `useUiSession` wires it into mocha: fresh per test, artifacts always saved,
// everything killed afterwards, failing or not.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { waitForNoDescendants } from '../../support/orphans';
import { saveArtifacts } from './artifacts';
import { launchBrowser } from './browser';
import { installVsix, startCodeServer, type CodeServer, type Keybinding } from './codeServer';
import { readProvisioned } from './paths';
import { removeOnExit } from './processes';
import { Workbench, defaultTimeouts, type WorkbenchTimeouts } from './workbench';

export interface UiSessionOptions {
  /** Folder or .code-workspace file to open. */
  workspace: string | ((sandbox: string) => string);
  /** Packaged extensions to install before start. */
  vsix?: string[];
  /** Environment of code-server and so of the extension host. */
  env?: Record<string, string> | ((sandbox: string) => Record<string, string>);
  timeouts?: WorkbenchTimeouts;
  /** User settings of the test profile, on top of the quiet defaults. */
  settings?: Record<string, unknown>;
  /** Machine-scoped settings (the server's Machine settings; see CodeServerOptions). */
  machineSettings?: Record<string, unknown>;
  /** VS Code's display language (code-server `--locale`); default English. */
  locale?: string;
  /** Keybindings of the test profile (keybindings.json). */
  keybindings?: Keybinding[];
  /** Artifact folder name if start-up fails (useUiSession passes the test's title). */
  name?: string;
}

export class UiSession {
  private constructor(
    readonly sandbox: string,
    readonly server: CodeServer,
    readonly context: BrowserContext,
    readonly page: Page,
    readonly workbench: Workbench,
    readonly workspace: string,
    private readonly removeSandbox: () => void,
  ) {}

  static async start(opts: UiSessionOptions): Promise<UiSession> {
    const provisioned = readProvisioned();
    const sandbox = mkdtempSync(join(tmpdir(), 'reasonix-ui-'));
    const removeSandbox = removeOnExit(sandbox);
    let server: CodeServer | undefined;
    let context: BrowserContext | undefined;
    try {
      const extensionsDir = join(sandbox, 'extensions');
      for (const vsix of opts.vsix ?? []) await installVsix(provisioned, sandbox, vsix, extensionsDir);
      const env = typeof opts.env === 'function' ? opts.env(sandbox) : (opts.env ?? {});
      const workspace = typeof opts.workspace === 'function' ? opts.workspace(sandbox) : opts.workspace;
      server = await startCodeServer({
        provisioned,
        sandbox,
        env,
        extensionsDir,
        settings: opts.settings,
        machineSettings: opts.machineSettings,
        locale: opts.locale,
        keybindings: opts.keybindings,
      });
      context = await launchBrowser(provisioned.chromium, sandbox);
      const page = context.pages()[0] ?? (await context.newPage());
      const workbench = new Workbench(page, opts.timeouts ?? defaultTimeouts);
      await workbench.open(server.workbenchUrl(workspace));
      return new UiSession(sandbox, server, context, page, workbench, workspace, removeSandbox);
    } catch (e) {
      await saveArtifacts(`${opts.name ?? 'ui-session'} (start-up)`, server, context?.pages()[0], true).catch(
        () => undefined,
      );
      await context?.close().catch(() => undefined);
      await server?.stop();
      removeSandbox();
      throw e;
    }
  }

  /** Saves artifacts under test-results/<name>, then stops the browser and code-server. */
  async dispose(name: string, failed: boolean): Promise<void> {
    try {
      await saveArtifacts(name, this.server, this.page, failed);
    } finally {
      await this.context.close().catch(() => undefined);
      await this.server.stop();
      this.removeSandbox();
    }
  }
}

/**
 * Mocha wiring: a fresh session before each test, artifacts + teardown after it. Returns a
 * getter, since the session exists only while a test runs. Call inside `describe`.
 */
export function useUiSession(opts: UiSessionOptions | (() => UiSessionOptions)): () => UiSession {
  let current: UiSession | undefined;
  beforeEach(async function () {
    this.timeout(180_000);
    current = await UiSession.start({
      name: this.currentTest?.fullTitle(),
      ...(typeof opts === 'function' ? opts() : opts),
    });
  });
  afterEach(async function () {
    this.timeout(60_000);
    const s = current;
    current = undefined;
    if (!s) return;
    await s.dispose(this.currentTest?.fullTitle() ?? 'ui-test', this.currentTest?.state === 'failed');
  });
  return () => {
    if (!current) throw new Error('no UI session: useUiSession() getters work only inside a test');
    return current;
  };
}

let sharedOpen = 0;
/** True while a describe-wide session (useSharedUiSession) is up: its processes are meant to outlive a test. */
export function sharedSessionOpen(): boolean {
  return sharedOpen > 0;
}

/**
 * One session for a whole describe: its tests run in order on the same workbench (a UI session
 * costs 30–40 s, so a user journey shares one). Artifacts are saved after every test (a failing
 * test gets its failure screenshot and logs); teardown and the leftover-process check run once,
 * after the last test.
 */
export function useSharedUiSession(opts: UiSessionOptions | (() => UiSessionOptions)): () => UiSession {
  let current: UiSession | undefined;
  let anyFailed = false;
  let title = 'ui-suite';
  before(async function () {
    this.timeout(180_000);
    title = this.test?.parent?.fullTitle() ?? title;
    sharedOpen++;
    try {
      current = await UiSession.start({ name: title, ...(typeof opts === 'function' ? opts() : opts) });
    } catch (e) {
      sharedOpen--;
      throw e;
    }
  });
  afterEach(async function () {
    this.timeout(30_000);
    const failed = this.currentTest?.state === 'failed';
    anyFailed ||= failed;
    if (current && failed)
      await saveArtifacts(this.currentTest?.fullTitle() ?? title, current.server, current.page, true).catch(
        () => undefined,
      );
  });
  after(async function () {
    this.timeout(60_000);
    const s = current;
    current = undefined;
    if (!s) return;
    try {
      await s.dispose(title, anyFailed);
    } finally {
      sharedOpen--;
    }
    const left = await waitForNoDescendants(10_000);
    for (const p of left) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (left.length)
      throw new Error(
        `"${title}" left ${left.length} process(es) running: ${left.map((p) => `${p.pid} ${p.cmd}`).join('; ')}`,
      );
  });
  return () => {
    if (!current) throw new Error('no UI session: the shared session failed to start');
    return current;
  };
}
