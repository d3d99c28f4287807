// Entry of the Surfaces webview (bundled to dist/webview.js). Renders what the extension sends
// and posts the user's intents back; says `ready` once, then expects a snapshot and deltas.
import './elements';
import type { HostToView } from '../src/webviewProtocol/messages';
import { App } from './dom/app';
import { ViewState } from './state';
import { vscodeApi } from './vscodeApi';

function isHostMessage(x: unknown): x is HostToView {
  return typeof x === 'object' && x !== null && typeof (x as { type?: unknown }).type === 'string';
}

const api = vscodeApi();
const state = new ViewState(api);
const root = document.getElementById('root') ?? document.body.appendChild(document.createElement('main'));
const app = new App(root, api, state);

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  // Only the extension (through VS Code) posts to this window; ignore anything else that parses.
  if (isHostMessage(e.data)) app.handle(e.data);
});
window.addEventListener('pagehide', () => state.flush());
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') state.flush();
});
api.postMessage({ type: 'ready' });
