// In-host entry for the run with VS Code's display language set to Simplified Chinese
// (`node scripts/run-inhost-tests.mjs --locale zh-cn --tests out/test/vscode-zh-cn/index.js`,
// a stage of `npm test`). Kept apart from test/vscode so the English suites stay as they are.
import { runSuites } from '../vscode/index';

export function run(): Promise<void> {
  return runSuites({ dir: __dirname });
}
