'use strict';
// A toy model provider: "echo-1" answers by repeating the last user message, streamed word by
// word. When the request offers tools it calls one instead: the tool a `call <tool> <json>` line
// of the message names, with exactly those arguments (how tests drive an agent turn), else the
// first one with `{"text": <the user message>}`. When the last message is the tool's result it
// echoes the result — a complete tool round trip. It shows the stream contract a real
// provider must keep:
//   * chunks are numbered seqBase, seqBase+1, … with no gaps (seqBase is the first seq);
//   * the stream ends with exactly one `extension/provider/stream/end` carrying the last seq;
//   * after `extension/provider/stream/cancel` no further chunk is sent and the end says
//     `interrupted: true` with lastSeq = the last chunk actually sent.

function descriptor(pluginId) {
  return {
    ref: `plugin/${pluginId}/echo/echo-1`,
    displayName: 'Showcase Echo',
    model: 'echo-1',
    contextWindow: 8192,
    pricingCurrency: 'USD',
    inputPerMillion: 0,
    outputPerMillion: 0,
    tools: true,
    vision: false,
    reasoning: false,
  };
}

/** The reply text for a request: the last user message, echoed. */
function replyFor(request) {
  const lastUser = [...request.messages].reverse().find((m) => m.role === 'user' && typeof m.content === 'string');
  return lastUser ? `Echo: ${lastUser.content}` : 'Echo: (no user message)';
}

function contentText(content) {
  return typeof content === 'string' ? content : JSON.stringify(content === undefined ? '' : content);
}

/**
 * A scripted tool call: a line `call <tool> <json object>` in the last user message (agents wrap
 * the user's words in a longer prompt, so any line of it counts). The arguments are sent exactly
 * as written, so a test can make them fit the tool's input schema.
 */
const CALL_LINE = /^\s*call\s+([A-Za-z0-9_.:-]+)\s+(\{.*\})\s*$/m;

