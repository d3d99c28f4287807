// One VS Code language-model request served by a Reasonix extension, through the folder
// session's one engine entry points (the same the CLI `fire` and `stream` commands use):
//   1. `provider.request` chain on the mapped request (an interceptor may replace or block it);
//   2. `openStream` on the model ref (the engine resolves the ref and routes it to its plugin);
//   3. chunks → parts as they arrive — or, when a running extension intercepts
//      `provider.response`, the response is assembled, the chain runs on it, and the (possibly
//      replaced or blocked) result is what the caller receives.
// No `vscode` import: parts go to a `PartSink`, so unit tests drive this with real sidecars.
import type { ProviderRequest, ProviderToolCall, ProviderUsage } from '../../protocol';
import type { HookOutcome, SessionEngine, StreamHandle } from '../../host/session';
import { redact } from '../../host/redact';

export interface PartSink {
  text(value: string): void;
  toolCall(callId: string, name: string, input: object): void;
  /** Reasoning; dropped by the caller when the running VS Code has no thinking part. */
  thinking(value: string, signature?: string): void;
}

export interface ServeTarget {
  /** The model ref VS Code selected (`LanguageModelChatInformation.id`). */
  ref: string;
  pluginId: string;
  /** The descriptor's `model` segment, sent as `model` where known. */
  model?: string;
}

export interface ServeStats {
  chunks: number;
  outcome: 'completed' | 'cancelled';
  /** True when the response went through the `provider.response` chain (not streamed). */
  assembled: boolean;
  usage?: ProviderUsage;
}

/** A request that ended without a usable response: the message names extension, model and reason. */
export class LmResponseError extends Error {
  constructor(
    message: string,
    readonly reason: string,
  ) {
    super(redact(message));
    this.name = 'LmResponseError';
  }
}

/** The extension and model a request went to, as every error about it names them. */
export function whoServes(t: Pick<ServeTarget, 'ref' | 'pluginId'>): string {
  return `Reasonix extension "${t.pluginId}" (model ${t.ref})`;
}

function chainError(t: ServeTarget, point: string, o: HookOutcome): LmResponseError | undefined {
  if (o.decision === 'block') {
    const by = o.blockedBy ? `extension "${o.blockedBy}"` : 'an interceptor';
    return new LmResponseError(
      `${whoServes(t)}: ${point} was blocked by ${by}: ${o.reason ?? 'no reason given'}`,
      'blocked',
    );
  }
  if (o.decision === 'failed') {
    return new LmResponseError(
      `${whoServes(t)}: the interceptors of ${point} failed${o.error ? ` (extension "${o.error.pluginId}": ${o.error.message})` : ''}. Check Reasonix: Show Logs.`,
      'intercept_failed',
    );
  }
  return undefined;
}

