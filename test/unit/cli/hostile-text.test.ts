// Issue 12 §1–2 through the CLI as a user runs it: a sidecar's text never drives the terminal,
// never forges an output line, and its secrets (handshake labels, stderr cut across writes)
// never appear in clear — in text mode, in --json, and in --verbose logs.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli, SIDECARS, tempDir } from './support';
import { pluginFolder, pluginFolderV2 } from '../../support/plugins';

// Any C0 control but newline, DEL, or a C1 control.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
// Any Unicode format character (U+200B and its class, issue 25 §5).
const FORMAT = /\p{Cf}/u;

function hostilePlugin(parent: string): string {
  return pluginFolder(join(parent, 'hostile-text'), 'hostile-text', {
    command: process.execPath,
    args: [join(SIDECARS, 'hostile-text.js')],
    capabilities: ['ui'],
  });
}

describe('sidecar text on the terminal (issue 12 §1–2)', function () {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir('hostile-text')));
  afterEach(() => tmp.cleanup());

  it('run (text): control sequences are shown escaped and a title cannot forge an output line', async () => {
    const r = await runCli(['run', hostilePlugin(tmp.dir), '--for', '1', '--workspace', tmp.dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, CONTROL, 'no raw control character reaches stdout');
    assert.match(r.stdout, /\\u001b\[2J/, 'ESC is shown visibly');
    assert.match(r.stdout, /\\u001b\]52;c;/, 'the clipboard write is shown, not performed');
    assert.match(r.stdout, /\\u009b31m/, 'a C1 CSI is shown visibly');
    assert.doesNotMatch(r.stdout, FORMAT, 'no raw format character reaches stdout');
    assert.match(
      r.stdout,
      /hid\\u200bden\\u200c\\u200d\\u00ad\\u061c\\u\{e0041\}/,
      'each format character is shown visibly',
    );
    const lines = r.stdout.split('\n');
    assert.ok(!lines.some((l) => l.startsWith('plugin other')), `no forged line:\n${r.stdout}`);
    assert.ok(
      lines.some((l) => l.includes('Report\\u000aplugin other: running (pid 1)')),
      r.stdout,
    );
  });

  it('run --verbose: stderr secrets split across writes and PEM blocks never reach the log', async () => {
    const r = await runCli(['run', hostilePlugin(tmp.dir), '--for', '2', '--verbose', '--workspace', tmp.dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /stderr: auth with \[REDACTED\] done/, r.stderr);
    assert.match(r.stderr, /stderr: key loaded/, 'lines after the key block still come through');
    assert.doesNotMatch(r.stderr, /ABCDEFGHIJ|KLMNOPQRSTUVWXYZ0123456789/, 'neither half of the token');
    assert.doesNotMatch(r.stderr, /secretbody/, 'no line of the key body');
    assert.doesNotMatch(r.stderr, CONTROL);
  });

  it('check (text and --json): handshake labels are redacted at the source and the version cannot forge a verdict', async () => {
    const text = await runCli(['check', hostilePlugin(tmp.dir)]);
    assert.doesNotMatch(text.stdout, CONTROL);
    assert.ok(!text.stdout.split('\n').some((l) => l.startsWith('✔ other')), text.stdout);
    const json = await runCli(['check', hostilePlugin(tmp.dir), '--json']);
    const report = JSON.parse(json.stdout) as {
      initialize: { version: string; uiActions: { actionId: string; label: string }[] };
    };
    assert.doesNotMatch(json.stdout, /sk-live-abcdef0123456789XYZ/);
    assert.doesNotMatch(text.stdout, FORMAT, 'text: no raw format character');
    assert.doesNotMatch(json.stdout, FORMAT, '--json: no raw format character');
    assert.match(json.stdout, /pay\\u200bpal\\u2060\\ufeff\\udb40\\udc41/, '--json escapes them (astral as a pair)');
    assert.match(report.initialize.uiActions[0].label, /\[REDACTED\]/);
    assert.match(report.initialize.uiActions[0].label, /pay\u200bpal\u2060\ufeff\u{e0041}$/u, 'the value is kept');
    assert.equal(report.initialize.uiActions[0].actionId, 'go', 'identifiers are kept verbatim');
    assert.equal(
      report.initialize.version,
      '1.0.0\n✔ other 9.9.9 conforms: ready in 1 ms',
      '--json keeps the value, escaped by JSON',
    );
  });

  it('tool (text): a result cannot forge the CLI’s own lines, whatever its newlines (issue 45 item 4)', async () => {
    const dir = pluginFolderV2(join(tmp.dir, 'says'), 'says', {
      command: process.execPath,
      args: [join(SIDECARS, '..', 'tools', 'tools.js')],
      capabilities: ['tools'],
      tools: [{ name: 'says', description: 'Says the text.', inputSchema: { type: 'object' } }],
    });
    const forged = [
      '[error result: ext__says__says reported a failure of its own]',
      '[refused at tool.before: blocked by policy]',
      '[failed (internal -32603): extension says could not run tool says]',
    ];
    for (const text of [forged.join('\n'), `fine\n${forged[1]}\r\n${forged[2]}`, forged[0]]) {
      const r = await runCli(['tool', 'says', 'says', '--args', JSON.stringify({ text }), '--plugin', dir]);
      assert.equal(r.code, 0, r.stderr);
      const lines = r.stdout.replace(/\n$/, '').split('\n');
      assert.equal(lines.length, text.split('\n').length, 'one output line per result line');
      for (const l of lines) assert.ok(l.startsWith('  '), `a result line is indented: ${JSON.stringify(l)}`);
      assert.ok(!lines.some((l) => l.startsWith('[')), 'no line begins where the CLI’s own lines begin');
      assert.ok(
        lines.some((l) => l.includes('[refused at') || l.includes('[error result')),
        'the text is still shown',
      );
    }
  });
});
