// The surface model: the structured UI a sidecar may publish (HOST_SPEC §7.1/§7.2, HOST_SPEC_V2 §7) as the UI hub
// stores it after strict decoding and credential redaction. It lives on the contract floor so the
// engine (src/host/ui), the VS Code face, the CLI and the webview share one set of shapes without
// the webview importing the engine. The payloads are the generated decoder types (schema/host/
// ui.json), named here for the readers; only what decoding changes is restated.
import type {
  UICardAction,
  UICardField,
  UICardPayload,
  UIFieldKind,
  UIFormField,
  UIFormPayload,
  UINotificationPayload,
  UIPanelPayload,
  UIPublishParams,
  UISeverity,
  UIStatusPayload,
} from './generated/types';

export type Severity = UISeverity;
export type SurfaceKind = UIPublishParams['kind'];
export type FieldKind = UIFieldKind;

/** A stored status: decoding turns the reference's `severity: ""` into `info`. */
export interface StatusPayload extends Omit<UIStatusPayload, 'severity'> {
  severity?: Severity;
}
export type CardField = UICardField;
export type CardAction = UICardAction;
export type CardPayload = UICardPayload;
export type FormField = UIFormField;
export type FormPayload = UIFormPayload;
export type NotificationPayload = UINotificationPayload;
/** Protocol v2: a side-rail surface updated in place (HOST_SPEC_V2 §7.2). */
export type PanelPayload = UIPanelPayload;

/** Protocol v2 view primitives (HOST_SPEC_V2 §7.3). */
export const VIEW_NODE_KINDS = ['text', 'markdown', 'row', 'stack', 'kv', 'meter', 'pip', 'button', 'divider'] as const;
export type ViewNodeKind = (typeof VIEW_NODE_KINDS)[number];
/** Tone is meaning, never a colour: the host owns the palette. */
export const VIEW_TONES = ['dim', 'strong', 'ok', 'warn', 'err', 'accent'] as const;
export type ViewTone = (typeof VIEW_TONES)[number];
/** The reference's view limits (lengths are UTF-8 bytes). */
export const VIEW_LIMITS = { nodes: 200, depth: 8, value: 4000, label: 200, slot: 64, anchor: 128 } as const;

/** One decoded view node: only the members its kind takes, strings redacted, unknown tones dropped. */
export interface ViewNode {
  kind: ViewNodeKind;
  value?: string;
  key?: string;
  label?: string;
  tone?: ViewTone;
  progress?: number;
  actionId?: string;
  children?: ViewNode[];
}
/** A v2 view: a composed tree, optionally placed by a named `slot` or an `anchor` (`tool:<callId>`). */
export interface ViewPayload {
  slot?: string;
  anchor?: string;
  body: ViewNode[];
}

export type SurfacePayload =
  | { kind: 'status'; payload: StatusPayload }
  | { kind: 'card'; payload: CardPayload }
  | { kind: 'form'; payload: FormPayload }
  | { kind: 'notification'; payload: NotificationPayload }
  | { kind: 'panel'; payload: PanelPayload }
  | { kind: 'view'; payload: ViewPayload };

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
    /** The revision of its first publication: the order a front end places it in (panels hold their place). */
    firstRevision?: number;
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

/**
 * The questions a `host/ui/request` asks (HOST_SPEC §7.2): its fields, or, when it has none, one
 * question keyed `value` of the request's kind, labelled by the request's message (unlabelled
 * without one). The UI hub expands requests with it before any front end sees them; the native
 * prompts and the webview form ask exactly these.
 */
export function promptFields(req: { kind: FieldKind; payload: FormPayload }): FormField[] {
  if (req.payload.fields.length > 0) return req.payload.fields;
  const { kind, payload } = req;
  return [payload.message !== undefined ? { key: 'value', kind, label: payload.message } : { key: 'value', kind }];
}

/** The identity of a surface: re-publishing the same key replaces it in place. */
export function surfaceKey(s: { sessionKey: string; pluginId: string; surfaceId: string }): string {
  return JSON.stringify([s.sessionKey, s.pluginId, s.surfaceId]);
}

/**
 * The owner of a surface: one plugin in one session, as a string key. Every per-plugin table of
 * surfaces (the engine's budget, the webview's groups, their remembered collapse) keys by this.
 */
export function surfaceOwner(s: { sessionKey: string; pluginId: string }): string {
  return JSON.stringify([s.sessionKey, s.pluginId]);
}

/** What a surface store reports to its front ends. */
export type SurfaceChange = { type: 'upsert'; surface: Surface } | { type: 'remove'; key: string } | { type: 'reset' };

/**
 * A view as lines of plain text, one per leaf, indented by nesting: how a face without the
 * primitives (the CLI, a screen reader summary) shows it. Every string is already redacted.
 */
export function viewText(nodes: readonly ViewNode[], depth = 0): string[] {
  const pad = '  '.repeat(depth);
  const pct = (p: number) => `${Math.round(p * 100)}%`;
  const out: string[] = [];
  for (const n of nodes) {
    const tone = n.tone ? ` (${n.tone})` : '';
    switch (n.kind) {
      case 'row':
      case 'stack':
        out.push(...viewText(n.children ?? [], depth + (depth === 0 && nodes.length === 1 ? 0 : 1)));
        break;
      case 'text':
      case 'markdown':
        out.push(`${pad}${n.value ?? ''}${tone}`);
        break;
      case 'kv':
        out.push(`${pad}${n.key}: ${n.value ?? ''}`);
        break;
      case 'meter':
        out.push(`${pad}${n.label ? `${n.label}: ` : ''}${pct(n.progress ?? 0)}`);
        break;
      case 'pip':
        out.push(`${pad}● ${n.tone ?? 'mark'}`);
        break;
      case 'button':
        out.push(`${pad}[${n.label}]`);
        break;
      case 'divider':
        out.push(`${pad}—`);
        break;
    }
  }
  return out;
}

/** The action ids of every `button` in a view, at any depth. */
export function viewActionIds(nodes: readonly ViewNode[], out = new Set<string>()): Set<string> {
  for (const n of nodes) {
    if (n.kind === 'button' && n.actionId) out.add(n.actionId);
    if (n.children) viewActionIds(n.children, out);
  }
  return out;
}

/** Whether a surface shows a button for `actionId` (a card's or panel's actions, a view's buttons). */
export function offersAction(s: Surface, actionId: string): boolean {
  if (s.kind === 'card' || s.kind === 'panel') return (s.payload.actions ?? []).some((a) => a.actionId === actionId);
  if (s.kind === 'view') return viewActionIds(s.payload.body).has(actionId);
  return false;
}
