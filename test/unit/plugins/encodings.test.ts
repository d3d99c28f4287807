// Issue 45 item 6: reasonix-plugin.json in the encodings the real Reasonix 1.38.11 reads (UTF-8
// with or without a BOM, UTF-16LE/BE with or without a BOM, GBK) runs, and its Chinese tool
// description reaches `tools` intact; UTF-32 and bytes that are neither UTF-8 nor GBK are refused
// naming what was found, and no U+FFFD ever reaches the output.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextEncoder } from 'node:util';
import { decodeManifestBytes } from '../../../src/host/plugins/manifestText';
import { parseJson, REPO, runCli, tempDir } from '../cli/support';

const TOOLS = join(REPO, 'test', 'fixtures', 'tools', 'tools.js');
const DESCRIPTION = '统计文本中的单词数';

function manifest(name: string, description = DESCRIPTION, summary = '中文说明'): string {
  return JSON.stringify(
    {
      apiVersion: 'reasonix.io/plugin/v2',
      name,
      version: '1.0.0',
      description: summary,
      runtime: {
        command: process.execPath,
        args: [TOOLS],
        capabilities: ['tools'],
        tools: [{ name: 'count_words', description, inputSchema: { type: 'object' }, readOnly: true }],
      },
    },
    null,
    2,
  );
}

const BOM8 = Buffer.from([0xef, 0xbb, 0xbf]);
const utf16le = (s: string) => Buffer.from(s, 'utf16le');
const utf16be = (s: string) => utf16le(s).swap16();
// GBK bytes of the two strings above, as Python's codecs write them (Node has no GBK encoder).
const GBK: Record<string, number[]> = {
  [DESCRIPTION]: [
    0xcd, 0xb3, 0xbc, 0xc6, 0xce, 0xc4, 0xb1, 0xbe, 0xd6, 0xd0, 0xb5, 0xc4, 0xb5, 0xa5, 0xb4, 0xca, 0xca, 0xfd,
  ],
  中文说明: [0xd6, 0xd0, 0xce, 0xc4, 0xcb, 0xb5, 0xc3, 0xf7],
};
function gbk(s: string): Buffer {
  const parts: Buffer[] = [];
  let rest = s;
  while (rest.length) {
    const key = Object.keys(GBK).find((k) => rest.startsWith(k));
    if (key) {
      parts.push(Buffer.from(GBK[key]));
      rest = rest.slice(key.length);
    } else {
      parts.push(Buffer.from(new TextEncoder().encode(rest[0])));
      rest = rest.slice(1);
    }
  }
  return Buffer.concat(parts);
}

describe('manifest encodings as the real Reasonix reads them (issue 45 item 6)', function () {
  this.timeout(60_000);
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir('enc')));
  afterEach(() => tmp.cleanup());

  function folder(name: string, bytes: Buffer): string {
    const dir = join(tmp.dir, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'reasonix-plugin.json'), bytes);
    return dir;
  }

  const readable: [string, (s: string) => Buffer][] = [
    ['utf8', (s) => Buffer.from(s, 'utf8')],
    ['utf8-bom', (s) => Buffer.concat([BOM8, Buffer.from(s, 'utf8')])],
    ['utf16le-bom', (s) => Buffer.concat([Buffer.from([0xff, 0xfe]), utf16le(s)])],
    ['utf16be-bom', (s) => Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(s)])],
    ['utf16le', utf16le],
    ['utf16be', utf16be],
    ['gbk', gbk],
  ];

  it('runs UTF-8 (± BOM), UTF-16LE/BE (± BOM) and GBK manifests; the description arrives intact', async () => {
    const dirs = readable.map(([name, encode]) => folder(name, encode(manifest(name))));
    const args = ['tools', '--json', ...dirs.flatMap((d) => ['--plugin', d])];
    const r = await runCli(args);
    assert.equal(r.code, 0, r.stderr);
    const { tools } = parseJson<{ tools: { modelName: string; description: string }[] }>(r.stdout);
    assert.deepEqual(
      tools.map((t) => [t.modelName, t.description]).sort(),
      readable.map(([name]) => [`ext__${name}__count_words`, DESCRIPTION]).sort(),
    );
    assert.doesNotMatch(r.stdout + r.stderr, /\uFFFD/);
  });

  it('refuses UTF-32 and bytes that are neither UTF-8 nor GBK, naming what it found, without U+FFFD', async () => {
    const cases: [string, Buffer, RegExp][] = [
      [
        'utf32le',
        Buffer.concat([
          Buffer.from([0xff, 0xfe, 0, 0]),
          Buffer.from(
            [...manifest('utf32le')].flatMap((c) => {
              const b = Buffer.alloc(4);
              b.writeUInt32LE(c.codePointAt(0) as number);
              return [...b];
            }),
          ),
        ]),
        /is UTF-32LE \(byte order mark FF FE 00 00\); save it as UTF-8/,
      ],
      [
        'latin1',
        Buffer.from(manifest('latin1', 'café au lait', 'Beschreibung'), 'latin1'),
        /is not UTF-8 \(byte 0xE9 at offset \d+\) nor GBK; save it as UTF-8/,
      ],
    ];
    for (const [name, bytes, why] of cases) {
      const r = await runCli(['check', folder(name, bytes)]);
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stdout + r.stderr, why);
      assert.doesNotMatch(r.stdout + r.stderr, /\uFFFD/);
    }
  });

  it('decodeManifestBytes: a UTF-16 file cut mid-character is refused, not padded', () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), utf16le('{"a":1}'), Buffer.from([0x7d])]);
    const out = decodeManifestBytes(bytes);
    assert.equal(out.ok, false);
    assert.match((out as { why: string }).why, /UTF-16LE with a byte order mark but not valid/);
  });
});
