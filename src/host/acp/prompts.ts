// What a `session/request_permission` from `reasonix acp` is: an extension's blocking prompt
// (`host/ui/request`, which 1.38.11 carries as a permission request whose
// `toolCall.rawInput = {id, question, options: [{Label, Description}], multi}` and whose options are
// `<id>:1…n` plus `<id>:cancel`), or the agent's own tool permission request. Reading is here; asking
// is the front end's (the same QuickPick/confirm the hosted extensions get).
import type { FormPayload, FormValues } from '../../protocol';

interface PermissionOptionLike {
  optionId: string;
  name: string;
  kind: string;
}

/** The parts of an ACP `RequestPermissionRequest` read here (the SDK checked its shape). */
export interface PermissionRequestLike {
  sessionId: string;
  toolCall: { toolCallId: string; title?: string | null; kind?: string | null; rawInput?: unknown };
  options: PermissionOptionLike[];
}

export interface ExtensionPrompt {
  /** The extension's request id (`theme`). */
  id: string;
  question: string;
  labels: string[];
  multi: boolean;
  /**
   * The answers Reasonix can take, in label order (`theme:1` …). Empty when it offers only Cancel:
   * 1.38.11 cannot take an input or a multi-field form over ACP.
   */
  optionIds: string[];
  cancelId?: string;
}

/** The extension prompt this permission request carries, or undefined when it is a tool permission request. */
export function readExtensionPrompt(req: PermissionRequestLike): ExtensionPrompt | undefined {
  const raw = req.toolCall.rawInput;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const o = raw as Record<string, unknown>;
  if (typeof o.id !== 'string' || typeof o.question !== 'string' || !Array.isArray(o.options)) return undefined;
  const id = o.id;
  const ours = req.options.filter((x) => x.optionId.startsWith(`${id}:`));
  if (ours.length !== req.options.length) return undefined;
  const numbered = ours
    .map((x) => ({ x, n: Number(x.optionId.slice(id.length + 1)) }))
    .filter(({ n }) => Number.isSafeInteger(n) && n >= 1)
    .sort((a, b) => a.n - b.n);
  const labels = numbered.map(({ x, n }) => {
    const entry = o.options as unknown[];
    const l = entry[n - 1];
    const label = l && typeof l === 'object' ? (l as Record<string, unknown>).Label : undefined;
    return typeof label === 'string' && label ? label : x.name;
  });
  const cancel = ours.find((x) => x.optionId === `${id}:cancel`);
  const out: ExtensionPrompt = {
    id,
    question: o.question,
    labels,
    multi: o.multi === true,
    optionIds: numbered.map(({ x }) => x.optionId),
  };
  if (cancel) out.cancelId = cancel.optionId;
  return out;
}

/**
 * The prompt as the one-question form the UI hub asks (a select of the labels). A multi prompt is
 * asked as a select too: an ACP permission answer carries one option.
 */
export function promptForm(p: ExtensionPrompt): FormPayload {
  return { fields: [{ key: 'value', kind: 'select', label: p.question, options: p.labels, required: true }] };
}

/** The option id answering `values` (the label chosen), or the cancel id / undefined when none matches. */
export function answerOption(p: ExtensionPrompt, values: FormValues): string | undefined {
  const v = values.value;
  const label = Array.isArray(v) ? v[0] : v;
  const i = typeof label === 'string' ? p.labels.indexOf(label) : -1;
  return i >= 0 ? p.optionIds[i] : p.cancelId;
}

/** The agent's own tool permission request as the face asks it: the tool, its input, the options Reasonix offers. */
export interface ToolPermission {
  sessionKey: string;
  folderName: string;
  /** Redacted. */
  tool: string;
  /** The tool's input as JSON text, redacted and bounded. */
  input: string;
  options: { optionId: string; name: string; kind: string }[];
}

/** Asks the user about a tool permission; resolves the option chosen, or undefined when dismissed. */
export type PermissionAsker = (req: ToolPermission, signal: AbortSignal) => Promise<string | undefined>;
