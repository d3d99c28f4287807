// What plugin discovery hands to the rest of the engine.

export const CAPABILITIES = ['interceptors', 'strategies', 'providers', 'ui'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** A validated `runtime` block of a v1 plugin manifest (HOST_SPEC §10), defaults filled in. */
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
}

/** One installed, enabled plugin with a runnable v1 runtime. */
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
  runtime: RuntimeBlock;
  /** 'installed' from plugin-packages.json, 'linked' from a development folder the user linked. */
  source: 'installed' | 'linked';
}

/** Where discovery put one plugin record (installed or linked) and why. */
export type PluginStatus = 'runnable' | 'disabled' | 'no-runtime' | 'needs-v2-host' | 'invalid';

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
}

export interface DiscoveryResult {
  /** Runnable plugins, sorted by id. */
  plugins: PluginSpec[];
  /** Every record seen, sorted by id. */
  entries: PluginEntry[];
  /** Problems not tied to one plugin, e.g. an unreadable plugin-packages.json. */
  problems: string[];
}
