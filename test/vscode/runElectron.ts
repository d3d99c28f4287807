// Runs the same in-host suites under desktop VS Code via @vscode/test-electron, for machines
// that can download VS Code (`npm run test:electron`). Here, and in our CI, only code-server
// works (scripts/run-inhost-tests.mjs): the download fails fast and we say so.
import { runTests } from '@vscode/test-electron';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

async function main(): Promise<void> {
  const repoRoot = resolve(__dirname, '..', '..', '..');
  const args = process.argv.slice(2);
  const opt = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const extensionDevelopmentPath = resolve(opt('--extension') ?? repoRoot);
  const extensionTestsPath = resolve(opt('--tests') ?? join(__dirname, 'index.js'));
  const scratch = mkdtempSync(join(tmpdir(), 'reasonix-electron-'));
  const workspace = resolve(opt('--workspace') ?? scratch);
  // Where suites read the Reasonix log (extensionLog.ts): the user data's logs folder.
  const env: Record<string, string> = { REASONIX_TEST_LOGS: join(scratch, 'user-data', 'logs') };
  if (process.env.REASONIX_HOME) env.REASONIX_HOME = process.env.REASONIX_HOME;
  try {
    const code = await runTests({
      version: opt('--vscode-version') ?? 'stable',
      extensionDevelopmentPath,
      extensionTestsPath,
      extensionTestsEnv: env,
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--user-data-dir',
        join(scratch, 'user-data'),
      ],
    });
    process.exitCode = code;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  const msg = e instanceof Error ? e.message : String(e);
  console.error(`test:electron failed: ${msg}`);
  if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|getaddrinfo/.test(msg)) {
    console.error(
      'VS Code could not be downloaded (no internet here?); use `node scripts/run-inhost-tests.mjs` (code-server) instead.',
    );
  }
  process.exit(1);
});
