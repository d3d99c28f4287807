// Typed access to the generated standalone validators, with readable error text.
import type { ErrorObject, ValidateFunction } from 'ajv';
import * as validators from './generated/validators';
import { METHODS, type MethodName } from './generated/contract';

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

export function validateDef<T>(name: DefName, value: unknown): Validation<T> {
  const fn = validators[name] as ValidateFunction;
  if (fn(value)) return { ok: true, value: value as T };
  return { ok: false, message: describeAjvError(fn.errors?.[0]) };
}

export function validateParams<T>(method: MethodName, params: unknown): Validation<T> {
  const def = METHODS[method].params as DefName | null;
  if (!def) return { ok: true, value: params as T };
  return validateDef<T>(def, params);
}

export function validateResult<T>(method: MethodName, result: unknown): Validation<T> {
  const def = METHODS[method].result as DefName | null;
  if (!def) return { ok: true, value: result as T };
  return validateDef<T>(def, result);
}

/** `undefined` when the value is valid, else the readable reason. Allocates nothing when valid. */
export type Check = (value: unknown) => string | undefined;

const alwaysValid: Check = () => undefined;

/**
 * A method's params check as one function, for a caller that looks it up once per method and
 * then runs it per frame (the connection's gate): no table lookups and no result object per call.
 */
export function paramsCheck(method: MethodName): Check {
  const def = METHODS[method].params as DefName | null;
  if (!def) return alwaysValid;
  const fn = validators[def] as ValidateFunction;
  return (value) => (fn(value) ? undefined : describeAjvError(fn.errors?.[0]));
}

export function isMethodName(method: string): method is MethodName {
  return Object.prototype.hasOwnProperty.call(METHODS, method);
}
