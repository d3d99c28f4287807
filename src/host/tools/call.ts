// One tool call as the engine makes it: the arguments checked, the tool chain's tool.before and
// permission.decision (chain.ts, renames followed; a replacement of the arguments is what the
// sidecar receives), then `extension/tool/call`, then tool.after over the result the model would
// read. MCP clients, `reasonix-host tool` and Call Tool… all call through here.
import { redact } from '../redact';
import { dispatchAsker, ruleAfter, ruleBefore, type Refusal } from './chain';
import { listTools, refName, resolveTool, type ResolvedTool } from './catalog';
import type { ToolCaller, ToolRun } from './caller';
import { contentForModel } from './content';
import type { ToolChainDispatcher, ToolClient, ToolPoint } from './ports';
import { CALL_ID_META_KEY, type ToolCallOptions, type ToolCallOutcome, type ToolRef } from './types';
import type { ToolArgumentChecker } from '../arguments';

/**
 * What the session hands a call, as data where it can be (so the call never enters the session again
 * on its way to the sidecar): the clients and their call queues as the call began, the checker.
 */
export interface ToolCallDeps {
  /** Every client of the published generation when the call began, running or not. */
  clients: readonly ToolClient[];
  /** Each client's call queue (its ToolCaller). */
  callers: ReadonlyMap<ToolClient, ToolCaller>;
  /** The folder's current dispatcher, read at each point (a reload between them is followed). */
  dispatcher(): ToolChainDispatcher;
  /** The input-schema check (issue 45 item 7), loaded by the session on the first call. */
  argumentChecker: ToolArgumentChecker;
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
  const found = resolveTool(deps.clients, ref);
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
    const run = await deps.callers
      .get(target.client)!
      .call(target.tool.name, withCallId(sent, target, opts.callId), { signal: opts.signal });
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

/**
 * The arguments the sidecar receives: with the caller's call id in `_meta` when the tool's extension
 * may anchor a view to it (issue 41); any other tool gets the arguments exactly as ruled.
 */
function withCallId(
  args: Record<string, unknown>,
  target: ResolvedTool,
  callId: string | undefined,
): Record<string, unknown> {
  if (callId === undefined || !target.tool.mayAnchorView) return args;
  const meta = isPlainObject(args._meta) ? args._meta : {};
  return { ...args, _meta: { ...meta, [CALL_ID_META_KEY]: callId } };
}

/** Why `args` cannot go to the sidecar (the checker's words), or undefined; an unchecked schema is told once. */
function argumentProblem(deps: ToolCallDeps, target: ResolvedTool, args: Record<string, unknown>): string | undefined {
  const r = deps.argumentChecker.check(target.tool, args);
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

/**
 * A refusal as the model reads it (and the MCP client, the CLI): it names the tool, since the
 * model may have asked for several. Agent hooks word the same refusal for their user (mapping.ts).
 */
function refused(target: ResolvedTool, r: Refusal): ToolCallOutcome {
  const tool = target.tool.modelName;
  const verb =
    r.kind === 'unreachable'
      ? `could not be asked about ${tool} at ${r.point} (${r.code}), so the call is refused until it runs again`
      : r.kind === 'not-object'
        ? `replaced the arguments of ${tool} with text that is not a JSON object`
        : r.kind === 'renamed'
          ? `renamed ${tool} to a tool this folder does not offer`
          : r.point === 'tool.after'
            ? `withheld the result of ${tool}`
            : r.kind === 'deny'
              ? `denied ${tool}`
              : `blocked ${tool}`;
  return {
    ...identity(target),
    kind: 'refused',
    point: r.point as ToolPoint,
    by: r.by,
    message: `Reasonix extension "${r.by}" ${verb}${r.reason ? `: ${redact(r.reason)}` : ''}`,
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
  const offered = new Map(listTools(deps.clients).map((t) => [t.modelName, t]));
  const ruling = await ruleBefore(
    dispatchAsker(deps.dispatcher, signal),
    { name: target.tool.modelName, argsText: call.text, readOnly: target.tool.readOnly },
    { follow: (name) => offered.get(name) },
  );
  if (ruling.kind === 'refused') return refused(target, ruling.refusal);
  if (ruling.name !== target.tool.modelName) {
    // Only an offered name gets through, and an offered name is never withheld.
    const renamed = resolveTool(deps.clients, ruling.name);
    if (renamed && !('withheld' in renamed)) target = renamed;
  }
  if (!ruling.replaced) return { target, args: call.args, text: call.text };
  return { target, args: ruling.replaced.args, text: ruling.argsText, replacedBy: ruling.replaced.by.join(', ') };
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
  const ruling = await ruleAfter(dispatchAsker(deps.dispatcher, signal), {
    name: target.tool.modelName,
    arguments: argsText,
    result: shown.content,
    isError: run.isError,
  });
  if (ruling.kind === 'refused') return refused(target, ruling.refusal);
  if (!ruling.replaced) return resultOf(target, run.content, run.isError);
  return resultOf(target, ruling.replaced.result, ruling.replaced.isError, [...ruling.replaced.by]);
}
