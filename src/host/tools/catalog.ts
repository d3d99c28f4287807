// The folder's tools (HOST_SPEC_V2 §12 "activation", "model-facing name"): only tools a running
// sidecar of the published generation serves are offered; description and input schema come from
// the manifest. The faces list this and fire their change event when `toolListKey` changes.
import type { ToolDecl } from '../plugins';
import type { ToolClient } from './ports';
import type { ToolInfo, ToolRef } from './types';

/** `ext__<installed plugin id>__<tool name>`, the name the model and the interceptors see. */
export function modelFacingName(pluginId: string, tool: string): string {
  return `ext__${pluginId}__${tool}`;
}

/** The name our MCP server gives itself (serverInfo). */
export const MCP_SERVER_NAME = 'reasonix';
/** The label of a VS Code window's MCP server definitions, before ` · <folder name>` (src/vscode/mcp/labels.ts). */
export const MCP_DEFINITION_LABEL = 'Reasonix extension tools';
/**
 * The title our MCP server gives itself (serverInfo) unless told another: VS Code names an MCP tool
 * after its server's title, so its tools read `mcp_reasonix_<tool>` (a VS Code window's servers
 * among several folders take the folder's name instead, src/vscode/mcp/labels.ts).
 */
export const MCP_TOOL_TITLE = 'Reasonix';

/**
 * Whether an agent's name for a tool is ours for `modelName` when served through our MCP server.
 * VS Code names an MCP tool `<prefix><tool>`, dots made underscores, cut at 64 characters, where the
 * prefix is `mcp_`, the server's title (serverInfo; else its label) lower-cased with other
 * characters made `_` and cut (at most 13 characters, fewer when a number tells servers of the same
 * title apart), and `_`: ours read `mcp_reasonix_` in a single-folder window and `mcp_api_` for
 * folder `api` of several (src/vscode/mcp/labels.ts) (VS Code 1.139). `titles` are the titles to
 * recognise. Claude Code names it `mcp__<server key>__<tool>` (the key is the user's choice).
 */
export function isAgentNameFor(
  agentName: string,
  modelName: string,
  titles: readonly string[] = [MCP_TOOL_TITLE],
): boolean {
  if (agentName.startsWith('mcp__')) return agentName.endsWith(`__${modelName}`);
  const tail = modelName.replaceAll('.', '_');
  for (const title of titles) {
    const prefix = vscodeToolPrefix(agentName, labelKey(title));
    if (prefix && (prefix + tail).slice(0, 64) === agentName) return true;
  }
  return false;
}

/** How many characters of a server's label VS Code keeps in its tools' names. */
export const VSCODE_LABEL_KEY_LENGTH = 13;

/** The part of a server's `label` VS Code puts in its tools' names (VS Code 1.139). */
export function labelKey(label: string): string {
  return label
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '_')
    .slice(0, VSCODE_LABEL_KEY_LENGTH);
}

/**
 * The prefix `agentName` starts with when VS Code made it from a label of key `key`: `mcp_<key>_`,
 * or for the n-th server of that key `mcp_<key cut>n_` (the number replaces the key's last characters).
 */
function vscodeToolPrefix(agentName: string, key: string): string | undefined {
  if (agentName.startsWith(`mcp_${key}_`)) return `mcp_${key}_`;
  for (let digits = 1; digits <= 3; digits++) {
    const head = `mcp_${key.slice(0, VSCODE_LABEL_KEY_LENGTH - digits)}`;
    const n = agentName.slice(head.length, head.length + digits);
    if (agentName.startsWith(head) && /^[1-9]\d*$/.test(n) && n.length === digits && n !== '1')
      if (agentName[head.length + digits] === '_') return agentName.slice(0, head.length + digits + 1);
  }
  return undefined;
}

function info(pluginId: string, t: ToolDecl, ui = false): ToolInfo {
  return {
    pluginId,
    name: t.name,
    modelName: modelFacingName(pluginId, t.name),
    description: t.description,
    inputSchema: t.inputSchema,
    readOnly: t.readOnly,
    mayAnchorView: ui && t.anchorsView === true,
  };
}

/**
 * What every model-facing name must match: the tool-name rule of the OpenAI and Anthropic APIs
 * (MCP clients such as VS Code's and Claude Code's pass the name on to them).
 */
export const MODEL_FACING_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** A tool the folder does not offer although its extension serves it, and why (issue 45 item 1). */
export interface WithheldTool {
  pluginId: string;
  name: string;
  modelName: string;
  /** Names the tool, the extension(s) and what to change. */
  problem: string;
}

/** What the catalog reads of a client: tests and `check` pass plain records. */
export type CatalogClient = Pick<ToolClient, 'pluginId' | 'state' | 'tools'>;

