// The identity of a window's MCP servers, one per folder serving tools (issues 38 and 41), as VS Code
// 1.139 reads it (its shipped code):
// - the definition's label is the server's id: an extension-provided server is kept under
//   `<extension id>/<label>` (its cached tools, its enablement, and the `serverDefinitionId` every
//   chat card of an old transcript names). So a folder's label is the same whether one or many
//   folders are open and across reloads: `Reasonix extension tools · <folder name>`.
// - the tools are named `mcp_` + the first 13 characters of the server's `serverInfo.title` (else its
//   name, else the label; lower-cased, every run of other characters than [a-z0-9_.-] made `_`) + `_`
//   + the tool, cut at 64; servers whose 13 characters agree are numbered in the order they start.
//   So each folder's server gives itself a title (src/host/mcp/server.ts) that VS Code keeps whole
//   and that no other folder's shares: `Reasonix` alone, the folder's name among several.
// No vscode import: unit-tested.
import { createHash } from 'node:crypto';
import { MCP_DEFINITION_LABEL, MCP_TOOL_TITLE, VSCODE_LABEL_KEY_LENGTH } from '../../host/tools';

export interface LabelledFolder {
  name: string;
  index: number;
  /** The folder's path: tells apart two folders of the same name, the same way every run. */
  path?: string;
}

const shortHash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 6);

/**
 * The label of each workspace folder's definition (in workspace order): `Reasonix extension tools ·
 * <name>`, one folder or many; two open folders of the same name are told apart by a short hash of
 * their path (stable across reloads, whatever other folders are open).
 */
export function definitionLabels(folders: readonly LabelledFolder[]): string[] {
  const count = new Map<string, number>();
  for (const f of folders) count.set(f.name, (count.get(f.name) ?? 0) + 1);
  return folders.map((f) =>
    (count.get(f.name) ?? 0) > 1
      ? `${MCP_DEFINITION_LABEL} · ${f.name} (${shortHash(f.path ?? String(f.index))})`
      : `${MCP_DEFINITION_LABEL} · ${f.name}`,
  );
}

/**
 * `name` as VS Code's 13-character key, cut at a word boundary (`-`, `_`, `.`) when it is longer and
 * one lies far enough in, so the tool names never show half a word.
 */
export function wordKey(name: string): string {
  const whole = name
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (whole.length <= VSCODE_LABEL_KEY_LENGTH) return whole || 'folder';
  const head = whole.slice(0, VSCODE_LABEL_KEY_LENGTH + 1);
  const cut = Math.max(head.lastIndexOf('-'), head.lastIndexOf('_'), head.lastIndexOf('.'));
  return cut >= 3 ? whole.slice(0, cut) : whole.slice(0, VSCODE_LABEL_KEY_LENGTH);
}

/**
 * The `serverInfo.title` of each folder's server (in workspace order): `Reasonix` in a one-folder
 * window (tools read `mcp_reasonix_ext__<plugin>__<tool>`); among several folders the folder's name
 * as a whole word (`mcp_api_ext__…`), and where two folders' keys agree, the later ones numbered by
 * their place (`2-api`), so VS Code never numbers them in the order they happen to start.
 */
export function toolTitles(folders: readonly LabelledFolder[]): string[] {
  if (folders.length <= 1) return folders.map(() => MCP_TOOL_TITLE);
  const keys = folders.map((f) => wordKey(f.name));
  return keys.map((k, i) => (keys.indexOf(k) === i ? k : wordKey(`${folders[i].index + 1}-${folders[i].name}`)));
}

/**
 * Each folder session with its definition's label and its server's title, in workspace order: the
 * one place they are computed, read by the definitions VS Code lists (provider.ts), the server the
 * window serves for the folder (its title), and the hook path that recognises the tools VS Code
 * names after that title (agentHooks.ts), so they never disagree.
 */
export function labelledSessions<S extends { folder: { name: string; index: number; uri?: { fsPath: string } } }>(
  sessions: readonly S[],
): { session: S; label: string; title: string }[] {
  const all = [...sessions].sort((a, b) => a.folder.index - b.folder.index);
  const folders = all.map((s) => ({ name: s.folder.name, index: s.folder.index, path: s.folder.uri?.fsPath }));
  const labels = definitionLabels(folders);
  const titles = toolTitles(folders);
  return all.map((session, i) => ({ session, label: labels[i], title: titles[i] }));
}
