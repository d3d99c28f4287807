// The window endpoint: a window's private, token-checked local endpoint (a Unix socket in a 0700
// per-user directory, a per-user named pipe on Windows), the registry of windows that serve one,
// and its one client. It serves the kinds other rooms register: `hook` (hooks/, one answer per
// agent hook) and `mcp` (mcp/, a kept connection relayed by `reasonix-host mcp`). No engine
// imports: the bundled bridge (dist/hook.js) loads it on every hook run.
export * from './lines';
export * from './privateDir';
export * from './registry';
export * from './server';
export { askEndpoint, exchangeLine, openChannel } from './client';
export { WindowEndpoint, type WindowEndpointOptions } from './window';