/**
 * The folder's one rule for model-facing names (issue 45 item 1): a tool is withheld, neither
 * listed nor callable, when its name is outside MODEL_FACING_NAME, or when another tool of the
 * same generation has the same name (a plugin id and a tool name may both contain `__`, so
 * `a` + `x__y` and `a__x` + `y` are both `ext__a__x__y`). Every tool sharing a name is withheld,
 * not just the later one: which one would win is an accident of order, and a `tool.before` rule on
 * the name would govern both, so no extension can shadow another's tool. Every client of the
 * generation counts, running or not, so a crash never hands a name over to the other extension.
 */
export function withheldTools(clients: readonly CatalogClient[]): WithheldTool[] {
  const byName = new Map<string, { pluginId: string; name: string }[]>();
  for (const c of clients)
    for (const t of c.tools) {
      const modelName = modelFacingName(c.pluginId, t.name);
      const same = byName.get(modelName);
      if (same) same.push({ pluginId: c.pluginId, name: t.name });
      else byName.set(modelName, [{ pluginId: c.pluginId, name: t.name }]);
    }
  const out: WithheldTool[] = [];
  for (const [modelName, owners] of byName) {
    const valid = MODEL_FACING_NAME.test(modelName);
    if (valid && owners.length < 2) continue;
    const why = valid
      ? `extensions ${owners.map((o) => `${o.pluginId} (tool ${o.name})`).join(' and ')} both give the name ${modelName}, and neither may shadow the other`
      : `its name ${modelName} (${modelName.length} characters) is not 1 to 64 letters, digits, '_' or '-', the only tool names models accept`;
    for (const o of owners)
      out.push({
        ...o,
        modelName,
        problem: `tool ${o.name} of extension ${o.pluginId} is not offered: ${why}; rename the tool or the plugin`,
      });
  }
  return out;
}

const withheldKey = (pluginId: string, name: string) => `${pluginId}\u0000${name}`;

function withheldSet(clients: readonly CatalogClient[]): Map<string, WithheldTool> {
  return new Map(withheldTools(clients).map((w) => [withheldKey(w.pluginId, w.name), w]));
}

/** The tools the running clients serve, in client order, then manifest order; withheld ones left out. */
export function listTools(clients: readonly (CatalogClient & Pick<ToolClient, 'ui'>)[]): ToolInfo[] {
  const withheld = withheldSet(clients);
  const out: ToolInfo[] = [];
  for (const c of clients)
    if (c.state === 'running')
      for (const t of c.tools) if (!withheld.has(withheldKey(c.pluginId, t.name))) out.push(info(c.pluginId, t, c.ui));
  return out;
}

/** Equal keys mean an equal listing (names, descriptions, schemas, hints, in order). */
export function toolListKey(tools: readonly ToolInfo[]): string {
  return JSON.stringify(tools.map((t) => [t.modelName, t.description, t.readOnly, t.mayAnchorView, t.inputSchema]));
}

/** A tool of the folder by reference, and the client that serves (or, if down, last served) it. */
export interface ResolvedTool {
  client: ToolClient;
  tool: ToolInfo;
}

/**
 * Looks a ref up among every client of the generation, running or not: a tool of a crashed sidecar
 * is no longer listed, but a call by its name resolves, so it fails as interrupted rather than as
 * unknown. Exact names only (a plugin id may itself contain `__`, so the prefix is never parsed).
 * A withheld tool resolves to its problem, never to a client.
 */
export function resolveTool(
  clients: readonly ToolClient[],
  ref: ToolRef,
): ResolvedTool | { withheld: WithheldTool } | undefined {
  const withheld = withheldSet(clients);
  for (const client of clients) {
    for (const t of client.tools) {
      const hit =
        typeof ref === 'string'
          ? modelFacingName(client.pluginId, t.name) === ref
          : ref.pluginId === client.pluginId && ref.name === t.name;
      if (!hit) continue;
      const w = withheld.get(withheldKey(client.pluginId, t.name));
      return w ? { withheld: w } : { client, tool: info(client.pluginId, t, client.ui) };
    }
  }
  return undefined;
}

/** The model-facing name of a ref (for an outcome whose ref resolved to nothing). */
export function refName(ref: ToolRef): string {
  return typeof ref === 'string' ? ref : modelFacingName(ref.pluginId, ref.name);
}

/** What `declaredTools` reads of a manifest. */
export interface DeclaredPlugin {
  id: string;
  runtime: { tools: readonly ToolDecl[]; capabilities: readonly string[] };
}

/**
 * The tools a folder will list once its extensions run, read from their manifests with no process
 * (a folder waiting for its first use, docs/scale.md): every declared tool under the same name and
 * withholding rules as `listTools`. A sidecar that names fewer tools at its handshake lists fewer.
 */
export function declaredTools(plugins: readonly DeclaredPlugin[]): ToolInfo[] {
  return listTools(
    plugins.map((p) => ({
      pluginId: p.id,
      state: 'running' as const,
      tools: p.runtime.tools,
      ui: p.runtime.capabilities.includes('ui'),
    })),
  );
}
