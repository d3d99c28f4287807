// Runs in-host mocha suites inside code-server's real extension host: the smoke-test driver
// payload loads the extension from source (extensionDevelopmentPath) and calls the test
// module's run() (extensionTestsPath); the page reports the result via
// window.codeAutomationExit(code). Mocha prints into the browser console, which we forward.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { saveArtifacts } from './artifacts';
import { consoleLine } from './console';
import { launchBrowser } from './browser';
import { startCodeServer, type CodeServer } from './codeServer';
import { readProvisioned } from './paths';
import { removeOnExit } from './processes';

export interface InHostRunOptions {
  extensionDevelopmentPath: string;
  /** Compiled test entry exporting run(): Promise<void>. */
  extensionTestsPath: string;
  /** Folder or multi-root .code-workspace file. */
  workspace: string;
  env?: Record<string, string>;
  /** Whole run, from start to codeAutomationExit. */
  timeoutMs?: number;
  /** Where each console line goes (default stdout). */
  write?: (line: string) => void;
  /** Artifact folder name under test-results/. */
  name?: string;
  /** Print the workbench's start-up noise too. */
  verbose?: boolean;
  /** VS Code's display language (code-server `--locale`); default English. */
  locale?: string;
  /** Which provisioned code-server runs the tests (e.g. 4.96.4, the oldest supported); default the newest. */
  codeServerVersion?: string;
}

/** Returns the exit code the workbench reported (0 = every test passed). */
export async function runInHostTests(opts: InHostRunOptions): Promise<number> {
  const write = opts.write ?? ((l: string) => process.stdout.write(`${l}\n`));
  const provisioned = readProvisioned(opts.codeServerVersion);
  const sandbox = mkdtempSync(join(tmpdir(), 'reasonix-inhost-'));
  const removeSandbox = removeOnExit(sandbox);
  let server: CodeServer | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let code = 1;
  try {
    server = await startCodeServer({
      provisioned,
      sandbox,
      // Where suites read the Reasonix log (test/vscode/extensionLog.ts): this run's user data.
      env: { REASONIX_TEST_LOGS: join(sandbox, 'user-data', 'logs'), ...opts.env },
      smokeTestDriver: true,
      locale: opts.locale,
    });
    context = await launchBrowser(provisioned.chromium, sandbox);
    page = context.pages()[0] ?? (await context.newPage());
    let report: (code: number) => void = () => undefined;
    const exited = new Promise<number>((resolve) => (report = resolve));
    await page.exposeFunction('codeAutomationExit', (c: number) => report(Number(c)));
    // Lines are formatted asynchronously; chain them so they print in order.
    let printing = Promise.resolve();
    page.on('console', (msg) => {
      const line = consoleLine(msg, opts.verbose === true);
      printing = printing.then(async () => {
        const l = await line;
        if (l !== undefined) write(l);
      });
    });
    page.on('pageerror', (e) => write(`[page error] ${e.message}`));
    const timeoutMs = opts.timeoutMs ?? 300_000;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<number>((resolve) => {
      timer = setTimeout(() => {
        write(`in-host tests did not finish within ${timeoutMs} ms`);
        resolve(124);
      }, timeoutMs);
    });
    await page.goto(
      server.workbenchUrl(opts.workspace, [
        ['extensionDevelopmentPath', server.remoteUri(opts.extensionDevelopmentPath)],
        ['extensionTestsPath', server.remoteUri(opts.extensionTestsPath)],
      ]),
      { waitUntil: 'domcontentloaded', timeout: timeoutMs },
    );
    code = await Promise.race([exited, timedOut]);
    clearTimeout(timer);
    await printing;
    return code;
  } finally {
    await saveArtifacts(opts.name ?? 'inhost', server, page, code !== 0).catch(() => undefined);
    await context?.close().catch(() => undefined);
    await server?.stop();
    removeSandbox();
  }
}
