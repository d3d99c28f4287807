// The floors' boundaries are lint rules (docs/ARCHITECTURE.md "The floors"): this proves each rule
// refuses what it must and lets the allowed imports through, by linting snippets as if they lived
// at the given paths with the project's own eslint.config.mjs.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const root = path.resolve(__dirname, '../../..');

async function importProblems(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layering: lint keeps each floor to its imports', function () {
  this.timeout(60_000);

  it('src/host never imports vscode', async () => {
    const problems = await importProblems('src/host/ui/x.ts', "import * as vscode from 'vscode'; void vscode;");
    assert.equal(problems.length, 1);
    assert.match(problems[0], /free of vscode/);
  });

  it('a src/host room is entered through its index.ts, from the engine and from the faces', async () => {
    for (const [file, spec] of [
      ['src/host/session/x.ts', '../ui/store'],
      ['src/host/x.ts', './wire/connection'],
      ['src/vscode/x.ts', '../host/streams/hub'],
      ['src/cli/x.ts', '../host/plugins/types'],
    ]) {
      const problems = await importProblems(file, `import type { T } from '${spec}'; export type U = T;`);
      assert.equal(problems.length, 1, `${file} importing ${spec}`);
      assert.match(problems[0], /through its index\.ts/);
    }
  });

  it('lets barrels, top-level engine files, sibling files and the contract through', async () => {
    for (const [file, spec] of [
      ['src/host/session/x.ts', '../ui'],
      ['src/host/session/x.ts', '../emitter'],
      ['src/host/session/x.ts', './types'],
      ['src/host/session/x.ts', '../../protocol'],
      ['src/vscode/x.ts', '../host/streams'],
      ['src/vscode/x.ts', './lm/provider'],
    ]) {
      assert.deepEqual(
        await importProblems(file, `import type { T } from '${spec}'; export type U = T;`),
        [],
        `${file} importing ${spec}`,
      );
    }
  });

  it('the webview and its protocol never import the engine', async () => {
    for (const [file, spec] of [
      ['webview/x.ts', '../src/host/ui'],
      ['src/webviewProtocol/x.ts', '../host/ui'],
    ]) {
      const problems = await importProblems(file, `import type { T } from '${spec}'; export type U = T;`);
      assert.equal(problems.length, 1, `${file} importing ${spec}`);
      assert.match(problems[0], /must not import src\/host/);
    }
    assert.deepEqual(
      await importProblems('webview/x.ts', "import type { T } from '../src/webviewProtocol'; export type U = T;"),
      [],
    );
  });
});
