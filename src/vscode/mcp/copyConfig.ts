// Reasonix: Copy MCP Server Configuration… — puts a ready snippet on the clipboard so Claude Code,
// Cursor, Codex or another VS Code can call the folder's extension tools: the runtime VS Code
// already has, the absolute path of the CLI shipped in this extension, the folder. While a window
// serves the folder its running extensions answer; otherwise the CLI starts them itself.
import * as vscode from 'vscode';
import { MCP_ENV, mcpArgs, type McpLaunch } from './provider';
import { mcpSnippet, SNIPPET_FORMATS, type SnippetFormat } from './snippets';

export const COPY_MCP_COMMAND = 'reasonix.copyMcpConfiguration';

/** Arguments a keybinding or test may pass: skip the pickers. */
export interface CopyMcpArgs {
  folder?: string;
  format?: SnippetFormat;
}

function formats(): { label: string; detail: string; format: SnippetFormat }[] {
  return [
    {
      label: vscode.l10n.t('JSON (mcpServers)'),
      detail: vscode.l10n.t('Cursor, Claude Desktop, Windsurf, Cline and most MCP clients'),
      format: 'json',
    },
    { label: vscode.l10n.t('Claude Code command'), detail: 'claude mcp add reasonix …', format: 'claude' },
    { label: vscode.l10n.t('Codex (config.toml)'), detail: '~/.codex/config.toml', format: 'codex' },
    {
      label: vscode.l10n.t('VS Code (mcp.json)'),
      detail: vscode.l10n.t('another VS Code window, profile or machine'),
      format: 'vscode',
    },
  ];
}

async function pickFolder(): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (folders.length <= 1) return folders[0];
  return vscode.window.showWorkspaceFolderPick({
    placeHolder: vscode.l10n.t('Copy MCP Server Configuration: choose a folder'),
  });
}

/** Returns the copied text (tests read it), or undefined when nothing was copied. */
export async function copyMcpConfiguration(launch: McpLaunch, args: CopyMcpArgs = {}): Promise<string | undefined> {
  const folder = args.folder ?? (await pickFolder())?.uri.fsPath;
  if (!folder) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Open a folder first: the MCP server serves the Reasonix extensions of a workspace folder.'),
    );
    return undefined;
  }
  const format =
    args.format ??
    (
      await vscode.window.showQuickPick(formats(), {
        title: vscode.l10n.t('Copy MCP Server Configuration'),
        placeHolder: vscode.l10n.t('For which MCP client?'),
      })
    )?.format;
  if (!format) return undefined;
  const text = mcpSnippet(format, { command: launch.runtime, args: mcpArgs(launch, folder), env: MCP_ENV });
  await vscode.env.clipboard.writeText(text);
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Copied the MCP server configuration for {0}. It runs the Reasonix CLI of this extension (v{1}) with the runtime of VS Code: while a VS Code window has the folder open, its running extensions serve the tools; otherwise the CLI starts them. Copy it again after updating the extension.',
      folder,
      launch.version,
    ),
  );
  return text;
}

/** What a keybinding passed, kept only where it is usable (anything else falls back to the pickers). */
function argsOf(value: unknown): CopyMcpArgs {
  const v = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  return {
    folder: typeof v.folder === 'string' && v.folder ? v.folder : undefined,
    format: SNIPPET_FORMATS.find((f) => f === v.format),
  };
}

export function registerCopyMcpConfiguration(launch: McpLaunch): vscode.Disposable {
  return vscode.commands.registerCommand(COPY_MCP_COMMAND, (args?: unknown) =>
    copyMcpConfiguration(launch, argsOf(args)),
  );
}
