// The narrow ports of the UI hub: the sidecar connection it calls back (actions, submit), the
// front end that shows notifications and prompts (the VS Code face and the CLI each implement it),
// and the surface feed the front ends read (the SurfaceStore is one).
import type { ErrorReason, PromptAnswer, PromptRequest, Surface, SurfaceChange, UIActionDecl } from '../../protocol';
import type { Disposable } from '../emitter';

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

/** The front end a session asks questions through (src/vscode/prompts.ts, the CLI's run). */
export interface UiFrontEnd {
  /** Shows a transient notification (already decoded and redacted). */
  notify(n: Surface & { kind: 'notification' }): void;
  /** Asks the user; resolves `{cancelled:true}` on dismissal. `signal` aborts when nobody waits any more. */
  prompt(req: PromptRequest, signal: AbortSignal): Promise<PromptAnswer>;
}

/**
 * The surfaces of every session: a snapshot, then the changes. The SurfaceStore provides it; the
 * Surfaces view, the status bar, the Extensions tree and the exported API read it.
 */
export interface SurfaceFeed {
  /** Stored surfaces, newest first. */
  snapshot(): Surface[];
  onDidChange(listener: (change: SurfaceChange) => void): Disposable;
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
