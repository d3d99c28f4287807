// What VS Code versions newer than our minimum (engines.vscode ^1.96) add, for the features that
// cannot be probed through an API. Everything that can be probed is (lm/vscodeLm.ts detects the
// language model provider API); agent plugins cannot: nothing in the extension API says whether
// VS Code reads a `chatPlugins` contribution. Plain functions, no `vscode` import (unit-tested).

/** The stable language model provider API (`vscode.lm.registerLanguageModelChatProvider`). */
export const LM_PROVIDER_SINCE = '1.104';

/** MCP server definitions provided by extensions (`vscode.lm.registerMcpServerDefinitionProvider`). */
export const MCP_PROVIDER_SINCE = '1.101';

/**
 * Agent plugins contributed by extensions (`contributes.chatPlugins`, whose hooks govern VS Code's
 * agents): code-server 4.113.0's workbench (VS Code 1.113.0) has no such contribution point,
 * 4.114.0's (VS Code 1.114.0) has it.
 */
export const AGENT_PLUGINS_SINCE = '1.114';

/** True when `version` ("1.96.4", "1.139.0-insider") is `since` ("1.114") or later. */
export function atLeast(version: string, since: string): boolean {
  const parts = (v: string) => (/^(\d+)\.(\d+)/.exec(v) ?? ['', 'NaN', 'NaN']).slice(1, 3).map(Number);
  const [major, minor] = parts(version);
  const [wantMajor, wantMinor] = parts(since);
  if ([major, minor, wantMajor, wantMinor].some(Number.isNaN)) throw new Error(`not a VS Code version: "${version}"`);
  return major !== wantMajor ? major > wantMajor : minor >= wantMinor;
}
