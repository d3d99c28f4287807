// Content references (HOST_SPEC §5): the per-connection store that serves host/content/read, and
// the externalizing of large payload fields into it.
export {
  ContentStore,
  DEFAULT_CONTENT_LIMITS,
  contentSize,
  contentSha256,
  contentText,
  type ContentStoreLimits,
  type StoredContent,
  type StoredObject,
  type AsciiText,
} from './store';
export {
  SerializedPayload,
  serializePayload,
  externalizePayload,
  resolveReplacement,
  type OutboundPayload,
  type ReplacementCarrier,
} from './externalize';
