// `reasonix-host run` with examples/showcase: surfaces as JSON lines, prompts answered from
// --answers, file changes forwarded, and a clean stop on --for and on SIGINT.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturePlugin, gone, LiveCli, parseLines, runCli, SHOWCASE, tempDir } from './support';

type Event = Record<string, unknown>;
const pluginPid = (events: Event[]) => events.find((e) => e.type === 'plugin')?.pid as number;

describe('reasonix-host run', function () {
  let tmp: ReturnType<typeof tempDir>;
  let live: LiveCli | undefined;
  beforeEach(() => (tmp = tempDir('run')));
  afterEach(async () => {
    await live?.kill();
    live = undefined;
    tmp.cleanup();
  });

  it('--for 1 --json prints the showcase surfaces as JSON lines, then stops, leaving no process', async () => {
    const r = await runCli(['run', SHOWCASE, '--for', '1', '--json', '--workspace', tmp.dir]);
    assert.equal(r.code, 0, r.stderr);
    const events = parseLines(r.stdout);
    const plugin = events.find((e) => e.type === 'plugin');
    assert.equal(plugin?.pluginId, 'showcase');
    assert.equal(plugin?.state, 'running');
    assert.ok((plugin?.actions as string[]).includes('pick-theme'));
    const surfaces = new Set(events.filter((e) => e.type === 'surface').map((e) => e.surfaceId));
    for (const id of ['controls', 'session', 'recent-changes', 'notes', 'indexing'])
      assert.ok(surfaces.has(id), `surface ${id} printed`);
    assert.ok(events.some((e) => e.type === 'notification' && e.surfaceId === 'notice-1'));
    // The stop is the end of the story: nothing after it but the final line.
    const stopAt = events.findIndex((e) => e.type === 'stopping');
    assert.ok(stopAt > 0, 'a stopping line');
    assert.deepEqual(events.slice(stopAt), [{ type: 'stopping', why: '--for 1' }, { type: 'stopped' }]);
    assert.ok(
      events.every((e) => e.stale !== true),
      'no stale markings from the teardown are printed',
    );
    assert.ok(await gone(pluginPid(events)), 'the sidecar is gone');
  });

  it('answers the pick-theme prompt from --answers and reports the action', async () => {
    const r = await runCli([
      'run',
      SHOWCASE,
      '--for',
      '0',
      '--json',
      '--workspace',
      tmp.dir,
      '--action',
      '/showcase:pick-theme',
      '--answers',
      '{"theme":"Paper"}',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const events = parseLines(r.stdout);
    const prompt = events.find((e) => e.type === 'prompt');
    assert.equal(prompt?.kind, 'select');
    assert.deepEqual(prompt?.answer, { cancelled: false, values: { theme: 'Paper' } });
    const action = events.find((e) => e.type === 'action');
    assert.equal(action?.accepted, true);
    assert.equal(action?.message, 'Theme set to Paper');
  });

  it('a single-field prompt also takes {"value": …}; without --answers it is cancelled', async () => {
    const withValue = parseLines(
      (
        await runCli([
          'run',
          SHOWCASE,
          '--for',
          '0',
          '--json',
          '--workspace',
          tmp.dir,
          '--action',
          '/showcase:pick-theme',
          '--answers',
          '{"value":"Monokai"}',
        ])
      ).stdout,
    );
    assert.equal(withValue.find((e) => e.type === 'action')?.message, 'Theme set to Monokai');
    const none = parseLines(
      (
        await runCli([
          'run',
          SHOWCASE,
          '--for',
          '0',
          '--json',
          '--workspace',
          tmp.dir,
          '--action',
          '/showcase:pick-theme',
        ])
      ).stdout,
    );
    assert.deepEqual(none.find((e) => e.type === 'prompt')?.answer, { cancelled: true });
    assert.equal(none.find((e) => e.type === 'action')?.message, 'Theme unchanged');
  });

  it('an unknown action is rejected and the run exits 1', async () => {
    const r = await runCli([
      'run',
      SHOWCASE,
      '--for',
      '0',
      '--json',
      '--workspace',
      tmp.dir,
      '--action',
      '/showcase:nope',
    ]);
    assert.equal(r.code, 1);
    assert.equal(parseLines(r.stdout).find((e) => e.type === 'action')?.accepted, false);
  });

  it('forwards a file change in --workspace: the Recent changes card names the file', async () => {
    live = new LiveCli(['run', SHOWCASE, '--json', '--workspace', tmp.dir]);
    await live.waitFor(
      'the first Recent changes card',
      (e) => e.type === 'surface' && e.surfaceId === 'recent-changes',
    );
    writeFileSync(join(tmp.dir, 'edited-by-test.txt'), 'hello\n');
    const card = await live.waitFor(
      'the file in Recent changes',
      (e) =>
        e.type === 'surface' &&
        e.surfaceId === 'recent-changes' &&
        String((e.payload as { markdown?: string }).markdown).includes('edited-by-test.txt'),
    );
    assert.equal(card.stale, false);
    assert.ok(live.events.some((e) => e.type === 'resources' && e.sidecars === 1));
    live.child.kill('SIGINT');
    assert.deepEqual(await live.exited, { code: 0, signal: null });
  });

  it('SIGINT stops cleanly: stopping, stopped, exit 0, the sidecar gone', async () => {
    live = new LiveCli(['run', SHOWCASE, '--json', '--workspace', tmp.dir]);
    await live.waitFor('the plugin to run', (e) => e.type === 'plugin' && e.state === 'running');
    const pid = pluginPid(live.events);
    live.child.kill('SIGINT');
    assert.deepEqual(await live.exited, { code: 0, signal: null });
    assert.deepEqual(live.events.slice(-2), [{ type: 'stopping', why: 'SIGINT' }, { type: 'stopped' }]);
    assert.ok(await gone(pid), 'the sidecar is gone');
    assert.equal(live.stderr, '');
  });

  it('SIGTERM stops the same way', async () => {
    live = new LiveCli(['run', SHOWCASE, '--json', '--workspace', tmp.dir]);
    await live.waitFor('the plugin to run', (e) => e.type === 'plugin');
    const pid = pluginPid(live.events);
    live.child.kill('SIGTERM');
    assert.deepEqual(await live.exited, { code: 0, signal: null });
    assert.ok(await gone(pid));
  });

  it('a plugin that fails its handshake makes run exit 1 with the failure in the plugin line', async () => {
    const dir = fixturePlugin(tmp.dir, 'v2', 'well-behaved.js', {
      env: { FIX_RESULT_PATCH: JSON.stringify({ protocolVersion: '2' }) },
    });
    const r = await runCli(['run', dir, '--for', '0', '--json', '--workspace', tmp.dir]);
    assert.equal(r.code, 1);
    const plugin = parseLines(r.stdout).find((e) => e.type === 'plugin');
    assert.notEqual(plugin?.state, 'running');
    assert.match(JSON.stringify(plugin?.failure), /protocolVersion 2/);
  });
});
