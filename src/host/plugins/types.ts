// What plugin discovery hands to the rest of the engine.
import type { ProtocolVersion, RuntimeCapability } from '../../protocol';

export type { ProtocolVersion };
export type Capability = RuntimeCapability;

/** A tool a v2 runtime declares (HOST_SPEC_V2 §10.2); the model sees it as `ext__<plugin>__<name>`. */
export interface ToolDecl {
  name: string;
  description: string;
  /** A JSON Schema object (`type: "object"`), shown to the model as the tool's input schema. */
  inputSchema: Record<string, unknown>;
  /** A hint that the tool only reads; default false. */
  readOnly: boolean;
  /**
   * A call of the tool may anchor a view to itself (`anchor: "tool:<callId>"`; issue 41, our policy):
   * only such a tool, of an extension with the `ui` capability, gets a card page in an MCP Apps client.
   */
  anchorsView?: boolean;
}

/**
 * One top-level `requires` or `provides` entry of a v2 manifest (HOST_SPEC_V2 §10.3), strings
 * trimmed. The capability key is `namespace/kind/id`.
 */
export interface CapabilityDecl {
  namespace: string;
  kind: string;
  id: string;
  /** Provides: required semver. Requires: an exact version to match. */
  version?: string;
  /** Requires only: comma-separated clauses that must all hold. */
  versionRange?: string;
  /** Provides: the declared hash. Requires: a pin the provider's hash must equal. */
  schemaHash?: string;
  /** Requires only: a missing provider is a diagnostic, not an inactive plugin. */
  optional?: boolean;
}

/** A validated `runtime` block of a plugin manifest (HOST_SPEC §10, HOST_SPEC_V2 §10.2), defaults filled in. */
export interface RuntimeBlock {
  /** As written in the manifest (may start with `${REASONIX_PLUGIN_ROOT}`); expanded at spawn. */
  command: string;
  args: string[];
  env: Record<string, string>;
  required: boolean;
  /** -1000..1000; interceptor order (ascending). */
  priority: number;
  /** Hook points, a subset of the 17 intercept events. */
  intercepts: string[];
  /** Strategy slots (system_prompt, context, …, tool:<name>, provider:<ref>). */
  replaces: string[];
  capabilities: Capability[];
  /** 0 = family defaults (5 s / 30 s); otherwise the budget for every point, clamped to 60 s when applied. */
  timeoutMillis: number;
  /** v2 only (empty for v1): the tools the sidecar may serve, in manifest order. */
  tools: ToolDecl[];
}

/** One installed, enabled plugin with a runnable runtime. */
export interface PluginSpec {
  /** The installed plugin id (record name); `/<id>:<action>` names its actions. */
  id: string;
  /** Absolute package root (REASONIX_PLUGIN_ROOT). */
  root: string;
  /** Installed version, else the manifest version, else "0.0.0". */
  version: string;
  /** Absolute path of reasonix-plugin.json. */
  manifestPath: string;
  displayName?: string;
  description?: string;
  /** The wire protocol its manifest's apiVersion picks: reasonix.io/plugin/v1[.<minor>] → 1, reasonix.io/plugin/v2 → 2. */
  protocol: ProtocolVersion;
  runtime: RuntimeBlock;
  /** v2 only (empty for v1): what the plugin needs from others of its folder. */
  requires: CapabilityDecl[];
  /** v2 only (empty for v1): what it offers them (and the ceiling of its handshake `provides`). */
  provides: CapabilityDecl[];
  /** 'installed' from plugin-packages.json, 'linked' from a development folder the user linked. */
  source: 'installed' | 'linked';
}

/** Where discovery put one plugin record (installed or linked) and why. */
export type PluginStatus = 'runnable' | 'disabled' | 'no-runtime' | 'invalid';

/** Every plugin record discovery saw, runnable or not, for lists and diagnostics. */
export interface PluginEntry {
  id: string;
  /** Absolute package root ('' when the record had no usable root). */
  root: string;
  status: PluginStatus;
  /** Readable explanation for every status but 'runnable'; names the file and the field. */
  reason?: string;
  /** Present when the manifest validated (runnable, or runnable-but-disabled for this folder). */
  spec?: PluginSpec;
  /** Where the record came from: plugin-packages.json (Reasonix installed it) or a linked folder. */
  origin: PluginSpec['source'];
  /** For status 'disabled': off in Reasonix itself (`enabled` not true, every session) or for this folder only. */
  disabledBy?: 'reasonix' | 'folder';
}

export interface DiscoveryResult {
  /** Runnable plugins, sorted by id. */
  plugins: PluginSpec[];
  /** Every record seen, sorted by id. */
  entries: PluginEntry[];
  /** Problems not tied to one plugin, e.g. an unreadable plugin-packages.json. */
  problems: string[];
  /** Manifest warnings (e.g. tools without the `tools` capability), each naming the file. */
  warnings: string[];
}
