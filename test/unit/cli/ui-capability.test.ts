// Issue 45 item 11: a protocol v2 plugin that did not declare the `ui` capability has its
// host/ui/publish and host/ui/request refused with capability_not_declared (HOST_SPEC_V2 §7.1), and
// the log says so once, naming the plugin; with `ui` declared both are served. Protocol v1 keeps
// the reference host's behaviour: its publishes are served without the capability (HOST_SPEC §7).
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pluginFolder, pluginFolderV2 } from '../../support/plugins';
import { waitFor } from '../../support/wait';
import { parseLines, runCli, SIDECARS, tempDir } from './support';

interface Answer {
  method: string;
  result?: Record<string, unknown>;
  error?: { code: number; data?: { reason: string } };
}

describe('the ui capability gates a v2 plugin’s surfaces (issue 45 item 11)', function () {
  this.timeout(40_000);
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir('ui-cap')));
  afterEach(() => tmp.cleanup());

  const answers = (file: string): Answer[] =>
    existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Answer)
      : [];

  it('v2 without ui: both calls refused with capability_not_declared; v2 with ui and v1 without: served', async () => {
    const runtime = (name: string, capabilities: string[]) => ({
      command: process.execPath,
      args: [join(SIDECARS, 'publisher.js')],
      capabilities,
      env: { FIX_RECORD: join(tmp.dir, `${name}.rx`) },
    });
    const bare = pluginFolderV2(join(tmp.dir, 'bare'), 'bare', runtime('bare', []));
    const declared = pluginFolderV2(join(tmp.dir, 'declared'), 'declared', runtime('declared', ['ui']));
    const old = pluginFolder(join(tmp.dir, 'old'), 'old', runtime('old', []));
    const r = await runCli(['run', bare, declared, old, '--for', '2', '--json', '--workspace', tmp.dir]);
    assert.equal(r.code, 0, r.stderr);
    const file = (n: string) => join(tmp.dir, `${n}.rx`);
    await waitFor(() => ['bare', 'declared', 'old'].every((n) => answers(file(n)).length >= 1), {
      timeoutMs: 5000,
      what: 'the publishers to record their answers',
    });

    const refused = answers(file('bare'));
    assert.deepEqual(refused.map((a) => [a.method, a.error?.code, a.error?.data?.reason]).sort(), [
      ['host/ui/publish', -32000, 'capability_not_declared'],
      ['host/ui/request', -32000, 'capability_not_declared'],
    ]);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('capability_not_declared'));
    assert.equal(warnings.length, 1, r.stderr);
    assert.match(warnings[0], /\[bare\].*add "ui" to runtime\.capabilities/);

    for (const name of ['declared', 'old']) {
      const publish = answers(file(name)).find((a) => a.method === 'host/ui/publish');
      assert.deepEqual(publish?.result, { accepted: true }, `${name}: ${JSON.stringify(answers(file(name)))}`);
    }
    const surfaces = parseLines(r.stdout).filter((e) => e.type === 'surface' && e.surfaceId === 'st');
    assert.deepEqual(surfaces.map((s) => s.pluginId).sort(), ['declared', 'old']);
  });
});
