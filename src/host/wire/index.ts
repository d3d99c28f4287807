// NDJSON framing and the validated JSON-RPC connection (HOST_SPEC §1).
export { EncodedResult, partsFrame } from './encoded';
export { isIntegerIdText, topLevelMemberText } from './envelope';
export { NdjsonMessageReader, type NdjsonReaderOptions } from './reader';
export { FrameParts, NdjsonMessageWriter, frameBuffer, type NdjsonWriterOptions, type Frame } from './writer';
export {
  ValidatedConnection,
  type FrameTap,
  PeerError,
  InvalidResultError,
  RequestTimeoutError,
  type ConnectionEnd,
  type InboundHandler,
  type InboundHandlers,
  type RequestOptions,
  type ValidatedConnectionOptions,
} from './connection';
