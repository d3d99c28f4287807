// Issue 25 item 1, walked channel by channel as the attacker did: one sidecar
// (test/fixtures/sidecars/secret-everywhere.js) puts credentials of the connection-string class in
// stderr, its action label, every text of a status, a card and a notification, the provider
// catalog (display name, model, currency, efforts), a block reason, a stream chunk and a stream's
// end error, and an error answer. Every command that prints them (check, run, models, fire,
// stream, text and --json) must show none of the secret parts. One channel is content, not a
// message, and is printed as the model wrote it: a stream chunk's text (a model asked for a sample
// connection string must be able to give one; docs/reliability.md).
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { pluginFolder } from '../../support/plugins';
import { runCli, SIDECARS, tempDir } from './support';

const FORMS = {
  azureKey: 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==',
  sasSig: 'Zm9vYmFy%2FYmF6cXV4MTIz%3D',
  odbcPwd: 'w0rd-odbc-Secret9',
  pgPass: 'pg-pass-123xyz',
};
const SECRET = [
  `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${FORMS.azureKey};EndpointSuffix=core.windows.net`,
  `https://a.blob.core.windows.net/c/b.txt?sv=2022-11-02&se=2030-01-01&sp=r&sig=${FORMS.sasSig}`,
  `Driver={ODBC Driver 18};Server=db;Uid=sa;Pwd=${FORMS.odbcPwd};`,
  `postgresql://app:${FORMS.pgPass}@db.example.com:5432/app`,
].join(' | ');

describe('reasonix-host: a connection-string secret in every channel is printed nowhere (issue 25 item 1)', function () {
  this.timeout(60000);
  let tmp: ReturnType<typeof tempDir>;
  let dir: string;
  beforeEach(() => {
    tmp = tempDir('secrets');
    dir = pluginFolder(join(tmp.dir, 'secrets'), 'secrets', {
      command: process.execPath,
      args: [join(SIDECARS, 'secret-everywhere.js')],
      env: { FIX_SECRET: SECRET },
      intercepts: ['tool.before'],
      capabilities: ['ui', 'providers'],
    });
  });
  afterEach(() => tmp.cleanup());

  function assertClean(what: string, out: string): void {
    for (const [form, value] of Object.entries(FORMS))
      assert.ok(!out.includes(value), `${what} printed the ${form} secret:\n${out}`);
  }

  it('check, run, models, fire and stream, in text and --json', async () => {
    const payload = JSON.stringify({ name: 'echo', arguments: '{}' });
    const commands: [string, string[]][] = [
      ['check', ['check', dir]],
      ['check --json', ['check', dir, '--json']],
      ['run --verbose', ['run', dir, '--for', '2', '--verbose', '--workspace', tmp.dir]],
      ['run --json', ['run', dir, '--for', '2', '--json', '--workspace', tmp.dir]],
      ['models', ['models', '--plugin', dir]],
      ['models --json', ['models', '--plugin', dir, '--json']],
      ['fire', ['fire', 'tool.before', '--payload', payload, '--plugin', dir]],
      ['fire --json', ['fire', 'tool.before', '--payload', payload, '--plugin', dir, '--json']],
      ['stream', ['stream', '--plugin', dir, '--model', 'plugin/secrets/p/m', '--prompt', 'hi']],
      ['stream --json', ['stream', '--plugin', dir, '--model', 'plugin/secrets/p/m', '--prompt', 'hi', '--json']],
    ];
    const seen: Record<string, string> = {};
    for (const [what, args] of commands) {
      const r = await runCli(args, { cwd: tmp.dir, timeoutMs: 20000 });
      seen[what] = r.stdout + r.stderr;
      assertClean(what, seen[what].replace(/chunk DefaultEndpointsProtocol[^\n"]*/g, 'chunk <model text>'));
    }
    // The channels were really printed (redacted), not silently dropped.
    assert.match(seen['run --json'], /Status /, 'the status label reached run');
    assert.match(seen['run --json'], /Card /, 'the card reached run');
    assert.match(seen['models --json'], /Model /, 'the catalog reached models');
    assert.match(seen['fire'], /blocked: /, 'the block reason reached fire');
    assert.match(seen['stream'], /chunk /, 'the chunk reached stream');
    assert.match(seen['stream'], /failed: /, 'the end error reached stream');
    assert.match(seen['run --verbose'], /starting with /, 'stderr reached run --verbose');
  });
});
