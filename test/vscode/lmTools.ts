// `vscode.lm.tools` and `invokeTool` (stable since 1.95), declared here as this repository's
// @types/vscode is 1.96's minimum and the suites read them as VS Code's agents do.
import * as vscode from 'vscode';

export interface LmTools {
  readonly tools: readonly { name: string; description: string; inputSchema?: object }[];
  invokeTool(
    name: string,
    options: { input: object; toolInvocationToken: undefined },
    token: vscode.CancellationToken,
  ): Thenable<{ content: unknown[] }>;
}

export const lm = (): LmTools => vscode.lm as unknown as LmTools;
