// Strict payload decoders for host/ui/publish and host/ui/request (HOST_SPEC §7.1/§7.2, HOST_SPEC_V2 §7.2), followed
// by credential redaction of every sidecar-sourced string. Form field keys are kept verbatim
// because answers are correlated by them.
import {
  ProtocolError,
  validateDef,
  type CardPayload,
  type DefName,
  type FormField,
  type FormPayload,
  type NotificationPayload,
  type PanelPayload,
  type Severity,
  type StatusPayload,
  type SurfaceKind,
  type SurfacePayload,
} from '../../protocol';
import { redact, redactDeep } from '../redact';
import { decodeViewPayload } from './viewDecode';

const DEFS: Record<Exclude<SurfaceKind, 'view'>, DefName> = {
  status: 'UIStatusPayload',
  card: 'UICardPayload',
  form: 'UIFormPayload',
  notification: 'UINotificationPayload',
  panel: 'UIPanelPayload',
};

function decodeDef<T>(def: DefName, payload: unknown, what: string): T {
  const v = validateDef<T>(def, payload);
  if (!v.ok)
    throw new ProtocolError('invalid_params', `invalid ${what} payload: ${v.message.replace(/^\//, 'payload/')}`);
  return v.value;
}

/** Keeps only the members that are present, so stored payloads never carry `undefined` members. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const opt = (s: string | undefined): string | undefined => (s === undefined ? undefined : redact(s));

function clampProgress(p: number | undefined): number | undefined {
  if (p === undefined || Number.isNaN(p)) return undefined;
  return Math.min(1, Math.max(0, p));
}

function redactStatus(p: StatusPayload): StatusPayload {
  // The reference accepts `severity: ""` on a status and shows it as info.
  const severity: Severity | undefined = (p.severity as string | undefined) === '' ? 'info' : p.severity;
  return compact({ label: redact(p.label), detail: opt(p.detail), severity, progress: clampProgress(p.progress) });
}

function redactCard(p: CardPayload): CardPayload {
  return compact({
    title: opt(p.title),
    // Kept as Markdown source text; the front end renders it with raw HTML disabled.
    markdown: opt(p.markdown),
    text: opt(p.text),
    fields: p.fields?.map((f) => compact({ key: redact(f.key), value: opt(f.value) })),
    progress: clampProgress(p.progress),
    actions: p.actions?.map((a) => ({ actionId: a.actionId, label: redact(a.label) })),
  });
}

function redactField(f: FormField): FormField {
  return compact({
    key: f.key,
    label: opt(f.label),
    kind: f.kind,
    options: f.options?.map(redact),
    default: typeof f.default === 'string' ? redact(f.default) : redactDeep(f.default),
    required: f.required,
  });
}

function redactForm(p: FormPayload): FormPayload {
  return compact({ title: opt(p.title), message: opt(p.message), fields: p.fields.map(redactField) });
}

function redactNotification(p: NotificationPayload): NotificationPayload {
  return compact({ title: redact(p.title), body: opt(p.body), severity: p.severity });
}

function redactPanel(p: PanelPayload): PanelPayload {
  return compact({
    title: opt(p.title),
    text: opt(p.text),
    fields: p.fields?.map((f) => compact({ key: redact(f.key), value: opt(f.value) })),
    progress: clampProgress(p.progress),
    actions: p.actions?.map((a) => ({ actionId: a.actionId, label: redact(a.label) })),
  });
}

/**
 * Decodes a publish payload by kind; throws ProtocolError(invalid_params) on any deviation. Which
 * kinds a plugin may publish is its protocol's (the connection refused the others already).
 */
export function decodePublishPayload(kind: SurfaceKind, payload: unknown): SurfacePayload {
  if (kind === 'view') return { kind, payload: decodeViewPayload(payload) };
  const def = DEFS[kind];
  if (!def) throw new ProtocolError('invalid_params', `unknown surface kind ${JSON.stringify(kind)}`);
  switch (kind) {
    case 'status':
      return { kind, payload: redactStatus(decodeDef<StatusPayload>(def, payload, kind)) };
    case 'card':
      return { kind, payload: redactCard(decodeDef<CardPayload>(def, payload, kind)) };
    case 'form':
      return { kind, payload: redactForm(decodeDef<FormPayload>(def, payload, kind)) };
    case 'notification':
      return { kind, payload: redactNotification(decodeDef<NotificationPayload>(def, payload, kind)) };
    case 'panel':
      return { kind, payload: redactPanel(decodeDef<PanelPayload>(def, payload, kind)) };
  }
}

/** Decodes a host/ui/request payload: always a form document, whatever the request kind. */
export function decodeRequestPayload(payload: unknown): FormPayload {
  return redactForm(decodeDef<FormPayload>('UIFormPayload', payload, 'request'));
}
