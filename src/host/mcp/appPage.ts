// The page VS Code (or any MCP Apps host) draws on a tool's card (issue 41): one HTML document,
// the Surfaces view's renderer inlined (webview/mcpApp/, bundled by esbuild.mjs into
// dist/mcp-app.html), served as the `ui://` resource of every tool that may anchor a view.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The MCP Apps extension's id in a client's `capabilities.extensions` (spec revision 2026-01-26). */
export const MCP_APPS_EXTENSION = 'io.modelcontextprotocol/ui';
/** The one MIME type an MCP Apps host draws. */
export const MCP_APP_MIME = 'text/html;profile=mcp-app';

/** The card's resource for a tool: `ui://reasonix/<plugin id>/<tool name>` (both URI-encoded). */
export function appResourceUri(pluginId: string, tool: string): string {
  return `ui://reasonix/${encodeURIComponent(pluginId)}/${encodeURIComponent(tool)}`;
}

/** The plugin id and tool a card resource names, or undefined. */
export function parseAppResourceUri(uri: string): { pluginId: string; name: string } | undefined {
  const m = /^ui:\/\/reasonix\/([^/]+)\/([^/]+)$/.exec(uri);
  if (!m) return undefined;
  try {
    return { pluginId: decodeURIComponent(m[1]), name: decodeURIComponent(m[2]) };
  } catch {
    return undefined;
  }
}

/** Whether an MCP client said it draws MCP Apps (its initialize `capabilities.extensions`). */
export function drawsApps(capabilities: unknown): boolean {
  const ext = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions?.[MCP_APPS_EXTENSION];
  if (!ext || typeof ext !== 'object') return false;
  const mimeTypes = (ext as { mimeTypes?: unknown }).mimeTypes;
  // The extension's settings name the MIME types it draws; absent means the default (ours).
  return mimeTypes === undefined || (Array.isArray(mimeTypes) && mimeTypes.includes(MCP_APP_MIME));
}

const PAGE_FILE = 'mcp-app.html';
let cached: string | undefined;

/**
 * dist/mcp-app.html, read once: beside the running bundle (dist/cli.js, dist/mcp-window.js), else in
 * the dist/ of the first folder above that has one (the compiled sources in out/ run by the tests).
 */
export function appPageHtml(): string {
  if (cached !== undefined) return cached;
  for (let dir = __dirname; ; dir = dirname(dir)) {
    for (const file of [join(dir, PAGE_FILE), join(dir, 'dist', PAGE_FILE)])
      if (existsSync(file)) return (cached = readFileSync(file, 'utf8'));
    if (dirname(dir) === dir) break;
  }
  throw new Error(`${PAGE_FILE} is missing beside ${__dirname}; build it with node esbuild.mjs`);
}
