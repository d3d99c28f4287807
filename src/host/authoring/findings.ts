// What `reasonix-host check` finds in a plugin, placed on the manifest member it is about, with the
// edit that fixes it where the fix is known (an unknown member: remove it; a relative command: put
// it under ${REASONIX_PLUGIN_ROOT}; a capability, subscription or slot used but not declared: add
// it). Plain data: the VS Code face turns a finding into a diagnostic and its code action.
import { decodeManifest, PLUGIN_ROOT_VAR } from '../plugins';
import { nearestNode, nodeAt, parsePath, parseTree, syntaxErrorAt, type JsonNode, type JsonPath } from './jsonTree';

export interface TextEdit {
  offset: number;
  length: number;
  text: string;
}

export interface ManifestFinding {
  /** The member the finding is about (it may be absent from the text: then `offset` marks its parent). */
  path: JsonPath;
  /** The range to mark, in UTF-16 units of the text. */
  offset: number;
  length: number;
  /** The finding without the file name (the editor shows the file). */
  message: string;
  severity: 'error' | 'warning';
  /** `manifest`: the manifest decoder's; `check`: the running sidecar's (handshake, run, shutdown). */
  source: 'manifest' | 'check';
  fix?: FindingFix;
}

/** An edit that fixes a finding; `title` in English, `kind` and `args` for a face that words it itself. */
export interface FindingFix {
  kind: 'remove' | 'root' | 'add';
  /** remove: [member]; root: [new command]; add: [value, list path]. */
  args: string[];
  title: string;
  edits: TextEdit[];
}

/** A check's outcome as far as findings need it (the CLI's CheckReport is one). */
export interface CheckOutcome {
  ok: boolean;
  stage: string;
  message: string;
  violations: readonly { message: string }[];
  warnings: readonly { message: string }[];
}

const MEMBER_PATH =
  /^((?:runtime|requires|provides)(?:\.[^\s.[\]]+|\[\d+\])*|contributes|name|version|description|apiVersion)\b/;

/** The findings of the manifest decoder for `text` (the saved manifest at `manifestPath`, package root `root`). */
export function manifestFindings(text: string, manifestPath: string, root: string): ManifestFinding[] {
  const outcome = decodeManifest(text, manifestPath, root);
  const tree = parseTree(text);
  if (!tree) {
    if (outcome.status !== 'invalid') return [];
    const offset = syntaxErrorAt(text) ?? 0;
    return [
      {
        path: [],
        offset,
        length: 1,
        message: strip(outcome.reason, manifestPath),
        severity: 'error',
        source: 'manifest',
      },
    ];
  }
  const out: ManifestFinding[] = [];
  const problems = outcome.status === 'invalid' ? (outcome.problems ?? [outcome.reason]) : [];
  for (const p of problems) out.push(place(tree, text, strip(p, manifestPath), 'error', 'manifest'));
  if (outcome.status === 'runnable')
    for (const w of outcome.warnings) out.push(place(tree, text, strip(w, manifestPath), 'warning', 'manifest'));
  return out;
}

/** The findings of a check that got past the manifest: each violation, and the failure when it did not conform. */
export function checkFindings(text: string, report: CheckOutcome): ManifestFinding[] {
  const tree = parseTree(text);
  if (!tree) return [];
  const out: ManifestFinding[] = [];
  const seen = new Set<string>();
  const add = (message: string, severity: ManifestFinding['severity']) => {
    if (seen.has(message)) return;
    seen.add(message);
    out.push(place(tree, text, message, severity, 'check'));
  };
  for (const v of report.violations) add(v.message, 'error');
  if (!report.ok && !report.violations.length) add(report.message, 'error');
  for (const w of report.warnings) add(w.message, 'warning');
  return out;
}

function strip(message: string, file: string): string {
  return message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message.replace(`${file} `, '');
}

/** Where a message's member is, and its fix when known. */
function place(
  tree: JsonNode,
  text: string,
  message: string,
  severity: ManifestFinding['severity'],
  source: ManifestFinding['source'],
): ManifestFinding {
  const { path, fix } = analyse(tree, text, message);
  const { node, depth } = nearestNode(tree, path);
  // A member that exists: its key when the fix removes it, else its value. A missing one: its parent.
  const markKey = depth === path.length && node.keyOffset !== undefined && fix?.kind === 'remove';
  const offset = markKey ? node.keyOffset! : node.offset;
  const length = markKey ? node.key!.length + 2 : depth === 0 && path.length ? 1 : node.length;
  return { path, offset, length, message, severity, source, ...(fix ? { fix } : {}) };
}

