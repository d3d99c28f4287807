// The opening move (HOST_SPEC §2.2, HOST_SPEC_V2 §2.2) and the checks on its answer (HOST_SPEC
// §2.3, HOST_SPEC_V2 §2.3), for the plugin's own protocol. What v2 adds to the opening is the
// dependency schema revision and the manifest's tools and dependencies; to the checks, the tools
// subset and the provides ceiling.
import type {
  CapabilityWire,
  Contract,
  ErrorReason,
  InitializeParams,
  InitializeResult,
  ManifestExpectation,
  RequirementWire,
  UIActionDecl,
} from '../../protocol';
import type { Logger } from '../log';
import type { CapabilityDecl, PluginSpec } from '../plugins';
import { redact, redactDeep } from '../redact';

export type UiHost = 'desktop' | 'tui' | 'acp' | 'headless';
export interface SessionContextInput {
  sessionId: string;
  workspaceRoot: string;
  generation: number;
  /** v2 only: the dependency fingerprint of this component (HOST_SPEC_V2 §2.2); omitted when unset. */
  epoch?: string;
}

const keyOf = (c: { namespace: string; kind: string; id: string }) =>
  `${c.namespace.trim()}/${c.kind.trim()}/${c.id.trim()}`;

/** A manifest `provides` entry as the wire carries it (versionRange and optional dropped). */
function capabilityWire(c: CapabilityDecl): CapabilityWire {
  const w: CapabilityWire = { namespace: c.namespace, kind: c.kind, id: c.id };
  if (c.version) w.version = c.version;
  if (c.schemaHash) w.schemaHash = c.schemaHash;
  return w;
}

function requirementWire(c: CapabilityDecl): RequirementWire {
  const w: RequirementWire = capabilityWire(c);
  if (c.versionRange) w.versionRange = c.versionRange;
  if (c.optional) w.optional = true;
  return w;
}

/** `plugin/p` + `fake/echo` → `plugin/p/fake/echo` (HOST_SPEC_V2 §2.2, the capability address). */
const address = (c: CapabilityDecl) => `${c.namespace.replace(/\/+$/, '')}/${c.id.replace(/^\/+/, '')}`;

/** v2's expectation: the v1 members plus tools and dependencies, empty lists omitted as the reference does. */
function expectationV2(plugin: PluginSpec): ManifestExpectation {
  const rt = plugin.runtime;
  const kind = (c: CapabilityDecl) => c.kind.trim().toLowerCase();
  const lists: ManifestExpectation = {
    intercepts: [...rt.intercepts],
    replaces: [...rt.replaces],
    capabilities: [...rt.capabilities],
    tools: rt.tools.map((t) => t.name),
    requires: plugin.requires.map(requirementWire),
    provides: plugin.provides.map(capabilityWire),
    providers: plugin.provides.filter((c) => kind(c) === 'provider').map(address),
    uiActions: plugin.provides.filter((c) => kind(c) === 'uiaction').map((c) => c.id),
  };
  return Object.fromEntries(Object.entries(lists).filter(([, v]) => (v as unknown[]).length > 0));
}

/** What `extension/initialize` carries for this plugin in its protocol. */
export function initializeParams(
  plugin: PluginSpec,
  session: SessionContextInput,
  uiHost: UiHost,
  contract: Contract,
): InitializeParams {
  const ctx = { sessionId: session.sessionId, workspaceRoot: session.workspaceRoot, generation: session.generation };
  const dependencySchemaVersion = contract.features.dependencySchemaVersion;
  if (dependencySchemaVersion === undefined) {
    // v1: exactly the five seed members; the manifest expectation comes from the installed runtime block.
    const rt = plugin.runtime;
    return {
      protocolVersion: contract.major,
      protocolId: contract.protocolId,
      manifest: { intercepts: [...rt.intercepts], replaces: [...rt.replaces], capabilities: [...rt.capabilities] },
      session: ctx,
      capabilities: { contentRefs: true, uiHost, protocolVersion: contract.major },
    };
  }
  return {
    protocolVersion: contract.major,
    protocolId: contract.protocolId,
    dependencySchemaVersion,
    manifest: expectationV2(plugin),
    session: session.epoch ? { ...ctx, epoch: session.epoch } : ctx,
    capabilities: {
      contentRefs: true,
      uiHost,
      protocolVersion: contract.major,
      dependencySchemaVersion,
    },
  };
}

export interface HandshakeProblem {
  reason: ErrorReason;
  message: string;
}

const undeclared = (what: string, item: string, where: string): HandshakeProblem => ({
  reason: 'capability_not_declared',
  message: `${what} "${redact(item)}" is not declared in the manifest ${where}`,
});

/** The v2 checks (HOST_SPEC_V2 §2.3 items 6-7): tools ⊆ runtime.tools, provides within the manifest's. */
function checkV2Members(plugin: PluginSpec, result: InitializeResult): HandshakeProblem | undefined {
  const rt = plugin.runtime;
  if (result.tools?.length) {
    if (!rt.capabilities.includes('tools')) return undeclared('capability', 'tools', 'runtime.capabilities');
    const declared = new Set(rt.tools.map((t) => t.name));
    const extra = result.tools.find((t) => !declared.has(t));
    if (extra !== undefined) {
      return {
        reason: 'capability_not_declared',
        message: `served tool "${redact(extra)}" which its manifest does not declare in runtime.tools`,
      };
    }
  }
  if (result.provides?.length && plugin.provides.length) {
    const ceiling = new Set(plugin.provides.map(keyOf));
    const outside = result.provides.find((c) => !ceiling.has(keyOf(c)));
    if (outside) {
      return {
        reason: 'capability_not_declared',
        message: `provides "${redact(keyOf(outside))}" is outside the manifest provides ceiling`,
      };
    }
  }
  return undefined;
}

