#!/usr/bin/env node
// `npm run pack:cli`: the reasonix-host CLI as an npm package of its own (`npx reasonix-host …`),
// made from the bundle the extension ships (dist/cli.js carries every dependency, so the package
// has none). Writes out/npm/reasonix-host/ and packs it into out/npm/reasonix-host-<version>.tgz;
// `npm publish out/npm/reasonix-host-<version>.tgz` publishes it.
//
//   node scripts/pack-cli.mjs [--no-build]
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ext = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dir = join(root, 'out', 'npm', 'reasonix-host');

function run(cmd, args, cwd = root) {
  const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(`pack-cli: \`${cmd} ${args.join(' ')}\` failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
  return r.stdout;
}

if (!process.argv.includes('--no-build')) run(process.execPath, ['esbuild.mjs']);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const manifest = {
  name: 'reasonix-host',
  version: ext.version,
  description:
    'Check, run and serve Reasonix extensions (protocol v1 and v2 sidecars) from a terminal or CI, and offer their tools to any MCP client.',
  license: ext.license,
  repository: ext.repository,
  keywords: ['reasonix', 'mcp', 'agent', 'extensions', 'sidecar', 'json-rpc'],
  bin: { 'reasonix-host': 'cli.js' },
  files: ['cli.js', 'mcp-app.html', 'README.md', 'LICENSE'],
  engines: { node: ext.engines.node },
};
writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
copyFileSync(join(root, 'dist', 'cli.js'), join(dir, 'cli.js'));
// The page MCP Apps clients draw on a tool's card (issue 41), read beside cli.js.
copyFileSync(join(root, 'dist', 'mcp-app.html'), join(dir, 'mcp-app.html'));
copyFileSync(join(root, 'docs', 'cli.md'), join(dir, 'README.md'));
copyFileSync(join(root, 'LICENSE'), join(dir, 'LICENSE'));
const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', join(root, 'out', 'npm')], dir));
const tgz = join(root, 'out', 'npm', packed[0].filename);
console.log(`✔ ${tgz} (${packed[0].files.map((f) => f.path).join(', ')}; ${(packed[0].size / 1024).toFixed(1)} KB)`);
