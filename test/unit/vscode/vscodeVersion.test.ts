// The version gate for what cannot be feature-detected (agent plugins) and the documented floor of
// what can (the language model provider API): the minimum we support is below both, the newest we
// test on is above both.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { AGENT_PLUGINS_SINCE, atLeast, LM_PROVIDER_SINCE } from '../../../src/vscode/vscodeVersion';

describe('VS Code version gates', () => {
  it('compares major then minor, ignoring the patch and any suffix', () => {
    assert.equal(atLeast('1.114.0', '1.114'), true);
    assert.equal(atLeast('1.113.9', '1.114'), false);
    assert.equal(atLeast('1.139.1', '1.114'), true);
    assert.equal(atLeast('1.96.4', '1.104'), false);
    assert.equal(atLeast('1.104.0-insider', '1.104'), true);
    assert.equal(atLeast('2.0.0', '1.200'), true);
    assert.equal(atLeast('1.200.0', '2.0'), false);
  });

  it('refuses what is not a version instead of guessing', () => {
    assert.throws(() => atLeast('insiders', '1.114'), /not a VS Code version: "insiders"/);
  });

  it('the oldest VS Code we support (engines.vscode) has neither feature, the newest we test on has both', () => {
    const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as {
      engines: { vscode: string };
    };
    const minimum = pkg.engines.vscode.replace(/^\^/, '');
    assert.equal(minimum, '1.96.0');
    for (const since of [LM_PROVIDER_SINCE, AGENT_PLUGINS_SINCE]) {
      assert.equal(atLeast(minimum, since), false, `${minimum} < ${since}`);
      assert.equal(atLeast('1.139.1', since), true, `1.139.1 ≥ ${since}`);
    }
  });
});
