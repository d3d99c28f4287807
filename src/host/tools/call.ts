// One tool call as the engine makes it (HOST_SPEC_V2 §12 "permission", "interceptors"): the folder's
// `tool.before` chain with the model-facing name (a replacement of the arguments is what the sidecar
// receives), then `permission.decision` (the tool's readOnly hint, the host's own decision `allow`:
// the face has already asked the user where it asks at all), then `extension/tool/call`, then
// `tool.after` over the result the model would read. The dispatcher decides who takes part; this
// file only reads its outcomes.
import type { DispatchOutcome } from '../intercepts';
import { redact } from '../redact';
import { listTools, refName, resolveTool, type ResolvedTool } from './catalog';
import type { ToolCaller, ToolRun } from './caller';
import { contentForModel } from './content';
import type { ToolChainDispatch, ToolClient, ToolPoint } from './ports';
import type { ToolCallOptions, ToolCallOutcome, ToolRef } from './types';
import type { ToolArgumentChecker } from '../arguments';

export interface ToolCallDeps {
  /** Every client of the published generation, running or not. */
  clients(): readonly ToolClient[];
  callerFor(client: ToolClient): ToolCaller;
  dispatch: ToolChainDispatch;
  /** The input-schema check (issue 45 item 7), loaded on the first call that needs it. */
  argumentChecker(): ToolArgumentChecker;
  /** Told when a tool's schema cannot be compiled and its arguments go unchecked (logged once). */
  uncheckedSchema?(note: string): void;
}

type Identity = { pluginId: string; name: string; modelName: string };

