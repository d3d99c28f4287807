// The Surfaces webview protocol, shared by the extension (src/vscode/surfaces) and the webview.
export * from './messages';
export * from './links';
export * from './forms';
export * from './validate';
export * from './strings';
