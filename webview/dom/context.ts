// What surface views need from the app: a way to post, the persisted state, and a way to hear
// the answer to a request they sent.
import type { ViewToHost } from '../../src/webviewProtocol/messages';
import type { ViewState } from '../state';

export interface ResultMessage {
  accepted: boolean;
  message?: string;
}

export interface ViewContext {
  post(message: ViewToHost): void;
  state: ViewState;
  /** Call `onResult` once when the extension answers `requestId`. */
  expect(requestId: string, onResult: (r: ResultMessage) => void): void;
}
