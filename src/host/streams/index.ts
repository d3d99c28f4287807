// Provider streams: catalog, model routing, stream open/reassembly/cancel (HOST_SPEC §6).
export { catalog, type CatalogOptions, type PluginCatalog } from './catalog';
export { StreamHub, type OpenStreamOptions, type StreamHubOptions } from './hub';
export { mintStreamId } from './ids';
export { resolveModel, pluginOfRef, UnknownModelError, type CatalogView, type ResolvedModel } from './models';
export type { ClientState, Disposable, ProviderChunk, ProviderClient, RequestOptions, StreamOutcome } from './ports';
export { resolveProviderRef, type ProviderDeclarations } from './resolve';
export { normaliseRequest, type ProviderRequestInput } from './request';
export { streamHandlers, type StreamHandlers } from './sidecarAdapter';
export { ProviderStream } from './stream';
