// The in-host test entry both launchers use (code-server's extensionTestsPath and
// @vscode/test-electron): VS Code calls run() inside the extension host, after loading the
// extension under test. Runs every *.test.js next to this file with mocha; rejects on failure,
// which makes the launcher exit 1. Mocha writes to console.log: code-server forwards it to the
// browser console (our runner prints it), test-electron to the terminal.
import Mocha from 'mocha';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface SuiteRunOptions {
  /** Folder searched (recursively) for *.test.js. */
  dir: string;
  timeoutMs?: number;
  /** Only tests whose full title matches (also from MOCHA_GREP). */
  grep?: string;
}

export function findTestFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.test.js'))
    .sort()
    .map((f) => join(dir, f));
}

/** Runs the suites in `dir`; resolves when all pass, rejects naming the failure count. */
export async function runSuites(opts: SuiteRunOptions): Promise<void> {
  const files = findTestFiles(opts.dir);
  // An empty run must not look like success.
  if (files.length === 0) throw new Error(`no *.test.js files under ${opts.dir}: compile first (npx tsc -p .)`);
  const grep = opts.grep ?? process.env.MOCHA_GREP;
  const mocha = new Mocha({
    ui: 'bdd',
    timeout: opts.timeoutMs ?? 30_000,
    color: false,
    reporter: 'spec',
    ...(grep ? { grep } : {}),
  });
  for (const f of files) mocha.addFile(f);
  const failures = await new Promise<number>((resolve, reject) => {
    try {
      mocha.run(resolve);
    } catch (e) {
      reject(e);
    }
  });
  if (failures > 0) throw new Error(`${failures} in-host test(s) failed`);
}

export function run(): Promise<void> {
  return runSuites({ dir: __dirname });
}
