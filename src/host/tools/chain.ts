// The one interceptor chain around a tool call (HOST_SPEC_V2 §12 "permission", "interceptors"):
// `tool.before` (which may replace the arguments, or name another tool), then `permission.decision`
// (the tool's readOnly hint, the host's own decision `allow`: a face that asks the user has asked),
// then, around the call the caller makes, `tool.after` over the result the model would read. Who
// takes part and what a replacement may be is the dispatcher's decision; this file reads outcomes.
//
// Every caller walks the same two steps and differs only in how a point is asked (`AskPoint`) and
// in its rename policy, chosen on purpose:
//   - the engine's call (tools/call.ts): MCP clients (a VS Code window's or `reasonix-host mcp`'s),
//     `reasonix-host tool`, Call Tool…, and (issue 41) a tool called from an MCP App view on a chat
//     card all call through it. Policy `follow`, as Reasonix does: a tool.before replacement may
//     name another offered tool, and the call goes to that tool.
//   - an agent hook (hooks/mapping.ts, PreToolUse/PostToolUse): policy `refuse`. The agent calls
//     the tool it chose; a hook answer can replace arguments (updatedInput) but has no way to name
//     another tool, so a rename is refused rather than silently ignored. It asks through a
//     DeadlineAsker (the hook's deadline), which calls the session from here.
// A refusal has one shape (`Refusal`); each face words it for its reader (call.ts for the model,
// mapping.ts for the agent's user).
import type { HookPayloadMap } from '../intercepts';
import type { ToolChainDispatcher, ToolPoint } from './ports';

/** What a dispatched point came to, as the engine's dispatcher and the session both report it. */
export interface ChainOutcome {
  decision: string;
  payload: unknown;
  changedBy: readonly string[];
  reason?: string;
  blockedBy?: string;
  error?: { reason: string; message: string; pluginId: string };
}

/** How one point was asked. */
export type PointRuling =
  | { kind: 'outcome'; outcome: ChainOutcome }
  /** Nobody took part (or no optional member could be heard within the caller's deadline). */
  | { kind: 'skipped' }
  /** A required member could not be asked (not running, or no answer within the caller's deadline). */
  | { kind: 'required-down'; pluginId: string; why: string };

/** Asks one point; `knownTools` is passed on to the dispatcher when renames are followed. */
export type AskPoint = <P extends ToolPoint>(
  point: P,
  payload: HookPayloadMap[P],
  opts: { knownTools?: (name: string) => boolean },
) => Promise<PointRuling>;

/** An optional member that could not be heard: its failure's reason and words (`ours`: the caller's own words). */
export interface Unheard {
  pluginId: string;
  reason: string;
  message: string;
  ours?: boolean;
}

/** What a caller that asks within a deadline needs of the folder's session: the dispatcher's walk and members. */
export interface RulingSession {
  dispatch(
    point: string,
    payload: unknown,
    opts?: { signal?: AbortSignal },
  ): Promise<ChainOutcome & { skipped?: readonly Unheard[] }>;
  interceptorsAt(point: string): readonly { pluginId: string; required: boolean; running: boolean; state?: string }[];
}

/**
 * Asks points of the session within one deadline (an agent hook's): who takes part, and who is
 * required, is the dispatcher's answer (interceptorsAt), never derived here; a dispatch that runs
 * out of time is cancelled through its signal, so no intercept keeps running for a caller that gave
 * up. The chain calls the session from here, so the caller's room is not entered again.
 */
export class DeadlineAsker {
  /** Every optional member not heard at any point asked. */
  readonly unheard: Unheard[] = [];

  constructor(
    private readonly session: RulingSession,
    private readonly deadlineAt: number,
  ) {}

  /** The chain's AskPoint: the deadline instead of a caller's signal. */
  readonly ask: AskPoint = (point, payload) => this.point(point, payload);