function analyse(tree: JsonNode, text: string, message: string): { path: JsonPath; fix?: FindingFix | undefined } {
  let m = /^unknown top-level key "(.+)"$/.exec(message);
  if (m) return { path: [m[1]], fix: removeMember(tree, [m[1]]) };
  m = /^unknown key "contributes\.(.+)"$/.exec(message);
  if (m) return { path: ['contributes', m[1]], fix: removeMember(tree, ['contributes', m[1]]) };
  // The sidecar used something its manifest does not declare (src/host/sidecar/handshake.ts's wording).
  m = /(?:^|: )(?:capability|subscription|replaced slot) "(.+)" is not declared in the manifest (runtime\.\w+)$/.exec(
    message,
  );
  if (m) {
    const path = parsePath(m[2]);
    return { path, fix: addToList(tree, text, path, m[1]) };
  }
  m = /^runtime\.tools declares .* lacks "tools"/.exec(message);
  if (m) return { path: ['runtime', 'capabilities'], fix: addToList(tree, text, ['runtime', 'capabilities'], 'tools') };
  if (/which its manifest does not declare in runtime\.tools$/.test(message)) return { path: ['runtime', 'tools'] };
  if (/outside the manifest provides ceiling$/.test(message)) return { path: ['provides'] };
  const member = MEMBER_PATH.exec(message) ?? (/^unsupported apiVersion/.test(message) ? ['', 'apiVersion'] : null);
  // Not about a member (a sidecar that failed to start or broke the protocol): the command that runs it.
  if (!member) return { path: ['runtime', 'command'] };
  const path = parsePath(member[1]);
  if (/ is not a known (?:runtime field|tool member|member)\b/.test(message))
    return { path, fix: removeMember(tree, path) };
  if (/^runtime\.command must be absolute after/.test(message)) return { path, fix: rootedCommand(tree, text) };
  return { path };
}

function removeMember(tree: JsonNode, path: JsonPath): FindingFix | undefined {
  const parent = nodeAt(tree, path.slice(0, -1));
  const siblings = parent?.children ?? [];
  const j = siblings.findIndex((c) => c.key === path[path.length - 1]);
  if (!parent || j < 0) return undefined;
  const member = siblings[j];
  const end = member.offset + member.length;
  // With its comma: up to the next member's key, or from the previous member's end when it is last.
  const [from, to] =
    j + 1 < siblings.length
      ? [member.keyOffset!, siblings[j + 1].keyOffset!]
      : j > 0
        ? [siblings[j - 1].offset + siblings[j - 1].length, end]
        : [member.keyOffset!, end];
  return {
    kind: 'remove',
    args: [member.key!],
    title: `Remove "${member.key}"`,
    edits: [{ offset: from, length: to - from, text: '' }],
  };
}

/** `./bin/x` or `bin/x` → `${REASONIX_PLUGIN_ROOT}/bin/x` (only a plainly relative command). */
function rootedCommand(tree: JsonNode, text: string): FindingFix | undefined {
  const node = nodeAt(tree, ['runtime', 'command']);
  if (node?.type !== 'string') return undefined;
  const command = JSON.parse(text.slice(node.offset, node.offset + node.length)) as string;
  if (!command || command.startsWith('$') || command.startsWith('/') || /^[A-Za-z]:[\\/]/.test(command))
    return undefined;
  const rooted = `${PLUGIN_ROOT_VAR}/${command.replace(/^\.[\\/]/, '')}`;
  return {
    kind: 'root',
    args: [rooted],
    title: `Use "${rooted}"`,
    edits: [{ offset: node.offset, length: node.length, text: JSON.stringify(rooted) }],
  };
}

/** Adds `value` to the string list at `path` (`runtime.capabilities`, …), creating the list when absent. */
function addToList(tree: JsonNode, text: string, path: JsonPath, value: string): FindingFix | undefined {
  const title = `Add "${value}" to ${path.join('.')}`;
  const fix = (edits: TextEdit[]): FindingFix => ({ kind: 'add', args: [value, path.join('.')], title, edits });
  const list = nodeAt(tree, path);
  const item = JSON.stringify(value);
  if (list?.type === 'array') {
    const last = list.children![list.children!.length - 1];
    if (!last) return fix([{ offset: list.offset, length: list.length, text: `[${item}]` }]);
    return fix([{ offset: last.offset + last.length, length: 0, text: `, ${item}` }]);
  }
  if (list) return undefined;
  const parent = nodeAt(tree, path.slice(0, -1));
  if (parent?.type !== 'object') return undefined;
  const member = `${JSON.stringify(path[path.length - 1])}: [${item}]`;
  const last = parent.children![parent.children!.length - 1];
  if (!last) return fix([{ offset: parent.offset, length: parent.length, text: `{ ${member} }` }]);
  const lineStart = text.lastIndexOf('\n', last.keyOffset!) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
  const sameLine = lineStart > parent.offset && /^\s*$/.test(text.slice(lineStart, last.keyOffset));
  return fix([
    { offset: last.offset + last.length, length: 0, text: sameLine ? `,\n${indent}${member}` : `, ${member}` },
  ]);
}
