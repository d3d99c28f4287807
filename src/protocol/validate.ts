// Readable text for the generated standalone validators, and the shared (host schema) defs.
// Wire $defs are validated through a protocol's contract (contract.ts), which knows which
// version's validator a def has.
import type { ErrorObject, ValidateFunction } from 'ajv';
import * as validators from './generated/validators';

export type DefName = keyof typeof validators;

export interface ValidationOk<T> {
  ok: true;
  value: T;
}
export interface ValidationFailed {
  ok: false;
  /** e.g. `/payload/fields/0: must have required property 'key'` */
  message: string;
}
export type Validation<T> = ValidationOk<T> | ValidationFailed;

/** Formats the first ajv error (validators are generated without messages to keep the bundle small). */
export function describeAjvError(err: ErrorObject | undefined): string {
  if (!err) return 'invalid';
  const at = err.instancePath || '/';
  const p = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case 'required':
      return `${at}: missing required member '${String(p.missingProperty)}'`;
    case 'additionalProperties':
      return `${at}: unknown member '${String(p.additionalProperty)}'`;
    case 'type':
      return `${at}: must be ${String(p.type)}`;
    case 'enum':
      return `${at}: must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'minLength':
      return `${at}: must not be empty`;
    case 'minimum':
      return `${at}: must be >= ${String(p.limit)}`;
    case 'maximum':
      return `${at}: must be <= ${String(p.limit)}`;
    case 'pattern':
      return `${at}: must match ${String(p.pattern)}`;
    case 'const':
      return `${at}: must be ${JSON.stringify(p.allowedValue)}`;
    default:
      return `${at}: fails '${err.keyword}' ${JSON.stringify(p)}`;
  }
}

/**
 * Validates against a def by its generated name: a host schema def (UICardPayload, HookToolBefore,
 * …) or a v1 wire def, which v2 shares unless it names a `V2_` one (ProviderRequest, ProviderUsage).
 */
export function validateDef<T>(name: DefName, value: unknown): Validation<T> {
  const fn = validators[name] as ValidateFunction;
  if (fn(value)) return { ok: true, value: value as T };
  return { ok: false, message: describeAjvError(fn.errors?.[0]) };
}

/** `undefined` when the value is valid, else the readable reason. Allocates nothing when valid. */
export type Check = (value: unknown) => string | undefined;
