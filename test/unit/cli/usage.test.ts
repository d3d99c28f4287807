// `--help` on every command, and usage errors: exit 2 with one readable line on stderr.
import * as assert from 'node:assert/strict';
import { runCli, SHOWCASE } from './support';

const COMMANDS = ['check', 'run', 'fire', 'models', 'stream'];

function assertOneUsageLine(r: { code: number | null; stdout: string; stderr: string }, pattern: RegExp): void {
  assert.equal(r.code, 2, `exit 2 expected; stderr: ${r.stderr}`);
  assert.equal(r.stdout, '', 'nothing on stdout');
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one stderr line, got: ${r.stderr}`);
  assert.match(lines[0], /^reasonix-host: /);
  assert.match(lines[0], pattern);
}

describe('reasonix-host usage', function () {
  it('--help lists every command (exit 0)', async () => {
    const r = await runCli(['--help']);
    assert.equal(r.code, 0);
    for (const c of COMMANDS) assert.match(r.stdout, new RegExp(`^  ${c} `, 'm'));
  });

  it('no command at all is a usage error with the help on stderr (exit 2)', async () => {
    const r = await runCli([]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^Usage: reasonix-host <command>/);
  });

  for (const c of COMMANDS) {
    it(`${c} --help prints its usage (exit 0)`, async () => {
      const r = await runCli([c, '--help']);
      assert.equal(r.code, 0);
      assert.match(r.stdout, new RegExp(`^Usage: reasonix-host ${c} `));
      assert.equal(r.stderr, '');
    });
  }

  const cases: [string, string[], RegExp][] = [
    ['an unknown command', ['frobnicate'], /unknown command "frobnicate"/],
    ['an unknown option', ['check', SHOWCASE, '--bogus'], /--bogus/],
    ['check without a folder', ['check'], /exactly one plugin folder/],
    [
      'check with a non-numeric timeout',
      ['check', SHOWCASE, '--handshake-timeout', 'soon'],
      /--handshake-timeout must be an integer/,
    ],
    ['run without a folder', ['run'], /at least one plugin folder/],
    ['run with a malformed --action', ['run', SHOWCASE, '--action', 'pick-theme'], /--action must look like/],
    ['run with --answers that is not JSON', ['run', SHOWCASE, '--answers', '{nope'], /--answers is not valid JSON/],
    [
      'fire with an unknown hook point',
      ['fire', 'tool.sideways', '--plugin', SHOWCASE, '--payload', '{}'],
      /fire takes one hook point/,
    ],
    ['fire without --plugin', ['fire', 'tool.before', '--payload', '{}'], /at least one --plugin/],
    ['fire without --payload', ['fire', 'tool.before', '--plugin', SHOWCASE], /needs --payload/],
    ['models without --plugin', ['models'], /at least one --plugin/],
    ['stream without --model', ['stream', '--plugin', SHOWCASE, '--prompt', 'hi'], /--model REF/],
  ];
  for (const [what, args, pattern] of cases) {
    it(`${what}: exit 2, one stderr line`, async () => {
      assertOneUsageLine(await runCli(args), pattern);
    });
  }
});