/** Tool-call arguments must be a JSON object; anything else is an error naming the model. */
function parseArguments(t: ServeTarget, call: ProviderToolCall): object {
  let value: unknown;
  try {
    value = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch (err) {
    throw new LmResponseError(
      `${whoServes(t)} sent tool call "${call.name}" with arguments that are not valid JSON (${(err as Error).message})`,
      'invalid_tool_call',
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new LmResponseError(
      `${whoServes(t)} sent tool call "${call.name}" whose arguments are not a JSON object`,
      'invalid_tool_call',
    );
  }
  return value;
}

interface Assembled {
  text: string;
  reasoning: string;
  signature: string;
  calls: ProviderToolCall[];
  usage?: ProviderUsage;
}

export interface ServeOptions {
  /** Assemble the response and run the `provider.response` chain on it before anything is shown. */
  interceptResponse: boolean;
  signal: AbortSignal;
}

/** How a request ended when the caller cancelled it. */
function cancelled(chunks: number, assembled: boolean): ServeStats {
  return { chunks, outcome: 'cancelled', assembled };
}

/** The `provider.request` chain on the mapped request: the request as the chain left it, or why it refused. */
async function interceptRequest(
  engine: Pick<SessionEngine, 'dispatch'>,
  target: ServeTarget,
  request: ProviderRequest,
): Promise<ProviderRequest> {
  const pre = await engine.dispatch('provider.request', { request });
  const preError = chainError(target, 'provider.request', pre);
  if (preError) throw preError;
  return (pre.payload as { request: ProviderRequest }).request;
}

type Chunk = { type: string; text?: string; signature?: string; toolCall?: ProviderToolCall; usage?: ProviderUsage };

/** One chunk, shown at once or, when the response is intercepted, added to the assembled response. */
function takeChunk(c: Chunk, target: ServeTarget, sink: PartSink, acc: Assembled, assemble: boolean): void {
  if (c.type === 'text' && c.text) {
    if (assemble) acc.text += c.text;
    else sink.text(c.text);
  } else if (c.type === 'reasoning' && c.text) {
    if (assemble) {
      acc.reasoning += c.text;
      if (c.signature) acc.signature = c.signature;
    } else sink.thinking(c.text, c.signature);
  } else if (c.type === 'tool_call' && c.toolCall) {
    if (assemble) acc.calls.push(c.toolCall);
    else sink.toolCall(c.toolCall.id, c.toolCall.name, parseArguments(target, c.toolCall));
  } else if (c.type === 'usage' && c.usage) {
    acc.usage = c.usage;
  }
  // tool_call_start / tool_call_args_delta are progress hints; the final tool_call carries the call.
}

/** Reads the stream until it ends or the caller cancels; returns how many chunks were taken. */
async function readChunks(
  stream: StreamHandle,
  target: ServeTarget,
  sink: PartSink,
  acc: Assembled,
  opts: ServeOptions,
): Promise<number> {
  let chunks = 0;
  try {
    for await (const raw of stream) {
      if (opts.signal.aborted) break;
      chunks++;
      takeChunk(raw as Chunk, target, sink, acc, opts.interceptResponse);
    }
  } catch (err) {
    stream.cancel();
    throw err;
  }
  return chunks;
}

/** How the stream ended: completed, or cancelled by the caller; a failed or interrupted stream throws. */
async function streamEnd(
  stream: StreamHandle,
  target: ServeTarget,
  signal: AbortSignal,
): Promise<'completed' | 'cancelled'> {
  if (signal.aborted) {
    stream.cancel();
    return 'cancelled';
  }
  const outcome = await stream.outcome;
  if (outcome.kind === 'completed') return 'completed';
  if (signal.aborted || outcome.reason === 'stream_cancelled') return 'cancelled';
  throw new LmResponseError(
    `${whoServes(target)} ${outcome.kind === 'failed' ? 'failed' : 'was interrupted'} (${outcome.reason}): ${outcome.message ?? 'no detail'}`,
    outcome.reason ?? outcome.kind,
  );
}

/** The assembled response through the `provider.response` chain, then to the sink as the chain left it. */
async function deliverAssembled(
  engine: Pick<SessionEngine, 'dispatch'>,
  target: ServeTarget,
  acc: Assembled,
  sink: PartSink,
  signal: AbortSignal,
  chunks: number,
): Promise<ServeStats> {
  const payload: Record<string, unknown> = {
    text: acc.text,
    reasoning: acc.reasoning,
    signature: acc.signature,
    calls: acc.calls,
  };
  if (acc.usage) payload.usage = acc.usage;
  const post = await engine.dispatch('provider.response', payload);
  const postError = chainError(target, 'provider.response', post);
  if (postError) throw postError;
  if (signal.aborted) return cancelled(chunks, true);
  const final = post.payload as Partial<Assembled>;
  // Validate every call before showing anything: a bad one fails the whole response.
  const calls = (final.calls ?? []).map((call) => ({ call, input: parseArguments(target, call) }));
  if (final.reasoning) sink.thinking(final.reasoning, final.signature || undefined);
  if (final.text) sink.text(final.text);
  for (const { call, input } of calls) sink.toolCall(call.id, call.name, input);
  return { chunks, outcome: 'completed', assembled: true, usage: final.usage ?? acc.usage };
}

export async function serveRequest(
  engine: Pick<SessionEngine, 'dispatch' | 'openStream'>,
  target: ServeTarget,
  request: ProviderRequest,
  sink: PartSink,
  opts: ServeOptions,
): Promise<ServeStats> {
  const { signal } = opts;
  const finalRequest = await interceptRequest(engine, target, request);
  if (signal.aborted) return cancelled(0, opts.interceptResponse);
  const stream = await engine.openStream(target.ref, finalRequest, { model: target.model, signal });
  const acc: Assembled = { text: '', reasoning: '', signature: '', calls: [] };
  const chunks = await readChunks(stream, target, sink, acc, opts);
  if ((await streamEnd(stream, target, signal)) === 'cancelled') return cancelled(chunks, opts.interceptResponse);
  if (!opts.interceptResponse) return { chunks, outcome: 'completed', assembled: false, usage: acc.usage };
  return deliverAssembled(engine, target, acc, sink, signal, chunks);
}
