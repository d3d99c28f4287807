// What each protocol version adds to the host's duties beyond its schema, as plain data: the
// contracts (contract.ts) carry it, and the VS Code face reads it through featuresOf() without
// loading the contracts' validators (they live in the engine's bundle, dist/engine.js).
import type { ManifestMembers, ProtocolVersion, RuntimeCapability } from './contract';
import { MANIFEST_MEMBERS } from './generated/manifest';

/** What a version adds to the host's duties beyond its schema, as data the rooms read. */
export interface ContractFeatures {
  /** `stream/open` carries the runtime generation and stale chunks are dropped (HOST_SPEC_V2 §6). */
  readonly streamGeneration: boolean;
  /** A bound on the `stream/open` request, ms (HOST_SPEC_V2 §6, our policy); undefined: none (v1 reference). */
  readonly streamOpenTimeoutMs?: number;
  /** The dependency-identity schema revision sent at handshake (HOST_SPEC_V2 §2.2); undefined: not sent. */
  readonly dependencySchemaVersion?: number;
  /** `extension/tool/call` exists and a manifest's `runtime.tools` declares what it serves (HOST_SPEC_V2 §10.2, §12). */
  readonly tools: boolean;
  /** A manifest's top-level `requires`/`provides` are read and planned (HOST_SPEC_V2 §10.1, §11). */
  readonly dependencies: boolean;
  /**
   * `host/ui/publish` and `host/ui/request` need the `ui` capability in `runtime.capabilities`
   * (HOST_SPEC_V2 §7.1: refused with `capability_not_declared`); v1 has no such gate (HOST_SPEC §7).
   */
  readonly uiNeedsCapability: boolean;
  /**
   * Reasonix no longer runs this version's plugins (upstream speaks only v2 since August 2026): an
   * installed package is offered Migrate (`reasonix migrate`).
   */
  readonly migratable: boolean;
  /**
   * What a UI call (`host/ui/publish`, `host/ui/request`) made with a generation that is staged
   * (started, not yet published) gets. 'stale' (v2, HOST_SPEC_V2 §2.4 and V2-49): the stale answer
   * and nothing shown, as the reference binds the hub only at commit. 'hold' (v1): the reference
   * gave every build its own hub, so the call is accepted and shown at commit (dropped when the
   * build fails); v1 sidecars such as the hello sample publish once, right after initialized.
   * Applies to a reload only: the session's first build holds for every contract
   * (host/ui/sidecarAdapter.ts `attachSidecar`, docs/conformance.md).
   */
  readonly stagedUi: 'stale' | 'hold';
}

/** Written here because no schema says it; the lists come from the schemas (contract.ts). */
export const FEATURES: Readonly<Record<ProtocolVersion, ContractFeatures>> = {
  1: Object.freeze({
    streamGeneration: false,
    tools: false,
    dependencies: false,
    uiNeedsCapability: false,
    migratable: true,
    stagedUi: 'hold',
  }),
  2: Object.freeze({
    streamGeneration: true,
    streamOpenTimeoutMs: 60_000,
    dependencySchemaVersion: 1,
    tools: true,
    dependencies: true,
    uiNeedsCapability: true,
    migratable: false,
    stagedUi: 'stale',
  }),
};

/** The features of a version, without the contract's validators (what the VS Code face needs). */
export function featuresOf(version: ProtocolVersion): ContractFeatures {
  return version === 2 ? FEATURES[2] : FEATURES[1];
}

/**
 * What a manifest of each version may say and what it asks of the host: the part of a Contract the
 * manifest decoder (src/host/plugins) reads. Every Contract is one (contract.ts builds them from the
 * same tables); this plain form keeps the decoder, and the face that links folders, free of the
 * contracts' validators.
 */
export interface ManifestRules {
  readonly version: ProtocolVersion;
  readonly manifest: ManifestMembers;
  readonly capabilities: readonly RuntimeCapability[];
  readonly features: ContractFeatures;
}

export const MANIFEST_RULES: Readonly<Record<ProtocolVersion, ManifestRules>> = {
  1: Object.freeze({
    version: 1,
    manifest: MANIFEST_MEMBERS.v1,
    capabilities: MANIFEST_MEMBERS.v1.capabilities,
    features: FEATURES[1],
  }),
  2: Object.freeze({
    version: 2,
    manifest: MANIFEST_MEMBERS.v2,
    capabilities: MANIFEST_MEMBERS.v2.capabilities,
    features: FEATURES[2],
  }),
};
