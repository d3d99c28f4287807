// The ready-to-paste MCP server configuration for other clients (Reasonix: Copy MCP Server
// Configuration…): one launch of `reasonix-host mcp --workspace <folder>` with the runtime VS Code
// already has and the CLI shipped in this extension, written the way each client reads it. No
// vscode here: the snippets are plain text, tested by launching what they say.

/** What runs: `<runtime> <cli> mcp --workspace <folder>`, with `env`. */
export interface McpCommandLine {
  command: string;
  args: string[];
  env: Readonly<Record<string, string>>;
}

export const SNIPPET_FORMATS = ['json', 'claude', 'codex', 'vscode'] as const;
export type SnippetFormat = (typeof SNIPPET_FORMATS)[number];

/** The name the server gets in the client's list. */
export const SERVER_KEY = 'reasonix';

/** A POSIX shell word: left bare when safe, else single-quoted. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A TOML basic string (JSON's escapes are a subset TOML reads the same way). */
function tomlString(text: string): string {
  return JSON.stringify(text);
}

export function mcpSnippet(format: SnippetFormat, line: McpCommandLine): string {
  const { command, args, env } = line;
  switch (format) {
    case 'json':
      // Cursor, Claude Desktop, Windsurf, Cline and most clients: { "mcpServers": { … } }.
      return JSON.stringify({ mcpServers: { [SERVER_KEY]: { command, args, env } } }, null, 2);
    case 'vscode':
      // A VS Code mcp.json (another window, profile or machine): { "servers": { … } }.
      return JSON.stringify({ servers: { [SERVER_KEY]: { type: 'stdio', command, args, env } } }, null, 2);
    case 'claude':
      return [
        'claude mcp add',
        SERVER_KEY,
        ...Object.entries(env).map(([k, v]) => `-e ${shellWord(`${k}=${v}`)}`),
        '--',
        ...[command, ...args].map(shellWord),
      ].join(' ');
    case 'codex':
      // ~/.codex/config.toml
      return [
        `[mcp_servers.${SERVER_KEY}]`,
        `command = ${tomlString(command)}`,
        `args = [${args.map(tomlString).join(', ')}]`,
        `env = { ${Object.entries(env)
          .map(([k, v]) => `${k} = ${tomlString(v)}`)
          .join(', ')} }`,
      ].join('\n');
  }
}
