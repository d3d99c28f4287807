// The one object VS Code injects into a webview. Typed narrowly: messages out are ViewToHost,
// state is whatever we stored (validated on read because it outlives code versions).
import type { ViewToHost } from '../src/webviewProtocol/messages';

export interface VsCodeApi {
  postMessage(message: ViewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

let api: VsCodeApi | undefined;
/** acquireVsCodeApi may be called only once per page, so keep the instance. */
export function vscodeApi(): VsCodeApi {
  return (api ??= acquireVsCodeApi());
}
