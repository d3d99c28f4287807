// The structured UI a sidecar may publish (HOST_SPEC §7.1/§7.2), as the UI hub stores it after
// strict decoding and credential redaction. The webview and the CLI render exactly these shapes.

export type Severity = 'info' | 'warn' | 'error';
export type SurfaceKind = 'status' | 'card' | 'form' | 'notification';
export type FieldKind = 'confirm' | 'input' | 'select' | 'multiselect';

export interface StatusPayload {
  label: string;
  detail?: string;
  severity?: Severity;
  progress?: number;
}
export interface CardField {
  key: string;
  value?: string;
}
export interface CardAction {
  actionId: string;
  label: string;
}
export interface CardPayload {
  title?: string;
  markdown?: string;
  text?: string;
  fields?: CardField[];
  progress?: number;
  actions?: CardAction[];
}
export interface FormField {
  key: string;
  label?: string;
  kind: FieldKind;
  options?: string[];
  default?: unknown;
  required?: boolean;
}
export interface FormPayload {
  title?: string;
  message?: string;
  fields: FormField[];
}
export interface NotificationPayload {
  title: string;
  body?: string;
  severity?: Severity;
}

export type SurfacePayload =
  | { kind: 'status'; payload: StatusPayload }
  | { kind: 'card'; payload: CardPayload }
  | { kind: 'form'; payload: FormPayload }
  | { kind: 'notification'; payload: NotificationPayload };

/** Where a surface came from. `sessionKey` is the host's session (one per workspace folder). */
export interface SurfaceOrigin {
  sessionKey: string;
  /** Display name of the session's folder. */
  folderName: string;
  pluginId: string;
  generation: number;
}

/** One stored surface, keyed by (sessionKey, pluginId, surfaceId); re-publishing replaces it. */
export type Surface = SurfaceOrigin &
  SurfacePayload & {
    surfaceId: string;
    /** Monotonic per store; newest first ordering and cheap change detection. */
    revision: number;
    updatedAt: number;
    /** True once the plugin stopped or crashed; cleared when its next generation starts. */
    stale: boolean;
  };

/** Values a user answers a form or prompt with: confirm → boolean, input/select → string, multiselect → string[]. */
export type FormValues = Record<string, boolean | string | string[]>;

/** A blocking `host/ui/request` the front end must answer. */
export interface PromptRequest extends SurfaceOrigin {
  surfaceId: string;
  kind: FieldKind;
  payload: FormPayload;
}
export type PromptAnswer = { cancelled: true } | { cancelled: false; values: FormValues };

/** The identity of a surface: re-publishing the same key replaces it in place. */
export function surfaceKey(s: { sessionKey: string; pluginId: string; surfaceId: string }): string {
  return JSON.stringify([s.sessionKey, s.pluginId, s.surfaceId]);
}

/** What a surface store reports to its front ends. */
export type SurfaceChange =
  | { type: 'upsert'; surface: Surface }
  | { type: 'remove'; key: string }
  | { type: 'reset' };