  async point(point: string, payload: unknown): Promise<PointRuling> {
    const members = this.session.interceptorsAt(point);
    if (members.length === 0) return { kind: 'skipped' };
    // A required member that is not running cannot be asked: the operation fails closed.
    const down = members.find((m) => m.required && !m.running);
    if (down) return { kind: 'required-down', pluginId: down.pluginId, why: `it is ${down.state ?? 'not running'}` };
    const timeout = new AbortController();
    const budget = `no answer within the ${point} budget`;
    const timer = setTimeout(() => timeout.abort(new Error(budget)), Math.max(0, this.deadlineAt - Date.now()));
    try {
      const outcome = await this.session.dispatch(point, payload, { signal: timeout.signal });
      this.unheard.push(...(outcome.skipped ?? []));
      return { kind: 'outcome', outcome };
    } catch (err) {
      if (!timeout.signal.aborted) throw err;
      const required = members.find((m) => m.required);
      if (required) return { kind: 'required-down', pluginId: required.pluginId, why: budget };
      // No optional member was heard in time: say so (never an allow by silence).
      for (const m of members)
        this.unheard.push({ pluginId: m.pluginId, reason: 'intercept_timeout', message: budget, ours: true });
      return { kind: 'skipped' };
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * The engine's way to ask: the folder's current dispatcher, directly (its members, budgets and
 * required class are the dispatcher's), under the caller's signal. `dispatcher` is read at each
 * point, so a reload between tool.before and tool.after is followed.
 */
export function dispatchAsker(dispatcher: () => ToolChainDispatcher, signal: AbortSignal | undefined): AskPoint {
  return async (point, payload, o) => ({
    kind: 'outcome',
    outcome: await dispatcher().dispatch(point, payload, {
      ...(o.knownTools ? { knownTools: o.knownTools } : {}),
      signal,
    }),
  });
}

/**
 * `follow`: a tool.before replacement may name another tool the caller offers (`follow` answers
 * its readOnly hint, or undefined for a name not offered; the dispatcher lets only those through).
 * `refuse`: the call keeps its tool; a replacement naming another one refuses the call.
 */
export type RenamePolicy = 'refuse' | { follow(name: string): { readOnly: boolean } | undefined };

/** Why an operation was refused at a hook point (a tool's chain, or an agent hook's other points). */
export interface Refusal {
  point: string;
  /** The extension that refused, or that could not be asked. */
  by: string;
  /**
   * `block` / `deny`: its ruling (`reason` its words, redacted by the dispatcher). `unreachable`: a
   * required extension could not be asked (`reason` why; `code` the failure reason when one was
   * named). `renamed`: tool.before named `renamedTo` under the `refuse` policy. `not-object`:
   * tool.before replaced the arguments with text that is not a JSON object.
   */
  kind: 'block' | 'deny' | 'unreachable' | 'renamed' | 'not-object';
  reason?: string;
  code?: string;
  renamedTo?: string;
}

/** A block, deny or required-class failure at `point` as a refusal; undefined when the operation goes on. */
export function refusalOf(point: string, r: PointRuling): Refusal | undefined {
  if (r.kind === 'required-down') return { point, by: r.pluginId, kind: 'unreachable', reason: r.why };
  if (r.kind !== 'outcome') return undefined;
  const o = r.outcome;
  if (o.decision === 'failed')
    return {
      point,
      by: o.error?.pluginId ?? o.blockedBy ?? 'unknown',
      kind: 'unreachable',
      ...(o.error?.message ? { reason: o.error.message } : {}),
      ...(o.error?.reason ? { code: o.error.reason } : {}),
    };
  if (o.decision === 'block' || o.decision === 'deny')
    return { point, by: o.blockedBy ?? 'unknown', kind: o.decision, ...(o.reason ? { reason: o.reason } : {}) };
  return undefined;
}

/** The plugins whose replacement was applied at a point that went on, else undefined. */
function replacedBy(r: PointRuling): readonly string[] | undefined {
  return r.kind === 'outcome' && r.outcome.decision === 'continue' && r.outcome.changedBy.length
    ? r.outcome.changedBy
    : undefined;
}

/** The call as its caller has it when the chain starts. */
export interface ChainCall {
  /** The model-facing name (`ext__<plugin>__<tool>`), or a foreign tool's own name (agent hooks). */
  name: string;
  /** The arguments as JSON object text, made once. */
  argsText: string;
  readOnly?: boolean;
}

/** How tool.before and permission.decision ruled on a call they let through. */
export interface LetThrough {
  kind: 'through';
  /** The name and arguments the call goes on with (a `follow` rename changes the name). */
  name: string;
  argsText: string;
  /** Set when tool.before replaced the call: by whom, and the arguments as an object. */
  replaced?: { by: readonly string[]; args: Record<string, unknown> };
  /** Set when a permission owner allowed it outright. */
  allowed?: { by: string; reason?: string };
  /** Whether anyone took part at either point. */
  asked: boolean;
}

/** tool.before, then permission.decision. */
export async function ruleBefore(
  ask: AskPoint,
  call: ChainCall,
  policy: RenamePolicy,
): Promise<LetThrough | { kind: 'refused'; refusal: Refusal }> {
  const known = policy === 'refuse' ? undefined : (name: string) => policy.follow(name) !== undefined;
  const before = await ask('tool.before', { name: call.name, arguments: call.argsText }, { knownTools: known });
  const refusedBefore = refusalOf('tool.before', before);
  if (refusedBefore) return { kind: 'refused', refusal: refusedBefore };
  let { name, argsText, readOnly } = call;
  const by = replacedBy(before);
  let replaced: LetThrough['replaced'];
  if (by && before.kind === 'outcome') {
    const payload = before.outcome.payload as { name?: string; arguments?: string };
    const who = by.join(', ');
    if (payload.name !== name) {
      const renamed = policy === 'refuse' ? undefined : policy.follow(String(payload.name));
      if (!renamed)
        return {
          kind: 'refused',
          refusal: { point: 'tool.before', by: who, kind: 'renamed', renamedTo: String(payload.name) },
        };
      name = String(payload.name);
      readOnly = renamed.readOnly;
    }
    // The dispatcher lets through only non-empty JSON object text; checked again, since the
    // arguments are handed on as an object.
    argsText = payload.arguments ?? '';
    const args = objectOf(argsText);
    if (!args) return { kind: 'refused', refusal: { point: 'tool.before', by: who, kind: 'not-object' } };
    replaced = { by, args };
  }
  const perm = await ask(
    'permission.decision',
    { name, arguments: argsText, ...(readOnly === undefined ? {} : { readOnly }), hostDecision: 'allow' },
    {},
  );
  const refusedPerm = refusalOf('permission.decision', perm);
  if (refusedPerm) return { kind: 'refused', refusal: refusedPerm };
  const allowed =
    perm.kind === 'outcome' && perm.outcome.decision === 'allow'
      ? { by: perm.outcome.blockedBy ?? 'unknown', ...(perm.outcome.reason ? { reason: perm.outcome.reason } : {}) }
      : undefined;
  return {
    kind: 'through',
    name,
    argsText,
    ...(replaced ? { replaced } : {}),
    ...(allowed ? { allowed } : {}),
    asked: before.kind !== 'skipped' || perm.kind !== 'skipped',
  };
}

/** tool.after over what the model would read; it may withhold it, or replace its text and isError. */
export async function ruleAfter(
  ask: AskPoint,
  call: { name: string; arguments: string; result: string; isError: boolean },
): Promise<
  | { kind: 'refused'; refusal: Refusal }
  | { kind: 'through'; replaced?: { by: readonly string[]; result: string; isError: boolean }; asked: boolean }
> {
  const after = await ask('tool.after', call, {});
  const refused = refusalOf('tool.after', after);
  if (refused) return { kind: 'refused', refusal: refused };
  const by = replacedBy(after);
  if (!by || after.kind !== 'outcome') return { kind: 'through', asked: after.kind !== 'skipped' };
  const payload = after.outcome.payload as { result?: string; isError?: boolean };
  return {
    kind: 'through',
    replaced: { by, result: payload.result ?? '', isError: payload.isError === true },
    asked: true,
  };
}

function objectOf(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
