'use strict';
// A toy model provider: "echo-1" answers by repeating the last user message, streamed word by
// word. It shows the stream contract a real provider must keep:
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
    tools: false,
    vision: false,
    reasoning: false,
  };
}

/** The reply text for a request: the last user message, echoed. */
function replyFor(request) {
  const lastUser = [...request.messages].reverse().find((m) => m.role === 'user' && typeof m.content === 'string');
  return lastUser ? `Echo: ${lastUser.content}` : 'Echo: (no user message)';
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
  constructor({ pluginId, send, chunkMillis, log }) {
    this.pluginId = pluginId;
    this.send = send;
    this.chunkMillis = chunkMillis;
    this.log = log;
    this.streams = new Map(); // streamId → {timer, lastSeq}
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
    const text = replyFor(params.request);
    const promptText = params.request.messages.map((m) => m.content || '').join('\n');
    const promptTokens = roughTokens(promptText);
    const completionTokens = roughTokens(text);
    const chunks = [
      ...pieces(text).map((t) => ({ type: 'text', text: t })),
      {
        type: 'usage',
        usage: {
          promptTokens,
          completionTokens,
          totalTokens: promptTokens + completionTokens,
          cacheHitTokens: 0,
          cacheMissTokens: promptTokens,
          reasoningTokens: 0,
          finishReason: 'stop',
        },
      },
      { type: 'done' },
    ];
    const streamId = params.streamId;
    const first = Math.max(params.seqBase, 1);
    const state = { timer: undefined, lastSeq: first - 1 };
    this.streams.set(streamId, state);

    const step = (i) => {
      if (!this.streams.has(streamId)) return; // cancelled meanwhile
      if (i === chunks.length) {
        this.streams.delete(streamId);
        this.send('extension/provider/stream/end', { streamId, lastSeq: state.lastSeq });
        return;
      }
      const seq = first + i;
      this.send('extension/provider/stream/chunk', { streamId, seq, chunk: chunks[i] });
      state.lastSeq = seq;
      state.timer = setTimeout(step, this.chunkMillis, i + 1);
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
    return true;
  }

  cancelAll() {
    for (const id of [...this.streams.keys()]) this.cancel(id);
  }
}

module.exports = { EchoProvider, descriptor };
