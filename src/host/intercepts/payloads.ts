// Hook payload shapes (HOST_SPEC §4.1): builders that omit zero-valued members the way the
// reference host sends them, and the strict decoder every `replace` answer goes through.
import { validateDef, type DefName, type Validation } from '../../protocol';
import type {
  HookAgentBeforeStart,
  HookCompactionComplete,
  HookFrontendEvent,
  HookInputReceive,
  HookPermissionDecision,
  HookSystemPromptBuild,
  HookToolAfter,
  HookToolBefore,
  ProviderMessage,
  ProviderRequest,
  ProviderToolCall,
  ProviderUsage,
} from '../../protocol';
import type { HookPoint } from './points';

export type {
  HookAgentBeforeStart,
  HookCompactionComplete,
  HookFrontendEvent,
  HookInputReceive,
  HookPermissionDecision,
  HookSystemPromptBuild,
  HookToolAfter,
  HookToolBefore,
};

// The generated types of the members below are loose (the schema checks nested seed shapes in
// code), so the precise shapes are restated here on top of the seed types.
export interface HookContextPrepare {
  messages?: ProviderMessage[];
}
export interface HookProviderRequest {
  request: ProviderRequest;
}
export interface HookProviderResponse {
  text?: string;
  reasoning?: string;
  signature?: string;
  calls?: ProviderToolCall[];
  usage?: ProviderUsage;
}
export interface HookCompactionPrepare {
  messages?: ProviderMessage[];
  guidance?: string;
}
export interface HookSession<Phase extends SessionEventPhase = SessionEventPhase> {
  sessionPath?: string;
  phase: Phase;
}
/** The `phase` a `session.*` hook payload carries (not the SessionRuntime's lifecycle). */
export type SessionEventPhase = 'start' | 'end' | 'load' | 'save' | 'rotate';

/** Payload type per hook point. */
export interface HookPayloadMap {
  'input.receive': HookInputReceive;
  'tool.before': HookToolBefore;
  'tool.after': HookToolAfter;
  'permission.decision': HookPermissionDecision;
  'agent.before_start': HookAgentBeforeStart;
  'system_prompt.build': HookSystemPromptBuild;
  'context.prepare': HookContextPrepare;
  'provider.request': HookProviderRequest;
  'provider.response': HookProviderResponse;
  'compaction.prepare': HookCompactionPrepare;
  'compaction.complete': HookCompactionComplete;
  'session.start': HookSession<'start'>;
  'session.end': HookSession<'end'>;
  'session.load': HookSession<'load'>;
  'session.save': HookSession<'save'>;
  'session.rotate': HookSession<'rotate'>;
  'frontend.event': HookFrontendEvent;
}
export type HookPayload = HookPayloadMap[HookPoint];

const DEFS: Readonly<Record<HookPoint, DefName>> = {
  'input.receive': 'HookInputReceive',
  'tool.before': 'HookToolBefore',
  'tool.after': 'HookToolAfter',
  'permission.decision': 'HookPermissionDecision',
  'agent.before_start': 'HookAgentBeforeStart',
  'system_prompt.build': 'HookSystemPromptBuild',
  'context.prepare': 'HookContextPrepare',
  'provider.request': 'HookProviderRequest',
  'provider.response': 'HookProviderResponse',
  'compaction.prepare': 'HookCompactionPrepare',
  'compaction.complete': 'HookCompactionComplete',
  'session.start': 'HookSession',
  'session.end': 'HookSession',
  'session.load': 'HookSession',
  'session.save': 'HookSession',
  'session.rotate': 'HookSession',
  'frontend.event': 'HookFrontendEvent',
};

function isZero(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    value === false ||
    value === 0 ||
    (Array.isArray(value) && value.length === 0)
  );
}

/**
 * The payload as the host sends it: top-level members that are zero-valued (empty string,
 * false, 0, null, empty array, absent) are dropped, except provider.request's `request`.
 * `context.prepare` with no messages therefore becomes `{}`. Nested values are left untouched.
 */
export function buildHookPayload<P extends HookPoint>(point: P, fields: HookPayloadMap[P]): HookPayloadMap[P] {
  const out: Record<string, unknown> = {};
  const from = fields as Record<string, unknown>;
  for (const key in from) {
    if (!Object.prototype.hasOwnProperty.call(from, key)) continue;
    const value = from[key];
    if (point === 'provider.request' && key === 'request') out[key] = value;
    else if (!isZero(value)) out[key] = value;
  }
  return out as unknown as HookPayloadMap[P];
}

export interface DecodeOptions {
  /**
   * Whether the host knows a tool by this name. Used only for `tool.before` replacements (a
   * replacement naming an unknown tool is a contract violation for every plugin class); absent =
   * any non-empty name is accepted.
   */
  knownTools?: (name: string) => boolean;
}

function fail(message: string): { ok: false; message: string } {
  return { ok: false, message };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `arguments` text that parses to a JSON object (the text itself must be non-empty). */
function checkObjectText(text: string, at: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return `${at}: must be JSON object text`;
  }
  return isPlainObject(parsed) ? undefined : `${at}: must be JSON object text`;
}

function checkEach(items: unknown[], def: DefName, at: string): string | undefined {
  for (let i = 0; i < items.length; i++) {
    const r = validateDef(def, items[i]);
    if (!r.ok) return prefixed(`${at}/${i}`, r.message);
  }
  return undefined;
}

