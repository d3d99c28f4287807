// VS Code chat messages and options → the v1 `ProviderRequest` (HOST_SPEC §6): arrays never
// null, each tool's parameters a JSON object, `maxTokens ≥ 0`. Parts are told apart with
// `instanceof` against the running VS Code's classes (a thinking part and a text part look alike).
// No `vscode` import: the classes are passed in, so unit tests run this in plain Node.
import type { ProviderMessage, ProviderRequest, ProviderToolCall, ProviderToolSchema } from '../../protocol';
import { normaliseRequest } from '../../host/streams';
import {
  ROLE,
  type LanguageModelChatRequestMessage,
  type LmClasses,
  type ProvideLanguageModelChatResponseOptions,
} from './vscodeLm';

/** A request VS Code handed us that the v1 protocol cannot carry for this model. */
export class LmInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LmInputError';
  }
}

export interface RequestTarget {
  ref: string;
  /** From the catalog: images are sent only to models that declare `vision`. */
  vision: boolean;
  /** Used as `maxTokens` when the caller gives none in `modelOptions`. */
  maxOutputTokens: number;
}

export interface MappedRequest {
  request: ProviderRequest;
  /** Parts the protocol has no place for (e.g. non-image data), counted for the debug log. */
  dropped: number;
}

const decoder = new TextDecoder();

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** The text of a tool result's content (text parts, and text/JSON data parts). */
function resultText(content: readonly unknown[], cls: LmClasses, dropped: { n: number }): string {
  const out: string[] = [];
  for (const part of content) {
    if (part instanceof cls.text) out.push(part.value);
    else if (cls.data && part instanceof cls.data && /^(text\/|application\/json)/.test(part.mimeType))
      out.push(decoder.decode(part.data));
    else if (typeof (part as { value?: unknown })?.value === 'string')
      out.push((part as { value: string }).value); // prompt-tsx parts render to text
    else dropped.n++;
  }
  return out.join('');
}

function mapMessage(
  m: LanguageModelChatRequestMessage,
  target: RequestTarget,
  cls: LmClasses,
  dropped: { n: number },
): ProviderMessage[] {
  const role =
    m.role === ROLE.System
      ? 'system'
      : m.role === ROLE.Assistant
        ? 'assistant'
        : m.role === ROLE.User
          ? 'user'
          : undefined;
  if (!role) throw new LmInputError(`message role ${String(m.role)} is not one of user, assistant, system`);
  const text: string[] = [];
  const reasoning: string[] = [];
  const images: string[] = [];
  const calls: ProviderToolCall[] = [];
  const results: ProviderMessage[] = [];
  for (const part of m.content) {
    if (part instanceof cls.text) text.push(part.value);
    else if (cls.thinking && part instanceof cls.thinking)
      reasoning.push(Array.isArray(part.value) ? part.value.join('') : part.value);
    else if (part instanceof cls.toolCall)
      calls.push({ id: part.callId, name: part.name, arguments: JSON.stringify(part.input ?? {}) });
    else if (part instanceof cls.toolResult)
      results.push({ role: 'tool', tool_call_id: part.callId, content: resultText(part.content, cls, dropped) });
    else if (cls.data && part instanceof cls.data && part.mimeType.startsWith('image/')) {
      if (!target.vision)
        throw new LmInputError(`${target.ref} does not accept images (its catalog entry does not declare vision)`);
      images.push(`data:${part.mimeType};base64,${base64(part.data)}`);
    } else dropped.n++;
  }
  const out: ProviderMessage[] = [...results];
  if (text.length || reasoning.length || images.length || calls.length || !results.length) {
    const msg: ProviderMessage = { role, content: text.join('') };
    if (m.name) msg.name = m.name;
    if (images.length) msg.images = images;
    if (calls.length) msg.tool_calls = calls;
    if (reasoning.length) msg.reasoning_content = reasoning.join('');
    out.push(msg);
  }
  return out;
}

function maxTokensOf(options: ProvideLanguageModelChatResponseOptions, fallback: number): number {
  const o = options.modelOptions ?? {};
  for (const key of ['maxTokens', 'max_tokens', 'maxOutputTokens']) {
    const v = o[key];
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  }
  return fallback;
}

export function toProviderRequest(
  messages: readonly LanguageModelChatRequestMessage[],
  options: ProvideLanguageModelChatResponseOptions,
  target: RequestTarget,
  cls: LmClasses,
): MappedRequest {
  const dropped = { n: 0 };
  const mapped = messages.flatMap((m) => mapMessage(m, target, cls, dropped));
  const tools: ProviderToolSchema[] = (options.tools ?? []).map((t) => ({
    name: t.name,
    description: t.description,
    parameters: t.inputSchema ?? { type: 'object' },
  }));
  const temperature = options.modelOptions?.temperature;
  const request = normaliseRequest({
    messages: mapped,
    tools,
    maxTokens: maxTokensOf(options, target.maxOutputTokens),
    ...(typeof temperature === 'number' && Number.isFinite(temperature) ? { temperature } : {}),
  });
  return { request, dropped: dropped.n };
}

/** `provideTokenCount`: characters / 4 (rounded up) over the serialized message. Never a network call. */
export function estimateTokens(input: string | LanguageModelChatRequestMessage, cls?: LmClasses): number {
  if (typeof input === 'string') return Math.ceil(input.length / 4);
  let chars = 0;
  for (const part of input.content) {
    if (cls && cls.data && part instanceof cls.data) chars += part.data.byteLength;
    else {
      try {
        chars += JSON.stringify(part)?.length ?? 0;
      } catch {
        chars += 0; // a part that cannot be serialized counts as empty
      }
    }
  }
  return Math.ceil(chars / 4);
}
