// Bundles for the extension (Node, CommonJS), the CLI and the agent-hooks bridge, one for the
// webview (browser).
// `--watch` rebuilds on change; `--dev` keeps code unminified with inline source maps.
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';

const dev = process.argv.includes('--dev');
const watch = process.argv.includes('--watch');
const common = {
  bundle: true,
  minify: !dev,
  sourcemap: dev ? 'inline' : false,
  logLevel: 'warning',
  legalComments: 'none',
};

const builds = [];
if (existsSync('src/vscode/extension.ts')) {
  builds.push({
    ...common,
    entryPoints: ['src/vscode/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  });
}
if (existsSync('src/cli.ts')) {
  builds.push({
    ...common,
    entryPoints: ['src/cli.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  });
}
// The agent-hooks bridge: run on every agent hook by agent-plugin/bin/*, so small and standalone.
if (existsSync('src/hook.ts')) {
  builds.push({
    ...common,
    entryPoints: ['src/hook.ts'],
    outfile: 'dist/hook.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  });
}
// Its window side, required by the extension only when the endpoint opens (after activation).
if (existsSync('src/hooksWindow.ts')) {
  builds.push({
    ...common,
    entryPoints: ['src/hooksWindow.ts'],
    outfile: 'dist/hooks-window.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  });
}
// The Surfaces webview's host side, required when a view or panel first opens.
if (existsSync('src/surfacesHub.ts')) {
  builds.push({
    ...common,
    entryPoints: ['src/surfacesHub.ts'],
    outfile: 'dist/surfaces-hub.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  });
}
// Managing Reasonix extensions (install, enable, remove…), required on the first such command.
if (existsSync('src/manageCommands.ts')) {
  builds.push({
    ...common,
    entryPoints: ['src/manageCommands.ts'],
    outfile: 'dist/manage.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  });
}
// Reasonix sessions over ACP with @agentclientprotocol/sdk, required on the first Open Reasonix Session.
if (existsSync('src/reasonixSessions.ts')) {
  builds.push({
    ...common,
    entryPoints: ['src/reasonixSessions.ts'],
    outfile: 'dist/sessions.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  });
}
// The language-model request path, required on the first request (src/vscode/lm/provider.ts).
if (existsSync('src/lmRequests.ts')) {
  builds.push({
    ...common,
    entryPoints: ['src/lmRequests.ts'],
    outfile: 'dist/lm-requests.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  });
}
// The authoring aids (manifest findings and quick fixes), required on the first save of a manifest.
if (existsSync('src/authoring.ts')) {
  builds.push({
    ...common,
    entryPoints: ['src/authoring.ts'],
    outfile: 'dist/authoring.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  });
}
// The window's MCP server (the SDK), required on the first MCP connection only.
if (existsSync('src/mcpWindow.ts')) {
  builds.push({
    ...common,
    entryPoints: ['src/mcpWindow.ts'],
    outfile: 'dist/mcp-window.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  });
}
// A tool call's path and the check of its arguments (ajv's compiler), required on the first tool call.
if (existsSync('src/toolCalls.ts')) {
  builds.push({
    ...common,
    entryPoints: ['src/toolCalls.ts'],
    outfile: 'dist/tool-calls.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  });
}
// The engine (discovery, wire, sidecars, generations, UI hub, intercepts, streams): required when
// the first folder starts (src/vscode/engineModule.ts), so activation parses none of it.
if (existsSync('src/engine.ts')) {
  builds.push({
    ...common,
    entryPoints: ['src/engine.ts'],
    outfile: 'dist/engine.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  });
}
if (existsSync('webview/main.ts')) {
  builds.push({
    ...common,
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview.js',
    // linkify is off in the view's Markdown parser: drop the matcher (webview/logic/linkifyOff.ts).
    alias: { 'linkify-it': './webview/logic/linkifyOff.ts' },
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  });
}

mkdirSync('dist', { recursive: true });
// Codicons ship their font and CSS; the webview loads them from dist/ (styles only from the extension).
if (existsSync('node_modules/@vscode/codicons/dist/codicon.css')) {
  copyFileSync('node_modules/@vscode/codicons/dist/codicon.css', 'dist/codicon.css');
  copyFileSync('node_modules/@vscode/codicons/dist/codicon.ttf', 'dist/codicon.ttf');
}

/**
 * The page's translations (issue 41): it runs outside the extension, so the l10n bundle's entries
 * for the webview's string tables (src/webviewProtocol/strings.ts, between `l10n-table` markers, as
 * scripts/l10n.mjs reads them) are inlined, and the page picks them by the host context's locale.
 */
function cardTranslations(locale) {
  const file = `l10n/bundle.l10n.${locale}.json`;
  if (!existsSync(file)) return {};
  const bundle = JSON.parse(readFileSync(file, 'utf8'));
  const tables = readFileSync('src/webviewProtocol/strings.ts', 'utf8').split('// l10n-table').slice(1, -1);
  const out = {};
  for (const block of tables.filter((_, i) => i % 2 === 0))
    for (const m of block.matchAll(/^\s+\w+:\s*'((?:[^'\\]|\\.)*)',?$/gm)) {
      const english = m[1].replace(/\\'/g, "'");
      if (typeof bundle[english] === 'string') out[english] = bundle[english];
    }
  return out;
}

/**
 * The page on a tool's card in an MCP Apps host (issue 41): the Surfaces view's renderer
 * (webview/mcpApp/) and the view's CSS inlined into one HTML document, dist/mcp-app.html, which
 * the MCP server answers for `resources/read` (src/host/mcp/appPage.ts). An MCP Apps host allows
 * inline script and style and nothing external, so codicons are small glyphs here.
 */
async function buildMcpApp() {
  if (!existsSync('webview/mcpApp/main.ts')) return;
  const out = await esbuild.build({
    ...common,
    sourcemap: false,
    entryPoints: ['webview/mcpApp/main.ts'],
    define: { REASONIX_CARD_ZH_CN: JSON.stringify(cardTranslations('zh-cn')) },
    alias: { 'linkify-it': './webview/logic/linkifyOff.ts' },
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    write: false,
  });
  const js = out.outputFiles[0].text.replace(/<\/(script)/gi, '<\\/$1');
  const css = readFileSync('media/webview.css', 'utf8') + readFileSync('webview/mcpApp/page.css', 'utf8');
  writeFileSync(
    'dist/mcp-app.html',
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
      `<title>Reasonix view</title><style>${css.replace(/<\/(style)/gi, '<\\/$1')}</style></head>` +
      `<body class="mcp-app"><main id="root"></main><script>${js}</script></body></html>\n`,
  );
}

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all([...builds.map((b) => esbuild.build(b)), buildMcpApp()]);
}
