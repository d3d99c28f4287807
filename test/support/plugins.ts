// The two ways tests and benches make a plugin: a PluginSpec for a script fixture (a sidecar
// written in plain Node) run with this Node, without a manifest on disk; or a plugin folder with
// a v1 or v2 manifest, for the discovery path (sessions, the CLI, the agent-hooks bridge).
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { CapabilityDecl, PluginSpec, ProtocolVersion, RuntimeBlock } from '../../src/host/plugins/types';

export interface ScriptPluginOptions {
  /** Arguments after the script. */
  args?: string[];
  /** Runtime members over the defaults: no env, optional, priority 0, no intercepts, replaces or capabilities, no timeout. */
  runtime?: Partial<RuntimeBlock>;
  /** Package root (REASONIX_PLUGIN_ROOT); default: the script's folder. The manifest path is reasonix-plugin.json in it. */
  root?: string;
  /** Default '1.0.0'. */
  version?: string;
  /** Default 'linked'. */
  source?: PluginSpec['source'];
  /** The protocol the sidecar is spoken to in (default 1, as a v1 manifest would pick). */
  protocol?: ProtocolVersion;
  /** v2 dependencies (default none). */
  requires?: CapabilityDecl[];
  provides?: CapabilityDecl[];
}

/** A plugin `id` whose sidecar is `node <script> ...args`. */
export function scriptPlugin(id: string, script: string, o: ScriptPluginOptions = {}): PluginSpec {
  const root = o.root ?? path.dirname(script);
  return {
    id,
    root,
    version: o.version ?? '1.0.0',
    manifestPath: path.join(root, 'reasonix-plugin.json'),
    source: o.source ?? 'linked',
    protocol: o.protocol ?? 1,
    requires: o.requires ?? [],
    provides: o.provides ?? [],
    runtime: {
      command: process.execPath,
      args: [script, ...(o.args ?? [])],
      env: {},
      required: false,
      priority: 0,
      intercepts: [],
      replaces: [],
      capabilities: [],
      timeoutMillis: 0,
      tools: [],
      ...o.runtime,
    },
  };
}

/**
 * Writes a plugin folder at `root` (created if missing): reasonix-plugin.json with a v1 manifest
 * of `name`, `version` and `runtime` exactly as given. Returns `root`.
 */
export function pluginFolder(root: string, name: string, runtime: Record<string, unknown>, version = '1.0.0'): string {
  return writeManifest(root, { apiVersion: 'reasonix.io/plugin/v1', name, version, runtime });
}

/**
 * The same with a v2 manifest (`reasonix.io/plugin/v2`): `extra` adds top-level members such as
 * `requires` and `provides`. Returns `root`.
 */
export function pluginFolderV2(
  root: string,
  name: string,
  runtime: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  version = '1.0.0',
): string {
  return writeManifest(root, { apiVersion: 'reasonix.io/plugin/v2', name, version, ...extra, runtime });
}

function writeManifest(root: string, manifest: Record<string, unknown>): string {
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, 'reasonix-plugin.json'), JSON.stringify(manifest, null, 2));
  return root;
}

/**
 * Plugin `tools` (protocol v2): the well-behaved tool fixture serving one read-only `count_words`
 * (test/fixtures/tools/tools.js); `env` reaches the sidecar (e.g. TOOLS_RECORD).
 */
export function countWordsPlugin(root: string, env: Record<string, string> = {}): string {
  return pluginFolderV2(root, 'tools', {
    command: process.execPath,
    args: [path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'tools', 'tools.js')],
    capabilities: ['tools'],
    tools: [
      {
        name: 'count_words',
        description: 'Count words',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        readOnly: true,
      },
    ],
    env,
  });
}
