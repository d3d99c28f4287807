// `fire`, `models` and `stream` against examples/showcase: one-shot commands that start the
// plugin, do one thing exactly as the host would, and stop it again.
import * as assert from 'node:assert/strict';
import { parseJson, parseLines, runCli, SHOWCASE } from './support';

interface Outcome {
  point: string;
  decision: string;
  payload: { name: string; arguments: string };
  changedBy: string[];
  warnings: string[];
  blockedBy?: string;
  reason?: string;
}

describe('reasonix-host fire / models / stream', function () {
  it('fire tool.before blocks rm_rf with a reason', async () => {
    const r = await runCli([
      'fire',
      'tool.before',
      '--payload',
      '{"name":"rm_rf","arguments":"{}"}',
      '--plugin',
      SHOWCASE,
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const outcome = parseJson<Outcome>(r.stdout);
    assert.equal(outcome.point, 'tool.before');
    assert.equal(outcome.decision, 'block');
    assert.equal(outcome.blockedBy, 'showcase');
    assert.match(outcome.reason ?? '', /rm_rf/);
    assert.deepEqual(outcome.changedBy, []);
  });

  it('fire tool.before lets echo through with a replaced payload changed by showcase', async () => {
    const r = await runCli([
      'fire',
      'tool.before',
      '--payload',
      '{"name":"echo","arguments":"{}"}',
      '--plugin',
      SHOWCASE,
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const outcome = parseJson<Outcome>(r.stdout);
    assert.equal(outcome.decision, 'continue');
    assert.deepEqual(outcome.changedBy, ['showcase']);
    assert.equal(outcome.payload.name, 'echo');
    assert.notEqual(outcome.payload.arguments, '{}', 'the arguments were replaced');
    assert.deepEqual(JSON.parse(outcome.payload.arguments), { via: 'showcase' });
  });

  it('fire prints the decision for humans without --json', async () => {
    const r = await runCli([
      'fire',
      'tool.before',
      '--payload',
      '{"name":"rm_rf","arguments":"{}"}',
      '--plugin',
      SHOWCASE,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^tool\.before: block — .*rm_rf/);
  });

  it('models lists the showcase echo model', async () => {
    const r = await runCli(['models', '--plugin', SHOWCASE, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const { models } = parseJson<{ models: { pluginId: string; ref: string }[] }>(r.stdout);
    assert.deepEqual(
      models.map((m) => m.ref),
      ['plugin/showcase/echo/echo-1'],
    );
    assert.equal(models[0].pluginId, 'showcase');
  });

  it('stream prints the chunks in order, then an end that completed', async () => {
    const r = await runCli([
      'stream',
      '--plugin',
      SHOWCASE,
      '--model',
      'plugin/showcase/echo/echo-1',
      '--prompt',
      'hi',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const lines = parseLines(r.stdout);
    const end = lines.at(-1);
    assert.deepEqual(end, { type: 'end', kind: 'completed' });
    const chunks = lines.slice(0, -1).map((l) => {
      assert.equal(l.type, 'chunk');
      return l.chunk as { type: string; text?: string };
    });
    const text = chunks
      .filter((c) => c.type === 'text')
      .map((c) => c.text)
      .join('');
    assert.equal(text, 'Echo: hi', 'text chunks arrive in order');
    assert.equal(chunks.at(-1)?.type, 'done', 'done is the last chunk');
    assert.ok(chunks.findIndex((c) => c.type === 'usage') > chunks.findIndex((c) => c.type === 'text'));
  });

  it('stream on a model the plugin never declared is refused locally: failed "unknown model" (exit 1)', async () => {
    const r = await runCli([
      'stream',
      '--plugin',
      SHOWCASE,
      '--model',
      'plugin/showcase/echo/nope',
      '--prompt',
      'hi',
      '--json',
    ]);
    assert.equal(r.code, 1);
    const end = parseLines(r.stdout).at(-1);
    assert.equal(end?.type, 'end');
    assert.equal(end?.kind, 'failed');
    assert.match(String(end?.message), /unknown model "plugin\/showcase\/echo\/nope"/);
  });
});
