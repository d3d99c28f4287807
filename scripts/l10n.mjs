#!/usr/bin/env node
// The localization check and export (issue 29). Every user-visible string exists in English and in
// Simplified Chinese, with the same placeholders:
//   package.nls.json ⇄ package.nls.zh-cn.json (every %key% package.json uses is defined),
//   l10n/bundle.l10n.json ⇄ l10n/bundle.l10n.zh-cn.json, and bundle.l10n.json is exactly what
//   @vscode/l10n-dev extracts from src/vscode (every `l10n.t('…')` call) plus the string tables
//   in src/webviewProtocol/strings.ts that the extension translates for the webview.
//
//   node scripts/l10n.mjs           check (part of `npm run lint`); exit 1 with every problem listed
//   node scripts/l10n.mjs --export  rewrite l10n/bundle.l10n.json from the sources
//   --root <dir>                    the checkout to check (default: this one)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getL10nJson } from '@vscode/l10n-dev';

const rootArg = process.argv.indexOf('--root');
/** `--root <dir>`: check another checkout (the tests use a copy with one string removed). */
const root = rootArg > 0 ? process.argv[rootArg + 1] : fileURLToPath(new URL('..', import.meta.url));
const LOCALES = ['zh-cn'];
const problems = [];
const read = (p) => JSON.parse(readFileSync(join(root, p), 'utf8'));
const placeholders = (s) =>
  [...String(s).matchAll(/\{(\d+)\}/g)]
    .map((m) => m[1])
    .sort()
    .join(',');

function tsFiles(dir) {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The English strings the extension translates at run time: l10n-dev's export plus our tables. */
async function exported() {
  // The face's pure modules (displayStates, accessibleNames) take a translator named `l10n` so Node
  // tests run without VS Code; l10n-dev reads `l10n.t(…)` only in files importing vscode, so every
  // file is read as if it did.
  const files = tsFiles('src/vscode').map((f) => ({
    extension: '.ts',
    contents: `import * as vscode from 'vscode';\n${readFileSync(join(root, f), 'utf8')}`,
  }));
  const bundle = await getL10nJson(files);
  const tables = readFileSync(join(root, 'src/webviewProtocol/strings.ts'), 'utf8');
  // Values of the tables: one `key: 'English',` per line between `l10n-table` markers.
  for (const block of tables
    .split('// l10n-table')
    .slice(1, -1)
    .filter((_, i) => i % 2 === 0)) {
    for (const m of block.matchAll(/^\s+\w+:\s*'((?:[^'\\]|\\.)*)',?$/gm)) {
      const s = m[1].replace(/\\'/g, "'");
      bundle[s] = s;
    }
  }
  return Object.fromEntries(Object.entries(bundle).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function compare(name, english, locale, localized) {
  for (const k of Object.keys(english)) {
    if (!(k in localized)) problems.push(`${locale}: ${name} lacks "${k}"`);
    else if (placeholders(english[k]) !== placeholders(localized[k]))
      problems.push(
        `${locale}: ${name} "${k}" has placeholders {${placeholders(localized[k])}}, English has {${placeholders(english[k])}}`,
      );
    else if (!String(localized[k]).trim()) problems.push(`${locale}: ${name} "${k}" is empty`);
  }
  for (const k of Object.keys(localized))
    if (!(k in english)) problems.push(`${locale}: ${name} has "${k}", English does not`);
}

const pkg = readFileSync(join(root, 'package.json'), 'utf8');
const nls = read('package.nls.json');
for (const m of pkg.matchAll(/"%([^%"]+)%"/g))
  if (!(m[1] in nls)) problems.push(`package.json uses %${m[1]}%, package.nls.json lacks it`);
if (JSON.parse(pkg).l10n !== './l10n') problems.push('package.json must declare "l10n": "./l10n"');

const fresh = await exported();
if (process.argv.includes('--export')) {
  writeFileSync(join(root, 'l10n/bundle.l10n.json'), JSON.stringify(fresh, null, 2) + '\n');
  console.log(`l10n/bundle.l10n.json: ${Object.keys(fresh).length} strings`);
}
const bundle = read('l10n/bundle.l10n.json');
for (const k of Object.keys(fresh))
  if (!(k in bundle)) problems.push(`l10n/bundle.l10n.json lacks "${k}" (run node scripts/l10n.mjs --export)`);
for (const k of Object.keys(bundle))
  if (!(k in fresh))
    problems.push(`l10n/bundle.l10n.json has "${k}", no source uses it (run node scripts/l10n.mjs --export)`);

for (const locale of LOCALES) {
  compare('package.nls', nls, locale, read(`package.nls.${locale}.json`));
  compare('bundle.l10n', bundle, locale, read(`l10n/bundle.l10n.${locale}.json`));
}
if (problems.length) {
  console.error(`localization check failed (${relative(process.cwd(), root) || '.'}):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `localization check: ${Object.keys(nls).length} manifest and ${Object.keys(bundle).length} runtime strings in ${['en', ...LOCALES].join(', ')}`,
);
