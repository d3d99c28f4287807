// Cost per string of secretlint's recommended rules (the maintained detector issue 25 names)
// against our redaction table (src/host/redact.ts), on the strings the hot path redacts: plain
// log lines (most stderr), lines with a credential, and a connection string. secretlint is not a
// dependency of the extension: install it anywhere and point SECRETLINT_DIR at that folder
// (`npm i @secretlint/core @secretlint/secretlint-rule-preset-recommend`), then
//   SECRETLINT_DIR=/tmp/sl node bench/secretlint-cost.mjs   (after `npx tsc -p .`)
// Prints one JSON object: microseconds per string for each and the ratio.
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const here = resolve(import.meta.dirname, '..');
const { redact } = createRequire(import.meta.url)(join(here, 'out', 'src', 'host', 'redact.js'));
const dir = process.env.SECRETLINT_DIR;
if (!dir) throw new Error('set SECRETLINT_DIR to a folder where @secretlint/core and the preset are installed');
const sl = createRequire(join(resolve(dir), 'package.json'));
const { lintSource } = await import(sl.resolve('@secretlint/core'));
const preset = (await import(sl.resolve('@secretlint/secretlint-rule-preset-recommend'))).creator;

const SAMPLES = {
  plain: 'info: indexed 1234 files in 56 ms (cache warm, 3 workers)',
  credential: 'request failed: Authorization: Bearer ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  connection:
    'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=cGFzc3dvcmQxMjM0NTY3ODkwYWJjZGVmZ2hpams=;EndpointSuffix=core.windows.net',
};
const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: preset }] };

async function perString(fn, text, n) {
  for (let i = 0; i < Math.min(n, 200); i++) await fn(text); // warm up
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn(text);
  return Number(process.hrtime.bigint() - t) / 1e3 / n;
}
const lint = (text) =>
  lintSource({
    source: { filePath: '/stderr.txt', content: text, contentType: 'text' },
    options: { config, noPhysicFilePath: true },
  });

const out = {};
for (const [name, text] of Object.entries(SAMPLES)) {
  const ours = await perString((t) => redact(t), text, 20000);
  const theirs = await perString(lint, text, 2000);
  const found = (await lint(text)).messages.map((m) => m.ruleId);
  out[name] = {
    oursUs: +ours.toFixed(2),
    secretlintUs: +theirs.toFixed(1),
    ratio: +(theirs / ours).toFixed(0),
    secretlintFound: found,
    oursRedacts: redact(text) !== text,
  };
}
console.log(JSON.stringify(out, null, 2));
