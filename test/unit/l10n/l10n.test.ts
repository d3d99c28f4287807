// Issue 29: the translation tables, the translator the face's pure modules take, and the check that
// keeps English and Simplified Chinese in step (scripts/l10n.mjs, part of `npm run lint`).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pluginAccessibleName, statusBarAccessibleName } from '../../../src/vscode/accessibleNames';
import { fullTrustLines, stateWord, summarize } from '../../../src/vscode/displayStates';
import type { L10n } from '../../../src/vscode/l10nText';
import { VIEW_STRINGS, formatText, viewStringsFrom } from '../../../src/webviewProtocol/strings';

const REPO = resolve(__dirname, '../../../..');
const readJson = (p: string) => JSON.parse(readFileSync(join(REPO, p), 'utf8')) as Record<string, string>;

/** A translator that marks what it translated, so a test sees which words went through it. */
const marked: L10n = { t: (m, ...args) => `«${formatText(m, ...args.map(String))}»` };

function check(root: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [join(REPO, 'scripts', 'l10n.mjs'), '--root', root], { encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

function copyOfRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'reasonix-l10n-'));
  for (const p of [
    'package.json',
    'package.nls.json',
    'package.nls.zh-cn.json',
    'l10n',
    'src/vscode',
    'src/webviewProtocol',
  ])
    cpSync(join(REPO, p), join(dir, p), { recursive: true });
  return dir;
}

describe('localization (issue 29)', () => {
  it('fills placeholders by index and leaves one without an argument as written', () => {
    assert.equal(formatText('{1} {0}', 'a', 'b'), 'b a');
    assert.equal(formatText('Running {0}… {1}', 'x'), 'Running x… {1}');
  });

  it('keeps only our keys with text values from what a host sent; the rest stays English', () => {
    const s = viewStringsFrom({ submit: '提交', cancel: 42, bogus: 'x', running: '' });
    assert.equal(s.submit, '提交');
    assert.equal(s.cancel, VIEW_STRINGS.cancel);
    assert.equal(s.running, VIEW_STRINGS.running);
    assert.ok(!('bogus' in s));
    assert.deepEqual(viewStringsFrom('not an object'), VIEW_STRINGS);
  });

  it('passes every word of the FULL TRUST block, state words and summaries through the translator', () => {
    const lines = fullTrustLines(
      {
        id: 'p',
        root: '/x',
        protocol: 2,
        requires: [],
        provides: [],
        runtime: {
          command: 'node',
          args: ['a.js'],
          intercepts: [],
          replaces: [],
          capabilities: [],
          required: true,
          tools: [],
        },
      } as unknown as Parameters<typeof fullTrustLines>[0],
      marked,
    );
    for (const l of lines) assert.match(l, /^«.*»$/, l);
    assert.equal(stateWord('crashed', marked), '«crashed»');
    assert.equal(
      summarize([{ sessionKey: 's', folderName: 'f', pluginId: 'a', state: 'running' }], marked).text,
      '«1 «running»»',
    );
    assert.equal(
      pluginAccessibleName({ pluginId: 'a', folderName: 'f', state: 'running', pid: 7 }, 0, true, marked),
      '«a in f»«, »«running»«, »«pid 7»',
    );
    assert.equal(statusBarAccessibleName([], marked), '«Reasonix: no extensions»');
  });

  it('ships every runtime and manifest string in Simplified Chinese with the English placeholders', () => {
    for (const [en, zh] of [
      ['l10n/bundle.l10n.json', 'l10n/bundle.l10n.zh-cn.json'],
      ['package.nls.json', 'package.nls.zh-cn.json'],
    ]) {
      const e = readJson(en);
      const z = readJson(zh);
      assert.deepEqual(Object.keys(z).sort(), Object.keys(e).sort(), zh);
      for (const k of Object.keys(e)) {
        const ph = (s: string) => [...s.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort();
        assert.deepEqual(ph(z[k]), ph(e[k]), `${zh} "${k}"`);
      }
    }
    const zh = readJson('l10n/bundle.l10n.zh-cn.json');
    assert.equal(zh['Show Logs'], '显示日志');
    for (const v of Object.values(VIEW_STRINGS)) assert.ok(v in zh, `webview string "${v}" is translated`);
  });

  it('the check passes on this checkout', () => {
    const r = check(REPO);
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /localization check: \d+ manifest and \d+ runtime strings in en, zh-cn/);
  });

  it('the check fails naming the string added in one language only, or missing from the bundle', function () {
    this.timeout(20_000);
    const dir = copyOfRepo();
    try {
      const zhFile = join(dir, 'l10n', 'bundle.l10n.zh-cn.json');
      const zh = JSON.parse(readFileSync(zhFile, 'utf8')) as Record<string, string>;
      delete zh['Show Logs'];
      writeFileSync(zhFile, JSON.stringify(zh));
      const nlsFile = join(dir, 'package.nls.json');
      const nls = JSON.parse(readFileSync(nlsFile, 'utf8')) as Record<string, string>;
      nls['command.extra'] = 'Extra';
      writeFileSync(nlsFile, JSON.stringify(nls));
      const src = join(dir, 'src', 'vscode', 'failures.ts');
      writeFileSync(src, `${readFileSync(src, 'utf8')}\nexport const x = () => vscode.l10n.t('A brand new string');\n`);
      const r = check(dir);
      assert.equal(r.status, 1, r.out);
      assert.match(r.out, /zh-cn: bundle\.l10n lacks "Show Logs"/);
      assert.match(r.out, /zh-cn: package\.nls lacks "command\.extra"/);
      assert.match(r.out, /l10n\/bundle\.l10n\.json lacks "A brand new string"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
