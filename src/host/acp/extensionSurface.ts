// Reasonix's structured extension surfaces over ACP (`session/update` with
// `sessionUpdate: "_reasonix.io/extension_surface"`, the payload in
// `update._meta["reasonix.io"].extensionSurface`), turned into the host/ui/publish params the UI hub
// already judges for hosted extensions: the same strict decoders, redaction, budget and staleness
// gate, so a Reasonix session's cards cannot do anything a hosted extension's cannot.
import type { SurfaceKind, UIPublishParams } from '../../protocol';

export const EXTENSION_SURFACE_UPDATE = '_reasonix.io/extension_surface';
/** What we advertise in `clientCapabilities._meta` (the only place 1.38.11 reads it). */
export const CLIENT_META = { 'reasonix.io': { extensionSurface: { supported: true, schemaVersion: 1 } } } as const;

const KINDS: readonly SurfaceKind[] = ['card', 'form', 'status', 'notification', 'panel', 'view'];

/** One structured surface from Reasonix, its identity checked; the payload is judged later by the hub. */
export interface ExtensionSurface {
  pluginId: string;
  /** Redacted in logs; the hub's binding compares it. */
  publish: UIPublishParams;
  /** Reasonix's id of this publication of a form (what `reasonix serve` submits against). */
  formInstanceId?: string;
}

/**
 * Reads the vendor update's payload; a missing or malformed identity is an Error saying what is wrong
 * (the caller logs it and shows nothing: no surface is better than one in the wrong place).
 */
export function readExtensionSurface(update: unknown): ExtensionSurface {
  const meta = field(field(update, '_meta'), 'reasonix.io');
  const s = field(meta, 'extensionSurface');
  if (!s || typeof s !== 'object') throw new Error('the update has no _meta["reasonix.io"].extensionSurface');
  const o = s as Record<string, unknown>;
  const pluginId = str(o.pluginId, 'pluginId');
  const surfaceId = str(o.surfaceId, 'surfaceId');
  const sessionId = str(o.sessionId, 'sessionId');
  const generation = o.generation;
  if (typeof generation !== 'number' || !Number.isSafeInteger(generation) || generation < 0)
    throw new Error('generation is not a non-negative integer');
  const kind = o.kind as SurfaceKind;
  if (!KINDS.includes(kind)) throw new Error(`unknown surface kind ${JSON.stringify(String(o.kind)).slice(0, 40)}`);
  // The payload sits under the kind's own name (card, form, status, notification, panel, view).
  const payload = o[kind];
  if (payload === undefined) throw new Error(`the ${kind} surface carries no "${kind}" payload`);
  const out: ExtensionSurface = { pluginId, publish: { sessionId, generation, surfaceId, kind, payload } };
  if (typeof o.formInstanceId === 'string') out.formInstanceId = o.formInstanceId;
  return out;
}

/** Whether a `session/update` notification's params carry a structured extension surface. */
export function isExtensionSurfaceUpdate(params: unknown): boolean {
  return field(field(params, 'update'), 'sessionUpdate') === EXTENSION_SURFACE_UPDATE;
}

function field(v: unknown, key: string): unknown {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined;
}

function str(v: unknown, name: string): string {
  if (typeof v !== 'string' || !v.trim() || v.length > 256) throw new Error(`${name} is missing or not a short string`);
  return v;
}