/** Version and subset-of-manifest rules, in the reference order. Undefined when acceptable. */
export function checkInitializeResult(
  plugin: PluginSpec,
  result: InitializeResult,
  contract: Contract,
): HandshakeProblem | undefined {
  // The schema only asks for non-empty strings; the reference also refuses blank ones (§2.3).
  for (const member of ['name', 'version'] as const) {
    if (!/\S/.test(result[member])) {
      return {
        reason: 'protocol_error',
        message: `invalid initialize result: ${member} "${redact(result[member])}" is blank`,
      };
    }
  }
  const pv = result.protocolVersion;
  if (!/^[+-]?[0-9]+$/.test(pv)) {
    return { reason: 'protocol_error', message: `protocolVersion "${redact(pv)}" is not a decimal integer` };
  }
  if (Number.parseInt(pv, 10) !== Number(contract.major)) {
    return {
      reason: 'unsupported_version',
      message: `protocolVersion ${pv} is not supported (this plugin's manifest asks for protocol ${contract.major}, ${contract.protocolId})`,
    };
  }
  const rt = plugin.runtime;
  for (const s of result.subscriptions ?? [])
    if (!rt.intercepts.includes(s)) return undeclared('subscription', s, 'runtime.intercepts');
  for (const r of result.replaces ?? [])
    if (!rt.replaces.includes(r)) return undeclared('replaced slot', r, 'runtime.replaces');
  if (result.providers?.length) {
    if (!rt.capabilities.includes('providers')) return undeclared('capability', 'providers', 'runtime.capabilities');
    const prefix = `plugin/${plugin.id}/`;
    for (const p of result.providers) {
      if (!p.ref.startsWith(prefix)) {
        return { reason: 'capability_not_declared', message: `provider ref "${redact(p.ref)}" is outside ${prefix}` };
      }
    }
  }
  if (result.uiActions?.length && !rt.capabilities.includes('ui'))
    return undeclared('capability', 'ui', 'runtime.capabilities');
  // A v1 result never carries tools or provides (its schema has neither), so these hold trivially there.
  return checkV2Members(plugin, result);
}

/**
 * What a valid result says that is kept for diagnostics only (HOST_SPEC_V2 §2.3 item 8): a
 * handshake `requires` the manifest does not declare is a warning, never a failure.
 */
export function handshakeWarnings(plugin: PluginSpec, result: InitializeResult): string[] {
  const declared = new Set(plugin.requires.map(keyOf));
  return (result.requires ?? [])
    .filter((r) => !declared.has(keyOf(r)))
    .map(
      (r) =>
        `the handshake requires "${redact(keyOf(r))}", which the manifest's requires does not declare (kept for diagnostics only)`,
    );
}

/** The tools a sidecar serves: manifest declarations it named in its result, in manifest order (HOST_SPEC_V2 §12). */
export function servedTools(plugin: PluginSpec, result: InitializeResult): PluginSpec['runtime']['tools'] {
  const served = new Set(result.tools ?? []);
  return plugin.runtime.tools.filter((t) => served.has(t.name));
}

const ACTION_ID = /^[a-z0-9-]+$/;

/** Declared actions: one bad id drops the whole set (with a warning); duplicates keep the first. */
export function acceptedUiActions(result: InitializeResult, logger: Logger): UIActionDecl[] {
  const decls = result.uiActions ?? [];
  const bad = decls.find((d) => !ACTION_ID.test(d.actionId));
  if (bad) {
    logger.warn(`ignoring all UI actions: action id "${redact(bad.actionId)}" does not match ${ACTION_ID.source}`);
    return [];
  }
  const seen = new Set<string>();
  const out: UIActionDecl[] = [];
  for (const d of decls) {
    if (seen.has(d.actionId)) continue;
    seen.add(d.actionId);
    out.push(d.label === undefined ? { actionId: d.actionId } : { actionId: d.actionId, label: redact(d.label) });
  }
  return out;
}

/**
 * The initialize result as every face sees it: every sidecar-sourced string redacted once, here,
 * so `check`, `models`, the tree and the logs never print a label, name or display name in clear.
 * Identifiers the host matches on (protocolVersion, subscriptions, replaces, provider refs,
 * action ids, tool names, capability keys) are kept verbatim, as HOST_SPEC §7 keeps form field keys.
 */
export function redactInitializeResult(result: InitializeResult): InitializeResult {
  const out = redactDeep(result);
  out.protocolVersion = result.protocolVersion;
  if (result.subscriptions) out.subscriptions = [...result.subscriptions];
  if (result.replaces) out.replaces = [...result.replaces];
  if (result.tools) out.tools = [...result.tools];
  if (result.providers && out.providers)
    out.providers = out.providers.map((p, i) => ({ ...p, ref: result.providers![i].ref }));
  if (result.uiActions && out.uiActions)
    out.uiActions = out.uiActions.map((a, i) => ({ ...a, actionId: result.uiActions![i].actionId }));
  const keys = (list: CapabilityWire[] | undefined, redacted: CapabilityWire[] | undefined) =>
    list && redacted?.map((c, i) => ({ ...c, namespace: list[i].namespace, kind: list[i].kind, id: list[i].id }));
  if (result.provides) out.provides = keys(result.provides, out.provides);
  if (result.requires) out.requires = keys(result.requires, out.requires) as RequirementWire[];
  return out;
}
