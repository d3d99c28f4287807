// One contract per protocol version, as a value. The engine is written once and is handed the
// contract of the plugin it talks to (chosen from its manifest's apiVersion, src/host/plugins):
// the connection checks every frame against it, the handshake reads its id and major, the error
// answers use its reasons and texts. Version differences are the data below, not `if (v2)`.
import type { ValidateFunction } from 'ajv';
import {
  CONTRACT_TABLES,
  type ErrorReason,
  type MethodMeta,
  type MethodName,
  type WireDefName,
} from './generated/contract';
import { MANIFEST_MEMBERS } from './generated/manifest';
import * as validators from './generated/validators';
import { errorTable, ProtocolError, type ErrorEntry, type ProtocolErrorData, type WireError } from './errors';
import { describeAjvError, type Check, type Validation } from './validate';
import { FEATURES, type ContractFeatures } from './features';

export type { ContractFeatures } from './features';

export type ProtocolVersion = 1 | 2;

/** A runtime capability a manifest may declare (HOST_SPEC §10, HOST_SPEC_V2 §10.2). */
export type RuntimeCapability = 'interceptors' | 'strategies' | 'providers' | 'ui' | 'tools';
/** A `host/ui/publish` kind (HOST_SPEC §7.1, HOST_SPEC_V2 §7). */
export type PublishKind = 'status' | 'card' | 'form' | 'notification' | 'panel' | 'view';

/** What this version's reasonix-plugin.json may say (src/protocol/schema/manifest/plugin-manifest.json). */
export interface ManifestMembers {
  readonly topLevelKeys: readonly string[];
  readonly contributesKeys: readonly string[];
  readonly runtimeKeys: readonly string[];
}

export interface Contract {
  readonly version: ProtocolVersion;
  /** `reasonix.extension.v1` / `reasonix.extension.v2`. */
  readonly protocolId: string;
  /** The major as the decimal string the handshake carries ("1", "2"). */
  readonly major: string;
  /** What `runtime.capabilities` may name (from the manifest schema). */
  readonly capabilities: readonly RuntimeCapability[];
  /** What `host/ui/publish` takes (from the protocol schema). */
  readonly publishKinds: readonly PublishKind[];
  /** The members a manifest of this version may have. */
  readonly manifest: ManifestMembers;
  readonly features: ContractFeatures;
  /** The method's direction and class, or undefined when this version has no such method. */
  method(name: string): MethodMeta | undefined;
  /** The reason's frozen entry in this version, or undefined when this version has no such reason. */
  error(reason: string): ErrorEntry | undefined;
  /** A $def of this version's schema. */
  validateDef<T>(def: WireDefName, value: unknown): Validation<T>;
  validateParams<T>(method: MethodName, params: unknown): Validation<T>;
  validateResult<T>(method: MethodName, result: unknown): Validation<T>;
  /** A method's params check as one function, for a caller that looks it up once per method. */
  paramsCheck(method: MethodName): Check;
  /** The same for its result. */
  resultCheck(method: MethodName): Check;
  /**
   * Reads `error.data` from a peer: accepted only for a reason of this version whose `retryable`
   * matches exactly (HOST_SPEC §9.2, HOST_SPEC_V2 §9); anything else is an unstructured error.
   */
  readErrorData(data: unknown): ProtocolErrorData | undefined;
  /**
   * The error we answer a peer with. A reason this version does not have is never sent to it: the
   * answer is `internal` instead (the caller's bug, logged where it is raised).
   */
  toWire(err: ProtocolError): WireError;
  /** The answer to a request for a method this host does not serve, in this version's words. */
  unknownMethod(method: string): WireError;
}

type Tables = (typeof CONTRACT_TABLES)['v1' | 'v2'];
const alwaysValid: Check = () => undefined;

function makeContract(
  t: Tables,
  members: ManifestMembers & { readonly capabilities: readonly RuntimeCapability[] },
  features: ContractFeatures,
): Contract {
  const methods = t.methods as Readonly<Record<string, MethodMeta>>;
  const defs = t.defs as Readonly<Record<string, string>>;
  const errors = errorTable(t.errors);
  const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
  // A def is validated by the export of its own name unless the version names another (V2_<def>);
  // a def the version's schema lacks has no validator of that name for it.
  const fnOf = (def: string): ValidateFunction => {
    const fn = (validators as unknown as Record<string, ValidateFunction | undefined>)[
      own(defs, def) ? defs[def] : def
    ];
    if (!fn) throw new Error(`${t.protocolId} has no $def ${def}`);
    return fn;
  };
  const validate = <T>(def: string | null, value: unknown): Validation<T> => {
    if (!def) return { ok: true, value: value as T };
    const fn = fnOf(def);
    return fn(value) ? { ok: true, value: value as T } : { ok: false, message: describeAjvError(fn.errors?.[0]) };
  };
  const checkOf = (def: string | null): Check => {
    if (!def) return alwaysValid;
    const fn = fnOf(def);
    return (value) => (fn(value) ? undefined : describeAjvError(fn.errors?.[0]));
  };
  const unknownMethodMessage = errors.unknown_method.message;
  const contract: Contract = {
    version: t.version,
    protocolId: t.protocolId,
    major: t.major,
    capabilities: members.capabilities,
    publishKinds: t.publishKinds,
    manifest: members,
    features,
    method: (name) => (own(methods, name) ? methods[name] : undefined),
    error: (reason) => (own(errors, reason) ? errors[reason] : undefined),
    validateDef: (def, value) => validate(def, value),
    validateParams: (method, params) => validate(contract.method(method)?.params ?? null, params),
    validateResult: (method, result) => validate(contract.method(method)?.result ?? null, result),
    paramsCheck: (method) => checkOf(contract.method(method)?.params ?? null),
    resultCheck: (method) => checkOf(contract.method(method)?.result ?? null),
    readErrorData(data) {
      if (!data || typeof data !== 'object') return undefined;
      const { reason, retryable } = data as { reason?: unknown; retryable?: unknown };
      if (typeof reason !== 'string' || !own(errors, reason) || retryable !== errors[reason].retryable)
        return undefined;
      return { reason: reason as ErrorReason, retryable };
    },
    toWire(err) {
      if (own(errors, err.reason)) return err.toWire();
      return new ProtocolError('internal').toWire();
    },
    // v1 keeps the reference's "method not found: <m>" (HOST_SPEC §3); v2 answers with its frozen
    // message, which names Extension Protocol v2 (HOST_SPEC_V2 §1).
    unknownMethod: (method) =>
      new ProtocolError(
        'unknown_method',
        t.version === 1 ? `method not found: ${method}` : unknownMethodMessage,
      ).toWire(),
  };
  return Object.freeze(contract);
}

// The lists (methods, errors, publish kinds, manifest members and capabilities) come from the
// schemas through the generator; what is written here is only what no schema says.
export const V1: Contract = makeContract(CONTRACT_TABLES.v1, MANIFEST_MEMBERS.v1, FEATURES[1]);

export const V2: Contract = makeContract(CONTRACT_TABLES.v2, MANIFEST_MEMBERS.v2, FEATURES[2]);

export function contractFor(version: ProtocolVersion): Contract {
  return version === 2 ? V2 : V1;
}
