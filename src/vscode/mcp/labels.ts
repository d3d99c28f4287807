// The labels of a window's MCP server definitions, one per folder serving tools. VS Code tells the
// servers apart by label, and names each tool `mcp_` + the first 13 characters of its server's label
// (lower-cased, every run of other characters than [a-z0-9_.-] made `_`) + `_` + the tool; servers
// whose 13 characters agree are numbered in the order they start (VS Code 1.139). So a label must be
// unique, and so must its first 13 characters, or a folder's tool names change from run to run and
// two folders of the same name share one server (issue 38 item 6). No vscode import: unit-tested.
import { labelKey, MCP_DEFINITION_LABEL } from '../../host/tools';

/**
 * The label of each workspace folder's definition (in workspace order): the plain label in a
 * single-folder window; with several folders the folder's name first (`api · Reasonix extension
 * tools`), so its tools are named after it; a folder whose name starts like another's for those
 * 13 characters (the same name included) is told apart by its place in the workspace (`2-api · …`).
 * Decided over every folder of the window, so a folder's label does not change when another
 * folder's extensions start or stop serving tools.
 */
export function definitionLabels(folders: readonly { name: string; index: number }[]): string[] {
  if (folders.length <= 1) return folders.map(() => MCP_DEFINITION_LABEL);
  const plain = folders.map((f) => `${f.name} · ${MCP_DEFINITION_LABEL}`);
  const keys = plain.map(labelKey);
  return plain.map((label, i) =>
    keys.indexOf(keys[i]) === keys.lastIndexOf(keys[i]) ? label : `${folders[i].index + 1}-${label}`,
  );
}

/**
 * Each folder session with its definition's label, in workspace order: the one place a folder's
 * label is computed, read by the definitions VS Code lists (provider.ts) and by the hook path that
 * recognises the tools VS Code names after them (agentHooks.ts), so the two never disagree.
 */
export function labelledSessions<S extends { folder: { name: string; index: number } }>(
  sessions: readonly S[],
): { session: S; label: string }[] {
  const all = [...sessions].sort((a, b) => a.folder.index - b.folder.index);
  const labels = definitionLabels(all.map((s) => s.folder));
  return all.map((session, i) => ({ session, label: labels[i] }));
}
