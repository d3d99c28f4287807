// The narrow ports of the UI hub: the sidecar connection it calls back (actions, submit) and the
// front end that shows notifications and prompts (the VS Code face and the CLI each implement it).
import type { ErrorReason, PromptAnswer, PromptRequest, Surface, UIActionDecl } from '../../protocol';

export interface UiRequestOptions {
  timeoutMs?: number;
  timeoutReason?: ErrorReason;
  signal?: AbortSignal;
}

/** What the hub needs of one live sidecar; the real `Sidecar` satisfies it structurally. */
export interface UiClient {
  /** Only `running` counts as live. */
  readonly state: string;
  /** The handshake's declared actions (already validated by the sidecar; re-checked here). */
  readonly uiActions: readonly UIActionDecl[];
  request<R>(method: string, params: object, opts?: UiRequestOptions): Promise<R>;
}

export interface UiFrontEnd {
  /** Shows a transient notification (already decoded and redacted). */
  notify(n: Surface & { kind: 'notification' }): void;
  /** Asks the user; resolves `{cancelled:true}` on dismissal. `signal` aborts when nobody waits any more. */
  prompt(req: PromptRequest, signal: AbortSignal): Promise<PromptAnswer>;
}

/** One entry of the command palette's action list. */
export interface ActionEntry {
  /** `/<pluginId>:<actionId>` */
  name: string;
  pluginId: string;
  actionId: string;
  /** Redacted. */
  label: string;
  sessionKey: string;
  folderName: string;
}

export interface ActionResult {
  accepted: boolean;
  /** Redacted. */
  message?: string;
}