/** `{name, arguments}` of a scripted call, `{problem}` when the line is there but unusable, else undefined. */
function scriptedCall(text, tools) {
  const m = CALL_LINE.exec(text);
  if (!m) return undefined;
  const [, name, args] = m;
  if (!tools.some((t) => t.name === name)) {
    const offered = tools.map((t) => t.name).join(', ') || 'none';
    return { problem: `no tool named ${name} is on offer (offered: ${offered})` };
  }
  let parsed;
  try {
    parsed = JSON.parse(args);
  } catch (err) {
    return { problem: `the arguments for ${name} are not JSON (${err.message})` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { problem: `the arguments for ${name} are not a JSON object` };
  return { name, arguments: args };
}

/**
 * What to answer: a tool result is echoed (quoting it); a user message with a `call <tool>
 * <json>` line calls that tool with exactly those arguments; any other user message with tools
 * on offer becomes a call of the first tool; anything else is echoed as text.
 */
function plan(request, callId) {
  const last = request.messages[request.messages.length - 1];
  if (last && last.role === 'tool')
    return { text: `Echo: tool result ${last.tool_call_id || '?'}: ${contentText(last.content)}` };
  if (!last || last.role !== 'user') return { text: replyFor(request) };
  const text = typeof last.content === 'string' ? last.content : contentText(last.content);
  const scripted = scriptedCall(text, request.tools);
  if (scripted && scripted.problem) return { text: `Echo: cannot call: ${scripted.problem}` };
  if (scripted)
    return {
      text: `Calling ${scripted.name}. `,
      call: { id: callId, name: scripted.name, arguments: scripted.arguments },
    };
  const tool = request.tools[0];
  if (tool)
    return {
      text: `Calling ${tool.name}. `,
      call: { id: callId, name: tool.name, arguments: JSON.stringify({ text }) },
    };
  return { text: replyFor(request) };
}

/** Splits text into word-sized pieces that join back to exactly the same text. */
function pieces(text) {
  return text.match(/\S+\s*|\s+/g) || [''];
}

function roughTokens(text) {
  return Math.max(1, Math.ceil(text.length / 4));
}

/**
 * Owns the open streams of one connection. `send(method, params)` writes a notification;
 * `chunkMillis` spaces the chunks out so a cancel can land mid-stream.
 */
class EchoProvider {
  constructor({ pluginId, send, chunkMillis, log, onEnd }) {
    this.pluginId = pluginId;
    // Told {cancelled, toolCall, prompt} once per stream that ran, when it ends.
    this.onEnd = onEnd || (() => {});
    this.send = send;
    this.chunkMillis = chunkMillis;
    this.log = log;
    this.streams = new Map(); // streamId → {timer, lastSeq}
    this.calls = 0;
  }

  catalog() {
    return { providers: [descriptor(this.pluginId)] };
  }

  /** A selection may name the full model ref or just the provider prefix. */
  owns(ref) {
    const full = descriptor(this.pluginId).ref;
    return ref === full || ref === full.slice(0, full.lastIndexOf('/'));
  }

  /** Validates an open; returns a function that starts streaming, or undefined to decline. */
  open(params) {
    if (!this.owns(params.providerRef) || this.streams.has(params.streamId)) return undefined;
    const answer = plan(params.request, `call_${++this.calls}`);
    const text = answer.text;
    const promptText = params.request.messages.map((m) => contentText(m.content)).join('\n');
    const promptTokens = roughTokens(promptText);
    const completionTokens = roughTokens(text + (answer.call ? answer.call.arguments : ''));
    const chunks = [
      ...pieces(text).map((t) => ({ type: 'text', text: t })),
      ...(answer.call
        ? [
            { type: 'tool_call_start', toolCall: { ...answer.call, arguments: '' } },
            { type: 'tool_call', toolCall: answer.call },
          ]
        : []),
      {
        type: 'usage',
        usage: {
          promptTokens,
          completionTokens,
          totalTokens: promptTokens + completionTokens,
          cacheHitTokens: 0,
          cacheMissTokens: promptTokens,
          reasoningTokens: 0,
          finishReason: answer.call ? 'tool_calls' : 'stop',
        },
      },
      { type: 'done' },
    ];
    const streamId = params.streamId;
    const first = Math.max(params.seqBase, 1);
    const lastUser = [...params.request.messages].reverse().find((m) => m.role === 'user');
    const state = {
      timer: undefined,
      lastSeq: first - 1,
      info: { toolCall: Boolean(answer.call), prompt: lastUser ? contentText(lastUser.content) : '' },
    };
    this.streams.set(streamId, state);

    const step = (i) => {
      if (!this.streams.has(streamId)) return; // cancelled meanwhile
      // chunkMillis 0 (benchmarks): as fast as the pipe takes them, yielding every 64 chunks so a
      // cancel can still land.
      const burst = this.chunkMillis === 0 ? 64 : 1;
      for (let n = 0; n < burst; n++, i++) {
        if (i === chunks.length) {
          this.streams.delete(streamId);
          this.send('extension/provider/stream/end', { streamId, lastSeq: state.lastSeq });
          this.onEnd({ cancelled: false, ...state.info });
          return;
        }
        const seq = first + i;
        this.send('extension/provider/stream/chunk', { streamId, seq, chunk: chunks[i] });
        state.lastSeq = seq;
      }
      state.timer = this.chunkMillis === 0 ? setTimeout(step, 0, i) : setTimeout(step, this.chunkMillis, i);
    };
    return () => {
      state.timer = setTimeout(step, this.chunkMillis, 0);
    };
  }

  /** Stops a stream; returns whether it was still running. */
  cancel(streamId) {
    const state = this.streams.get(streamId);
    if (!state) return false;
    clearTimeout(state.timer);
    this.streams.delete(streamId);
    this.send('extension/provider/stream/end', { streamId, lastSeq: state.lastSeq, interrupted: true });
    this.onEnd({ cancelled: true, ...state.info });
    return true;
  }

  cancelAll() {
    for (const id of [...this.streams.keys()]) this.cancel(id);
  }
}

module.exports = { EchoProvider, descriptor };
