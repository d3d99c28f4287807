// The language-model request path as its own bundle (dist/lm-requests.js): mapping VS Code's
// messages onto a provider request, serving the stream through the interceptors, joining text
// parts. The extension loads it on the first request or token count, so activation carries only the
// provider's registration (src/vscode/lm/provider.ts).
export { CoalescingSink } from './vscode/lm/coalesce';
export { estimateTokens, LmInputError, toProviderRequest } from './vscode/lm/request';
export { LmResponseError, serveRequest, whoServes } from './vscode/lm/respond';
