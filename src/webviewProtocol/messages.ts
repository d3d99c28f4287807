// The typed message protocol between the Surfaces webview and the extension host. Both sides
// import these types; the extension validates every view→host message (validate.ts) because a
// webview is an untrusted renderer as far as the extension is concerned.
// The surface model comes from the contract floor (src/protocol/surfaces.ts, not the protocol
// barrel, which would pull the validators into the browser bundle); it is re-exported here so the
// view has one door and never reaches into the engine.
import type { ViewStrings } from './strings';
import type { FormValues, PromptAnswer, PromptRequest, Surface } from '../protocol/surfaces';

export type {
  CardPayload,
  FormField,
  FormValues,
  NotificationPayload,
  PanelPayload,
  Severity,
  StatusPayload,
  Surface,
  SurfaceKind,
  ViewNode,
  ViewPayload,
  ViewTone,
} from '../protocol/surfaces';
export { surfaceKey, surfaceOwner, viewText } from '../protocol/surfaces';

export type EmptyState = 'no-extensions' | 'untrusted' | 'all-stopped' | null;

/** A pending multi-field `host/ui/request`, addressed by an id the extension chose. */
export interface ViewPrompt {
  promptId: string;
  request: PromptRequest;
}

/** What a user has typed but not yet submitted, per draft key (surface key or `prompt:<id>`). */
export type Drafts = Record<string, FormValues>;

export type HostToView =
  | {
      type: 'snapshot';
      surfaces: Surface[];
      emptyState: EmptyState;
      prompts: ViewPrompt[];
      drafts: Drafts;
      /** The view's own labels in VS Code's display language (English when absent). */
      strings?: ViewStrings;
    }
  | { type: 'upsert'; surface: Surface }
  | { type: 'remove'; key: string }
  | { type: 'emptyState'; emptyState: EmptyState }
  | { type: 'prompt'; prompt: ViewPrompt }
  | { type: 'promptClosed'; promptId: string }
  | { type: 'actionResult'; requestId: string; key: string; actionId: string; accepted: boolean; message?: string }
  | { type: 'submitResult'; requestId: string; key: string; accepted: boolean; message?: string };

export type ViewToHost =
  | { type: 'ready' }
  | { type: 'runAction'; requestId: string; key: string; actionId: string }
  | { type: 'submit'; requestId: string; key: string; values: FormValues }
  | { type: 'answerPrompt'; promptId: string; answer: PromptAnswer }
  | { type: 'openLink'; url: string }
  | { type: 'persist'; drafts: Drafts }
  | { type: 'manageTrust' }
  /** The user expanded the folder group of session `sessionKey` (a sign the folder is in use). */
  | { type: 'folderOpened'; sessionKey: string };

/** Draft key of a prompt; surface drafts use `surfaceKey()` of the surface. */
export function promptDraftKey(promptId: string): string {
  return `prompt:${promptId}`;
}
