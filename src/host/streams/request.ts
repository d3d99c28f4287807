// Builds the `request` member of stream/open so a strict v1 sidecar accepts it: `messages` and
// `tools` are always arrays, `maxTokens` is always present, and members the seed schema does not
// know (v1-fork `stream`, v2 `generation`/`epoch`/`disableServerTools`) are never sent.
import type { ProviderMessage, ProviderRequest, ProviderResponseFormat, ProviderToolSchema } from '../../protocol';

/** What callers may pass; everything is optional and normalised. */
export interface ProviderRequestInput {
  messages?: ProviderMessage[] | null;
  tools?: ProviderToolSchema[] | null;
  maxTokens?: number;
  temperature?: number;
  responseFormat?: ProviderResponseFormat;
}

export function normaliseRequest(input: ProviderRequestInput | undefined): ProviderRequest {
  const src = input ?? {};
  const out: ProviderRequest = {
    messages: Array.isArray(src.messages) ? src.messages : [],
    tools: (Array.isArray(src.tools) ? src.tools : []).map((t) => ({
      ...t,
      // A tool's parameters must be a JSON object on the wire.
      parameters:
        t.parameters && typeof t.parameters === 'object' && !Array.isArray(t.parameters)
          ? t.parameters
          : { type: 'object' },
    })),
    maxTokens: Number.isInteger(src.maxTokens) && (src.maxTokens as number) >= 0 ? (src.maxTokens as number) : 0,
  };
  if (typeof src.temperature === 'number') out.temperature = src.temperature;
  if (src.responseFormat) out.responseFormat = src.responseFormat;
  return out;
}
