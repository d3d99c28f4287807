// Strict decoder of every view→host message. The webview renders sidecar content, so the
// extension treats whatever it posts as untrusted input: unknown types, unknown keys, wrong
// types and oversize values are all refused with a reason that can be logged.
import type { FormValues, PromptAnswer } from '../protocol/surfaces';
import type { Drafts, ViewToHost } from './messages';

export const VIEW_LIMITS = {
  idLength: 64,
  keyLength: 8192,
  actionIdLength: 128,
  urlLength: 8192,
  fieldsPerForm: 10_000,
  fieldKeyLength: 1024,
  stringValueLength: 256 * 1024,
  multiselectItems: 10_000,
  multiselectItemLength: 4096,
  draftEntries: 500,
  draftValuesTotal: 50_000,
} as const;

export type Decoded<T> = { ok: true; value: T } | { ok: false; message: string };

class Invalid extends Error {}

function fail(message: string): never {
  throw new Invalid(message);
}

function record(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(`${what} must be an object`);
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) fail(`${what} must be a plain object`);
  return v as Record<string, unknown>;
}

function onlyKeys(o: Record<string, unknown>, allowed: readonly string[], what: string): void {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) fail(`${what} has unknown property "${k.slice(0, 64)}"`);
}

function str(v: unknown, what: string, max: number, min = 1): string {
  if (typeof v !== 'string') fail(`${what} must be a string`);
  if (v.length < min) fail(`${what} must not be empty`);
  if (v.length > max) fail(`${what} is longer than ${max} characters`);
  return v;
}

function id(v: unknown, what: string): string {
  const s = str(v, what, VIEW_LIMITS.idLength);
  if (!/^[A-Za-z0-9_-]+$/.test(s)) fail(`${what} has characters outside [A-Za-z0-9_-]`);
  return s;
}

function safeKey(k: string, what: string): void {
  if (k === '__proto__') fail(`${what} may not be "__proto__"`);
}

/** Field values: confirm → boolean, input/select → string, multiselect → string[]. */
export function decodeFormValues(v: unknown, what = 'values'): FormValues {
  const o = record(v, what);
  const keys = Object.keys(o);
  if (keys.length > VIEW_LIMITS.fieldsPerForm) fail(`${what} has more than ${VIEW_LIMITS.fieldsPerForm} fields`);
  const out: [string, boolean | string | string[]][] = [];
  for (const k of keys) {
    str(k, `${what} key`, VIEW_LIMITS.fieldKeyLength);
    safeKey(k, `${what} key`);
    const x = o[k];
    if (typeof x === 'boolean') out.push([k, x]);
    else if (typeof x === 'string') out.push([k, str(x, `${what}.${k}`, VIEW_LIMITS.stringValueLength, 0)]);
    else if (Array.isArray(x)) {
      if (x.length > VIEW_LIMITS.multiselectItems) fail(`${what}.${k} has too many items`);
      out.push([k, x.map((item, i) => str(item, `${what}.${k}[${i}]`, VIEW_LIMITS.multiselectItemLength, 0))]);
    } else fail(`${what}.${k} must be a boolean, a string or an array of strings`);
  }
  return Object.fromEntries(out);
}

function decodeAnswer(v: unknown): PromptAnswer {
  const o = record(v, 'answer');
  if (o.cancelled === true) {
    onlyKeys(o, ['cancelled'], 'answer');
    return { cancelled: true };
  }
  if (o.cancelled !== false) fail('answer.cancelled must be a boolean');
  onlyKeys(o, ['cancelled', 'values'], 'answer');
  return { cancelled: false, values: decodeFormValues(o.values, 'answer.values') };
}

function decodeDrafts(v: unknown): Drafts {
  const o = record(v, 'drafts');
  const keys = Object.keys(o);
  if (keys.length > VIEW_LIMITS.draftEntries) fail(`drafts has more than ${VIEW_LIMITS.draftEntries} entries`);
  let total = 0;
  const out: [string, FormValues][] = [];
  for (const k of keys) {
    str(k, 'drafts key', VIEW_LIMITS.keyLength);
    safeKey(k, 'drafts key');
    const values = decodeFormValues(o[k], 'draft');
    total += Object.keys(values).length;
    if (total > VIEW_LIMITS.draftValuesTotal) fail(`drafts hold more than ${VIEW_LIMITS.draftValuesTotal} values`);
    out.push([k, values]);
  }
  return Object.fromEntries(out);
}

function decode(raw: unknown): ViewToHost {
  const o = record(raw, 'message');
  switch (o.type) {
    case 'ready':
    case 'manageTrust':
      onlyKeys(o, ['type'], o.type);
      return { type: o.type };
    case 'runAction': {
      onlyKeys(o, ['type', 'requestId', 'key', 'actionId'], 'runAction');
      const actionId = str(o.actionId, 'actionId', VIEW_LIMITS.actionIdLength);
      if (!/^[a-z0-9-]+$/.test(actionId)) fail('actionId must match ^[a-z0-9-]+$');
      return {
        type: 'runAction',
        requestId: id(o.requestId, 'requestId'),
        key: str(o.key, 'key', VIEW_LIMITS.keyLength),
        actionId,
      };
    }
    case 'submit':
      onlyKeys(o, ['type', 'requestId', 'key', 'values'], 'submit');
      return {
        type: 'submit',
        requestId: id(o.requestId, 'requestId'),
        key: str(o.key, 'key', VIEW_LIMITS.keyLength),
        values: decodeFormValues(o.values),
      };
    case 'answerPrompt':
      onlyKeys(o, ['type', 'promptId', 'answer'], 'answerPrompt');
      return { type: 'answerPrompt', promptId: id(o.promptId, 'promptId'), answer: decodeAnswer(o.answer) };
    case 'openLink':
      onlyKeys(o, ['type', 'url'], 'openLink');
      return { type: 'openLink', url: str(o.url, 'url', VIEW_LIMITS.urlLength) };
    case 'persist':
      onlyKeys(o, ['type', 'drafts'], 'persist');
      return { type: 'persist', drafts: decodeDrafts(o.drafts) };
    case 'folderOpened':
      onlyKeys(o, ['type', 'sessionKey'], 'folderOpened');
      return { type: 'folderOpened', sessionKey: str(o.sessionKey, 'sessionKey', VIEW_LIMITS.keyLength) };
    default:
      return fail(
        `unknown message type ${JSON.stringify(typeof o.type === 'string' ? o.type.slice(0, 32) : typeof o.type)}`,
      );
  }
}

/** Decode one message posted by the webview; never throws. */
export function decodeViewMessage(raw: unknown): Decoded<ViewToHost> {
  try {
    return { ok: true, value: decode(raw) };
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, message: e.message };
    // A hostile object (getters that throw, proxies) lands here too.
    return { ok: false, message: `malformed message: ${e instanceof Error ? e.message : String(e)}` };
  }
}
