// The one PluginSpec builder for tests and benches that run a script fixture (a sidecar written
// in plain Node) with this Node, without a manifest on disk.
import * as path from 'node:path';
import type { PluginSpec, RuntimeBlock } from '../../src/host/plugins/types';

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
      ...o.runtime,
    },
  };
}
