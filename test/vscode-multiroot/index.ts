// In-host entry for the run in a multi-root window of ten scratch folders
// (`node scripts/run-inhost-tests.mjs --folders 10 --tests out/test/vscode-multiroot/index.js`, a
// stage of `npm test`): the extension's own sessions start each folder on first use (issue 43).
import { runSuites } from '../vscode/index';

export function run(): Promise<void> {
  return runSuites({ dir: __dirname });
}
