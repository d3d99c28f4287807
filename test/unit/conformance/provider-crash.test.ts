// Issue 45 item 10: a provider that crashes after start does to its consumers what one that fails
// at start does: they become Inactive (dependency_unsatisfied, "its provider … crashed"), their
// processes stop and their tools leave the listing. Restarting the provider starts them again.
// Real processes through the session engine: dependent.js provides, the v2 tool fixture consumes.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { SessionEngine } from '../../../src/host/session';
import { testEngine } from '../../support/engine';
import { pluginFolderV2 } from '../../support/plugins';
import { alive } from '../../support/processes';
import { waitFor } from '../../support/wait';
import { FAST_TIMEOUTS } from '../generations/helpers';

const REPO = path.resolve(__dirname, '../../../..');
const DEPENDENT = path.join(REPO, 'test/fixtures/sidecars/dependent.js');
const TOOLS = path.join(REPO, 'test/fixtures/tools/tools.js');
const KEY = { namespace: 'acme', kind: 'index', id: 'search' };

describe('a provider that crashes after start leaves its consumers Inactive (issue 45 item 10)', function () {
  this.timeout(30000);
  let dir: string;
  let engine: SessionEngine;
  const warnings: string[] = [];

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rx-provider-crash-'));
    warnings.length = 0;
    const provider = pluginFolderV2(
      path.join(dir, 'provider'),
      'provider',
      { command: process.execPath, args: [DEPENDENT] },
      { provides: [{ ...KEY, version: '1.4.0' }] },
    );
    const consumer = pluginFolderV2(
      path.join(dir, 'consumer'),
      'consumer',
      {
        command: process.execPath,
        args: [TOOLS],
        capabilities: ['tools'],
        tools: [{ name: 'count_words', description: 'Counts words.', inputSchema: { type: 'object' } }],
      },
      { requires: [{ ...KEY, versionRange: '>=1.0.0,<2.0.0' }] },
    );
    engine = testEngine({
      base: dir,
      plugins: [provider, consumer],
      logger: { trace() {}, debug() {}, info() {}, warn: (m) => warnings.push(m), error: () => undefined },
      options: { sessionId: 'crash-10' },
      deps: { timeouts: FAST_TIMEOUTS },
    });
  });
  afterEach(async () => {
    await engine.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const state = (id: string) => engine.plugins().find((p) => p.pluginId === id);
  const toolNames = () => engine.tools().map((t) => t.modelName);

  it('crash: consumer Inactive, stopped, its tool unlisted; the provider restarted: both run, the tool is back', async () => {
    await engine.start();
    assert.equal(state('consumer')?.state, 'running');
    assert.deepEqual(toolNames(), ['ext__consumer__count_words']);
    const consumerPid = state('consumer')?.pid as number;
    const providerPid = state('provider')?.pid as number;

    process.kill(providerPid, 'SIGKILL');
    await waitFor(() => state('consumer')?.state === 'inactive' && !alive(consumerPid), {
      timeoutMs: 10000,
      what: 'the consumer to become Inactive and its process to end',
    });
    assert.deepEqual(
      state('consumer')?.inactive?.map((u) => [u.key, u.reason, u.why]),
      [['acme/index/search', 'dependency_unsatisfied', 'its provider provider crashed']],
    );
    assert.deepEqual(toolNames(), [], 'the consumer’s tool is no longer offered');
    assert.ok(
      warnings.some((w) => /\[consumer\] state=Inactive - .*acme\/index\/search/.test(w)),
      warnings.join('\n'),
    );

    await engine.restartPlugin('provider');
    await waitFor(() => state('consumer')?.state === 'running', {
      timeoutMs: 10000,
      what: 'the consumer to run again',
    });
    assert.equal(state('provider')?.state, 'running');
    assert.deepEqual(toolNames(), ['ext__consumer__count_words']);
  });
});
