// `reasonix-host mcp`: a stdio MCP server over the tools Reasonix v2 extensions serve, for any MCP
// client (Claude Code, Cursor, Codex, the MCP Inspector, VS Code). The plugins are started for the
// server's lifetime and stopped when the client closes stdin or the process is signalled.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { optionLines, parseOrHelp, UsageError } from './args';
import { createToolServer } from './mcpServer';
import { PLUGINS_OR_HOME_HELP, VERBOSE_HELP, WORKSPACE_HELP } from './sessionOptions';
import { openToolSession, TOOL_SESSION_OPTIONS } from './tools';

export const MCP_HELP = `Usage: reasonix-host mcp [--plugin DIR]... [--workspace DIR] [--verbose]

A Model Context Protocol server on stdio over the tools Reasonix extensions serve (protocol v2
runtime.tools). Starts the plugins for its lifetime; each tool is listed as ext__<plugin>__<tool>
with its description, input schema and read-only hint, and every call passes the folder's
tool.before / permission.decision / tool.after interceptors first, as Reasonix does.
A tool's own failure is an MCP tool error; a refusal is a tool error carrying the interceptor's
reason; a call that could not run (the extension crashed, timed out, answered badly) is an MCP
error naming the extension. The tool list follows the extensions (notifications/tools/list_changed).

${optionLines([PLUGINS_OR_HOME_HELP, WORKSPACE_HELP, [VERBOSE_HELP[0], `${VERBOSE_HELP[1]} (stdout carries MCP only)`]])}

Add it to an MCP client, e.g. Claude Code:
  claude mcp add reasonix -- npx reasonix-host mcp --workspace "$PWD"

Exit status: 0 when the client closed the connection, 1 the plugins could not start, 2 usage error.`;

/** The version MCP clients see in serverInfo: the package's own (dist/ or out/src/ sit below it). */
function packageVersion(): string {
  for (let dir = __dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === PACKAGE_NAME && pkg.version) return pkg.version;
    } catch {
      // not here: look one level up
    }
  }
  return 'unknown';
}
const PACKAGE_NAME = 'reasonix-vscode-host';

export async function mcpCommand(argv: string[]): Promise<number> {
  // --json is parsed only to be refused with a clear message.
  const parsed = parseOrHelp(argv, TOOL_SESSION_OPTIONS, MCP_HELP);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  if (values.json) throw new UsageError('mcp speaks MCP on stdout; --json does not apply');
  if (positionals.length) throw new UsageError('mcp takes no positional arguments (use --plugin DIR)');
  const s = await openToolSession(values);
  try {
    await s.engine.start();
    const handle = createToolServer(s.engine, packageVersion());
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      process.stdin.once('end', () => resolve());
      for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(sig, () => resolve());
    });
    await handle.server.connect(transport);
    await closed;
    handle.dispose();
    await handle.server.close().catch(() => undefined);
    return 0;
  } finally {
    await s.dispose();
  }
}