function identity(r: ResolvedTool): Identity {
  return { pluginId: r.tool.pluginId, name: r.tool.name, modelName: r.tool.modelName };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Never rejects: every way a call ends is an outcome. */
export async function callTool(
  deps: ToolCallDeps,
  ref: ToolRef,
  args: unknown,
  opts: ToolCallOptions = {},
): Promise<ToolCallOutcome> {
  const mode = opts.interceptors ?? 'engine';
  const found = resolveTool(deps.clients(), ref);
  if (found && 'withheld' in found) {
    const { problem, ...who } = found.withheld;
    return { ...who, kind: 'failed', reason: 'not_offered', message: redact(problem) };
  }
  let target = found;
  if (!target) {
    const name = refName(ref);
    return {
      kind: 'failed',
      modelName: name,
      reason: 'not_offered',
      message: `no extension of this folder offers a tool named ${redact(name)}; list the folder's tools (reasonix-host tools) and check that its extension is running`,
    };
  }
  if (mode !== 'engine' && mode !== 'after')
    return invalid(target, `interceptors must be 'engine' or 'after', not ${JSON.stringify(mode)}`);
  if (args !== undefined && !isPlainObject(args))
    return invalid(target, `the arguments of ${target.tool.modelName} must be a JSON object`);
  let sent: Record<string, unknown> = args ?? {};
  const unfit = argumentProblem(deps, target, sent);
  if (unfit) return invalid(target, unfit);
  // The arguments as the interceptors see them: made once, replaced only by a tool.before ruling.
  let sentText = JSON.stringify(sent);
  try {
    if (mode === 'engine') {
      const before = await beforeCall(deps, target, { args: sent, text: sentText }, opts.signal);
      if ('kind' in before) return before;
      ({ target, args: sent, text: sentText } = before);
      if (before.replacedBy) {
        const bad = argumentProblem(deps, target, sent);
        if (bad) return invalid(target, `${bad} (as "${before.replacedBy}" replaced them at tool.before)`);
      }
    }
    const run = await deps.callerFor(target.client).call(target.tool.name, sent, { signal: opts.signal });
    if (run.kind === 'failed') return { ...identity(target), ...run };
    return await afterCall(deps, target, sentText, run, opts.signal);
  } catch (err) {
    // The dispatcher rejects only when the signal aborted during a chain.
    if (opts.signal?.aborted)
      return {
        ...identity(target),
        kind: 'failed',
        reason: 'cancelled',
        message: `tool ${target.tool.modelName} was cancelled by the caller while its interceptors ran`,
      };
    return {
      ...identity(target),
      kind: 'failed',
      reason: 'internal',
      message: `tool ${target.tool.modelName} could not run: ${redact(String((err as Error)?.message ?? err))}`,
    };
  }
}

/** Why `args` cannot go to the sidecar (the checker's words), or undefined; an unchecked schema is told once. */
function argumentProblem(deps: ToolCallDeps, target: ResolvedTool, args: Record<string, unknown>): string | undefined {
  const r = deps.argumentChecker().check(target.tool, args);
  if (r.unchecked) deps.uncheckedSchema?.(r.unchecked);
  return r.refusal && redact(r.refusal);
}

function invalid(target: ResolvedTool, message: string): ToolCallOutcome {
  return { ...identity(target), kind: 'failed', reason: 'invalid_params', message };
}

/**
 * The one rule for credentials in how a call ended (issue 45 item 9): text that reports a failure is
 * redacted whatever shape carries it (a JSON-RPC error's message, an `isError: true` result, a
 * refusal's reason, our own failure texts); a successful result's content is the tool's answer, the
 * model's product data (HOST_SPEC_V2 §12), passed unchanged (its log copy is redacted).
 */
function failureText(content: string, isError: boolean): string {
  return isError ? redact(content) : content;
}

function resultOf(target: ResolvedTool, content: string, isError: boolean, changedBy?: string[]): ToolCallOutcome {
  const c = contentForModel(failureText(content, isError));
  return {
    ...identity(target),
    kind: 'result',
    content: c.content,
    isError,
    ...(c.truncatedFrom === undefined ? {} : { truncatedFrom: c.truncatedFrom }),
    ...(changedBy?.length ? { changedBy } : {}),
  };
}

/** A block, deny or required-class failure at `point`, as the refusal the model reads; else undefined. */
function refusal(target: ResolvedTool, point: ToolPoint, out: DispatchOutcome): ToolCallOutcome | undefined {
  if (out.decision !== 'block' && out.decision !== 'deny' && out.decision !== 'failed') return undefined;
  const by = out.blockedBy ?? out.error?.pluginId ?? 'unknown';
  const tool = target.tool.modelName;
  const why = out.decision === 'failed' ? out.error?.message : out.reason;
  const verb =
    out.decision === 'failed'
      ? `could not be asked about ${tool} at ${point} (${out.error?.reason}), so the call is refused until it runs again`
      : point === 'tool.after'
        ? `withheld the result of ${tool}`
        : out.decision === 'deny'
          ? `denied ${tool}`
          : `blocked ${tool}`;
  return {
    ...identity(target),
    kind: 'refused',
    point,
    by,
    message: `Reasonix extension "${by}" ${verb}${why ? `: ${redact(why)}` : ''}`,
  };
}

/** tool.before (which may replace the arguments or rename the call to another offered tool), then permission. */
async function beforeCall(
  deps: ToolCallDeps,
  target: ResolvedTool,
  call: { args: Record<string, unknown>; text: string },
  signal: AbortSignal | undefined,
): Promise<
  { target: ResolvedTool; args: Record<string, unknown>; text: string; replacedBy?: string } | ToolCallOutcome
> {
  let { args, text } = call;
  const offered = listTools(deps.clients());
  const known = new Set(offered.map((t) => t.modelName));
  const before = await deps.dispatch(
    'tool.before',
    { name: target.tool.modelName, arguments: text },
    { knownTools: (name) => known.has(name), signal },
  );
  const refused = refusal(target, 'tool.before', before);
  if (refused) return refused;
  if (before.changedBy.length) {
    // The dispatcher let through only non-empty JSON object text and an offered name.
    text = before.payload.arguments as string;
    args = JSON.parse(text) as Record<string, unknown>;
    if (before.payload.name !== target.tool.modelName) {
      // The dispatcher let through only an offered name, and an offered name is never withheld.
      const renamed = resolveTool(deps.clients(), before.payload.name);
      if (renamed && !('withheld' in renamed)) target = renamed;
    }
  }
  const perm = await deps.dispatch(
    'permission.decision',
    { name: target.tool.modelName, arguments: text, readOnly: target.tool.readOnly, hostDecision: 'allow' },
    { signal },
  );
  return (
    refusal(target, 'permission.decision', perm) ?? {
      target,
      args,
      text,
      ...(before.changedBy.length ? { replacedBy: before.changedBy.join(', ') } : {}),
    }
  );
}

/** tool.after sees what the model would read and may replace it (result text and isError). */
async function afterCall(
  deps: ToolCallDeps,
  target: ResolvedTool,
  argsText: string,
  run: ToolRun & { kind: 'result' },
  signal: AbortSignal | undefined,
): Promise<ToolCallOutcome> {
  const shown = contentForModel(failureText(run.content, run.isError));
  const after = await deps.dispatch(
    'tool.after',
    { name: target.tool.modelName, arguments: argsText, result: shown.content, isError: run.isError },
    { signal },
  );
  const refused = refusal(target, 'tool.after', after);
  if (refused) return refused;
  if (!after.changedBy.length) return resultOf(target, run.content, run.isError);
  return resultOf(target, after.payload.result ?? '', after.payload.isError === true, after.changedBy);
}
