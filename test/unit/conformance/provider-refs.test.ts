// Issue 11 item 2: provider refs are resolved against the handshake declarations, in the one
// resolver every front end goes through (the session engine), against the real fixture provider.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { SessionEngine } from '../../../src/host/session';
import type { Logger } from '../../../src/host/log';
import { runCli } from '../cli/support';
import { pluginFolder } from '../../support/plugins';
import { startTestEngine } from '../../support/engine';

const PROVIDER = resolve(__dirname, '../../../../test/fixtures/providers/provider.js');
const DECLARED = [{ ref: 'plugin/p/fake/echo', model: 'echo', displayName: 'Fake echo' }];

describe('conformance: provider refs resolve against handshake declarations (issue 11 item 2)', function () {
  this.timeout(30000);
  let dir: string;
  let engine: SessionEngine | undefined;
  const warnings: string[] = [];
  const logger: Logger = {
    trace() {},
    debug() {},
    info() {},
    warn: (m) => warnings.push(m),
    error: (m) => warnings.push(m),
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rx-refs-'));
    warnings.length = 0;
  });
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const record = () => join(dir, 'opens.ndjson');
  const opens = (): Array<{ providerRef: string; model?: string }> =>
    existsSync(record())
      ? readFileSync(record(), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { providerRef: string; model?: string })
      : [];

  /** Plugin folder `p` running the fixture provider, declaring DECLARED at handshake. */
  function pluginDir(): string {
    return pluginFolder(join(dir, 'p'), 'p', {
      command: process.execPath,
      args: [PROVIDER],
      capabilities: ['providers'],
      env: { PROVIDER_DECLARE: JSON.stringify(DECLARED), PROVIDER_RECORD: record() },
    });
  }

  async function startEngine(): Promise<SessionEngine> {
    engine = await startTestEngine({ base: dir, plugins: [pluginDir()], logger, options: { sessionId: 'session-1' } });
    return engine;
  }

  async function drain(e: SessionEngine, ref: string): Promise<{ texts: string[]; outcome: unknown }> {
    const stream = await e.openStream(ref, { messages: [{ role: 'user', content: 'hi' }] });
    const texts: string[] = [];
    for await (const c of stream) texts.push((c as { text?: string }).text ?? '');
    return { texts, outcome: await stream.outcome };
  }

  it('a provider-prefix ref resolves to the declaration that adds the model segment: stream/open carries the declared providerRef and model', async () => {
    const e = await startEngine();
    const { texts, outcome } = await drain(e, 'plugin/p/fake');
    assert.deepEqual(outcome, { kind: 'completed' });
    const sent = JSON.parse(texts[0]) as { providerRef: string; model?: string };
    assert.equal(sent.providerRef, 'plugin/p/fake/echo');
    assert.equal(sent.model, 'echo');
    assert.deepEqual(
      opens().map((o) => [o.providerRef, o.model]),
      [['plugin/p/fake/echo', 'echo']],
    );
  });

  it('a ref no running extension declared is refused locally with "unknown model": no stream/open goes out', async () => {
    const e = await startEngine();
    // The fixture would happily stream "inorder" (its catalog even lists it), but it never declared it.
    await assert.rejects(
      e.openStream('plugin/p/inorder/m', {}),
      /unknown model "plugin\/p\/inorder\/m": plugin p does not declare it/,
    );
    await assert.rejects(e.openStream('plugin/q/fake/echo', {}), /unknown model .*plugin q is not loaded/);
    await assert.rejects(e.openStream('deepseek-chat', {}), /unknown model/);
    await assert.rejects(e.openStream('plugin/p/fake', {}, { model: 'other' }), /declares model "echo", not "other"/);
    assert.deepEqual(opens(), []);
  });

  it('models() lists only catalog entries that resolve, so every listed model can be opened', async () => {
    const e = await startEngine();
    const models = await e.models();
    assert.deepEqual(models, [
      {
        pluginId: 'p',
        ref: 'plugin/p/fake/echo',
        label: 'Fake echo',
        model: 'echo',
        descriptor: { ref: 'plugin/p/fake/echo', displayName: 'Fake echo', model: 'echo' },
      },
    ]);
    assert.ok(
      warnings.some((w) => /catalog entry not offered: unknown model "plugin\/p\/inorder\/m"/.test(w)),
      warnings.join('\n'),
    );
  });

  it("a stopped plugin's declared ref is refused, not routed elsewhere", async () => {
    const e = await startEngine();
    await e.stopPlugin('p');
    await assert.rejects(e.openStream('plugin/p/fake/echo', {}), /unknown model .*plugin p is not running/);
    assert.deepEqual(opens(), []);
  });

  it('the CLI `models` and `stream` use the same resolver', async () => {
    const plugin = pluginDir();
    const models = await runCli(['models', '--plugin', plugin, '--json'], { timeoutMs: 20000 });
    assert.equal(models.code, 0, models.stderr);
    assert.deepEqual((JSON.parse(models.stdout) as { models: unknown[] }).models, [
      {
        pluginId: 'p',
        ref: 'plugin/p/fake/echo',
        label: 'Fake echo',
        model: 'echo',
        descriptor: { ref: 'plugin/p/fake/echo', displayName: 'Fake echo', model: 'echo' },
      },
    ]);

    const ok = await runCli(['stream', '--plugin', plugin, '--model', 'plugin/p/fake', '--prompt', 'hi', '--json'], {
      timeoutMs: 20000,
    });
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(
      opens().map((o) => [o.providerRef, o.model]),
      [['plugin/p/fake/echo', 'echo']],
    );

    const refused = await runCli(
      ['stream', '--plugin', plugin, '--model', 'plugin/p/inorder/m', '--prompt', 'hi', '--json'],
      { timeoutMs: 20000 },
    );
    assert.equal(refused.code, 1);
    const end = JSON.parse(refused.stdout.trim().split('\n').at(-1) as string) as Record<string, unknown>;
    assert.deepEqual([end.type, end.kind, end.reason], ['end', 'failed', 'invalid_params']);
    assert.match(String(end.message), /unknown model "plugin\/p\/inorder\/m"/);
    assert.equal(opens().length, 1, 'the refused ref sent no stream/open');
  });
});
