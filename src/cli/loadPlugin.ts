// The CLI takes plugin folders, not a Reasonix home: each folder is read exactly as a linked
// development folder would be, so the manifest rules are the extension's own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { discoverPlugins } from '../host/plugins';
import type { PluginSpec } from '../host/plugins';

export class ManifestProblem extends Error {
  constructor(
    readonly pluginDir: string,
    readonly pluginId: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'ManifestProblem';
  }
}

/** Loads each folder's reasonix-plugin.json; the first folder that cannot run throws ManifestProblem. */
export async function loadPlugins(dirs: string[]): Promise<PluginSpec[]> {
  const emptyHome = mkdtempSync(join(tmpdir(), 'reasonix-cli-home-'));
  try {
    const linked = dirs.map((d) => resolve(d));
    const found = await discoverPlugins({ home: emptyHome, linked });
    const specs: PluginSpec[] = [];
    for (const dir of linked) {
      const entry = found.entries.find((e) => resolve(e.root) === dir);
      if (!entry) throw new ManifestProblem(dir, undefined, `${dir}: no reasonix-plugin.json was found there`);
      if (entry.status !== 'runnable' || !entry.spec) {
        throw new ManifestProblem(dir, entry.id || undefined, `${entry.id || dir}: ${entry.reason ?? entry.status}`);
      }
      specs.push(entry.spec);
    }
    return specs;
  } finally {
    rmSync(emptyHome, { recursive: true, force: true });
  }
}
