// `--help` on every command, and usage errors: exit 2 with one readable line on stderr.
import * as assert from 'node:assert/strict';
import type { Options } from '../../../src/cli/args';
import { CHECK_OPTIONS } from '../../../src/cli/check';
import { FIRE_OPTIONS } from '../../../src/cli/fire';
import { HOOK_OPTIONS } from '../../../src/cli/hook';
import { MODELS_OPTIONS, STREAM_OPTIONS } from '../../../src/cli/models';
import { RUN_OPTIONS } from '../../../src/cli/run';
import { MCP_OPTIONS } from '../../../src/cli/mcp';
import { TOOL_OPTIONS, TOOL_SESSION_OPTIONS } from '../../../src/cli/tools';
import { runCli, SHOWCASE } from './support';

/** Each command and the options it parses (besides --help). */
const COMMANDS: Record<string, Options> = {
  check: CHECK_OPTIONS,
  run: RUN_OPTIONS,
  fire: FIRE_OPTIONS,
  models: MODELS_OPTIONS,
  stream: STREAM_OPTIONS,
  tools: TOOL_SESSION_OPTIONS,
  tool: TOOL_OPTIONS,
  mcp: MCP_OPTIONS,
  hook: HOOK_OPTIONS,
};
/** Options a command parses only to refuse them with a readable line. */
const REFUSED: Record<string, string[]> = { mcp: ['json'] };

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
    for (const c of Object.keys(COMMANDS)) assert.match(r.stdout, new RegExp(`^  ${c} `, 'm'));
  });

  it('no command at all is a usage error with the help on stderr (exit 2)', async () => {
    const r = await runCli([]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^Usage: reasonix-host <command>/);
  });

  for (const [c, options] of Object.entries(COMMANDS)) {
    it(`${c} --help prints its usage and every option it takes (exit 0)`, async () => {
      const r = await runCli([c, '--help']);
      assert.equal(r.code, 0);
      assert.match(r.stdout, new RegExp(`^Usage: reasonix-host ${c} `));
      assert.equal(r.stderr, '');
      for (const name of Object.keys(options).filter((o) => !REFUSED[c]?.includes(o)))
        assert.match(r.stdout, new RegExp(`^  --${name} `, 'm'), `${c} --help lists --${name}`);
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
