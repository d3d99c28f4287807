// Issue 45 item 12 through the CLI as a user runs it: a sidecar that asks 10,000 prompts at once
// and reads its stdin only a second later gets every one answered (before the fix, past the
// 256-frame write queue the answers were dropped without a word: about 940 of 10,000 came back).
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pluginFolderV2 } from '../../support/plugins';
import { waitFor } from '../../support/wait';
import { runCli, SIDECARS, tempDir } from './support';

describe('reasonix-host run: a sidecar asking 10,000 prompts at once (issue 45 item 12)', function () {
  this.timeout(60_000);
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir('prompt-flood')));
  afterEach(() => tmp.cleanup());

  it('gets all 10,000 answered from --answers, none lost', async () => {
    const record = join(tmp.dir, 'rx');
    const dir = pluginFolderV2(join(tmp.dir, 'pf'), 'pf', {
      command: process.execPath,
      args: [join(SIDECARS, 'prompt-flood.js')],
      capabilities: ['ui'],
      env: { FIX_RECORD: record, FIX_COUNT: '10000', FIX_PAUSE_MS: '1000' },
    });
    const r = await runCli(['run', dir, '--for', '8', '--json', '--answers', '{"value":true}', '--workspace', tmp.dir]);
    assert.equal(r.code, 0, r.stderr);
    await waitFor(() => existsSync(record), { timeoutMs: 5000, what: 'the sidecar to count its answers' });
    assert.deepEqual(JSON.parse(readFileSync(record, 'utf8')), { answered: 10000, cancelled: 0, errors: 0 });
  });
});
