// The MCP server definition provider API (stable since VS Code 1.101) declared locally, because
// @types/vscode stays at our minimum. Shapes follow the shipped VS Code 1.139 extension host:
// `vscode.lm.registerMcpServerDefinitionProvider(id, provider)` for an id the extension contributes
// in `contributes.mcpServerDefinitionProviders`, and the `McpStdioServerDefinition` class. Only what
// this extension uses is declared; everything is feature-detected at run time by `detectMcpApi`.
import type * as vscode from 'vscode';

export interface McpStdioServerDefinition {
  readonly label: string;
  cwd?: vscode.Uri;
  command: string;
  args: string[];
  env: Record<string, string | number | null>;
  version?: string;
}

export interface McpServerDefinitionProvider<T extends McpStdioServerDefinition = McpStdioServerDefinition> {
  readonly onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.ProviderResult<T[]>;
  resolveMcpServerDefinition?(server: T, token: vscode.CancellationToken): vscode.ProviderResult<T>;
}

type StdioCtor = new (
  label: string,
  command: string,
  args?: string[],
  env?: Record<string, string | number | null>,
  version?: string,
) => McpStdioServerDefinition;

export interface McpApi {
  register(id: string, provider: McpServerDefinitionProvider): vscode.Disposable;
  StdioDefinition: StdioCtor;
}

/** The API when this VS Code has it (≥ 1.101 and forks that kept it), else undefined. */
export function detectMcpApi(vs: typeof vscode): McpApi | undefined {
  const lm = vs.lm as unknown as
    | { registerMcpServerDefinitionProvider?: (id: string, p: McpServerDefinitionProvider) => vscode.Disposable }
    | undefined;
  const register = lm?.registerMcpServerDefinitionProvider;
  const StdioDefinition = (vs as unknown as { McpStdioServerDefinition?: StdioCtor }).McpStdioServerDefinition;
  if (typeof register !== 'function' || typeof StdioDefinition !== 'function') return undefined;
  return { register: (id, provider) => register.call(lm, id, provider), StdioDefinition };
}
