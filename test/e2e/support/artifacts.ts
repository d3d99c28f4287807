// What a run leaves in test-results/<name>/: the full code-server log, a screenshot, and on a
// failure the last 200 lines of the code-server and extension-host logs (also printed).
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import type { CodeServer } from './codeServer';
import { extensionHostLogs, tailLines } from './logs';
import { resultsDir, slug } from './paths';

export const TAIL_LINES = 200;

export async function saveArtifacts(
  name: string,
  server: CodeServer | undefined,
  page: Page | undefined,
  failed: boolean,
): Promise<string> {
  const dir = join(resultsDir, slug(name));
  mkdirSync(dir, { recursive: true });
  if (page && !page.isClosed()) {
    await page
      .screenshot({ path: join(dir, failed ? 'failure.png' : 'final.png'), fullPage: true, timeout: 10_000 })
      .catch((e: Error) => writeFileSync(join(dir, 'screenshot-error.txt'), e.message));
  }
  if (!server) return dir;
  if (existsSync(server.logFile)) copyFileSync(server.logFile, join(dir, 'code-server.log'));
  if (failed) {
    const report: string[] = [
      `--- last ${TAIL_LINES} lines of ${server.logFile}`,
      tailLines(server.logFile, TAIL_LINES),
    ];
    for (const log of extensionHostLogs(server.userDataDir)) {
      report.push(`--- last ${TAIL_LINES} lines of ${log}`, tailLines(log, TAIL_LINES));
      copyFileSync(log, join(dir, `exthost-${basename(log)}`));
    }
    const text = report.join('\n');
    writeFileSync(join(dir, 'failure-logs.txt'), text);
    process.stderr.write(`\n${text}\n--- artifacts in ${dir}\n`);
  }
  return dir;
}