function prefixed(at: string, message: string): string {
  return message.startsWith('/:') ? `${at}${message.slice(1)}` : `${at}${message}`;
}

/** Point-specific rules beyond the schema shape (§4.1 "Replacement checks beyond the shapes"). */
function extraChecks(point: HookPoint, v: Record<string, unknown>, opts: DecodeOptions): string | undefined {
  switch (point) {
    case 'tool.before':
      return toolBeforeReplacementViolation(v, opts);
    case 'permission.decision':
    // falls through: the reference accepts a permission.decision replacement without `arguments`
    case 'tool.after':
      return typeof v.arguments === 'string' && v.arguments !== ''
        ? checkObjectText(v.arguments, '/arguments')
        : undefined;
    case 'context.prepare':
    case 'compaction.prepare':
      if (!Array.isArray(v.messages)) return "/: missing required member 'messages'";
      return checkEach(v.messages, 'ProviderMessage', '/messages');
    case 'provider.request': {
      const r = validateDef('ProviderRequest', v.request);
      if (!r.ok) return prefixed('/request', r.message);
      const tools = (v.request as ProviderRequest).tools;
      for (let i = 0; i < tools.length; i++) {
        if (!isPlainObject(tools[i].parameters)) return `/request/tools/${i}/parameters: must be a JSON object`;
      }
      return undefined;
    }
    case 'provider.response': {
      if (Array.isArray(v.calls)) {
        const bad = checkEach(v.calls, 'ProviderToolCall', '/calls');
        if (bad) return bad;
      }
      if (v.usage !== undefined) {
        const r = validateDef('ProviderUsage', v.usage);
        if (!r.ok) return prefixed('/usage', r.message);
      }
      return undefined;
    }
    case 'session.start':
    case 'session.end':
    case 'session.load':
    case 'session.save':
    case 'session.rotate': {
      const phase = point.slice('session.'.length);
      return v.phase === phase ? undefined : `/phase: must be '${phase}' at ${point}`;
    }
    default:
      return undefined;
  }
}

/**
 * The `tool.before` replacement rules that are a contract violation for every plugin class
 * (HOST_SPEC §4.1, issue 11 item 3): the substituted `arguments` must be non-empty JSON object
 * text, and the `name` must be a tool the host knows when the caller passed its known tools.
 * Checked on the raw replacement before the strict decode, so an optional plugin cannot get such
 * a replacement "ignored" with the original arguments kept. Undefined when none applies.
 * (`permission.decision` replacements are not held to this: one without `arguments` is accepted,
 * as the reference does.)
 */
export function toolBeforeReplacementViolation(value: unknown, opts: DecodeOptions = {}): string | undefined {
  if (!isPlainObject(value)) return undefined; // the strict decode reports the shape
  const args = value.arguments;
  if (typeof args !== 'string' || args.trim() === '') return '/arguments: must be non-empty JSON object text';
  const bad = checkObjectText(args, '/arguments');
  if (bad) return bad;
  if (opts.knownTools && typeof value.name === 'string' && value.name !== '' && !opts.knownTools(value.name)) {
    return `/name: unknown tool '${value.name}'`;
  }
  return undefined;
}

/**
 * Strictly checks a payload for `point` (unknown members, wrong types, missing required members
 * and the point's extra rules are all rejected), without building the host form: what a caller
 * hands the dispatcher, which builds it once.
 */
export function checkHookPayload<P extends HookPoint>(
  point: P,
  value: unknown,
  opts: DecodeOptions = {},
): Validation<HookPayloadMap[P]> {
  const shape = validateDef<Record<string, unknown>>(DEFS[point], value);
  if (!shape.ok) return shape;
  const extra = extraChecks(point, shape.value, opts);
  if (extra) return fail(extra);
  return { ok: true, value: shape.value as unknown as HookPayloadMap[P] };
}

/** checkHookPayload, then the payload in host form (zero values dropped). */
export function decodeHookPayload<P extends HookPoint>(
  point: P,
  value: unknown,
  opts: DecodeOptions = {},
): Validation<HookPayloadMap[P]> {
  const checked = checkHookPayload(point, value, opts);
  return checked.ok ? { ok: true, value: buildHookPayload(point, checked.value) } : checked;
}

/**
 * A `replace` answer's replacement, decoded once: a `tool.before` contract violation (HOST_SPEC
 * §4.1) is reported as `everyClass` (it fails the call whatever the plugin's class), any other
 * defect as an ordinary failure of the plugin.
 */
export function decodeReplacement<P extends HookPoint>(
  point: P,
  value: unknown,
  opts: DecodeOptions = {},
): Validation<HookPayloadMap[P]> | { ok: false; message: string; everyClass: true } {
  if (point === 'tool.before') {
    const violation = toolBeforeReplacementViolation(value, opts);
    if (violation) return { ok: false, message: violation, everyClass: true };
    // The violation check is tool.before's whole extra rule: only the shape is left.
    const shape = validateDef<HookPayloadMap[P]>(DEFS[point], value);
    return shape.ok ? { ok: true, value: buildHookPayload(point, shape.value) } : shape;
  }
  return decodeHookPayload(point, value, opts);
}
