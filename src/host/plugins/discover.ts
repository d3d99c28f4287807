// Finds the plugins this host may run: those Reasonix installed and enabled (plugin-packages.json
// under the Reasonix home) plus development folders the user linked. One broken record or
// manifest only ever disables that plugin, with a reason; discovery itself never throws.
import * as path from 'node:path';
import { readBounded } from '../boundedFile';
import { readManifest, stripBom, type ManifestOutcome } from './manifest';
import type { DiscoveryResult, PluginEntry, PluginSpec } from './types';

export const PACKAGES_FILE = 'plugin-packages.json';
/** plugin-packages.json is a list of records: 4 MiB holds tens of thousands. */
export const MAX_PACKAGES_BYTES = 4 * 1024 * 1024;
export const PLUGIN_ID = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,63}$/;

export interface DiscoverOptions {
  /** The Reasonix home (see resolveReasonixHome). */
  home: string;
  /** Absolute development folders the user linked. */
  linked?: readonly string[];
  /** Plugin ids disabled for this workspace folder. */
  disabled?: readonly string[];
}

interface InstalledRecord {
  index: number;
  name: string;
  root: string;
  version?: string;
  description?: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The enabled, well-formed records of plugin-packages.json; everything else becomes an entry or a problem. */
async function readInstalled(home: string, entries: PluginEntry[], problems: string[]): Promise<InstalledRecord[]> {
  const file = path.join(home, PACKAGES_FILE);
  // Only a regular file, never more than the cap plus one byte (boundedFile.ts).
  const read = await readBounded(file, MAX_PACKAGES_BYTES);
  if (!read.ok) {
    // a missing file just means nothing is installed
    if (read.code !== 'ENOENT') problems.push(`${file} ${read.why}; no installed plugins loaded`);
    return [];
  }
  const text = read.text;
  let doc: unknown;
  try {
    doc = JSON.parse(stripBom(text));
  } catch (err) {
    problems.push(`${file} is not valid JSON (${(err as Error).message}); no installed plugins loaded`);
    return [];
  }
  if (!isRecord(doc) || !Array.isArray(doc.plugins)) {
    problems.push(`${file}: expected an object with a "plugins" array; no installed plugins loaded`);
    return [];
  }

  const out: InstalledRecord[] = [];
  const seen = new Set<string>();
  doc.plugins.forEach((rec: unknown, index: number) => {
    const where = `${file}: plugins[${index}]`;
    if (!isRecord(rec)) {
      problems.push(`${where} is not an object; skipped`);
      return;
    }
    const name = rec.name;
    if (typeof name !== 'string' || !PLUGIN_ID.test(name)) {
      const id = typeof name === 'string' && name ? name : `plugins[${index}]`;
      entries.push({
        id,
        root: '',
        origin: 'installed',
        status: 'invalid',
        reason: `${where}.name ${JSON.stringify(name)} is not a valid plugin id (letters, digits, '.', '_', '-'; at most 64; starting with a letter or digit)`,
      });
      return;
    }
    if (seen.has(name)) {
      entries.push({
        id: name,
        root: '',
        origin: 'installed',
        status: 'invalid',
        reason: `${where}.name "${name}" is listed twice; only the first record is used`,
      });
      return;
    }
    seen.add(name);
    const root = typeof rec.root === 'string' && rec.root.trim() ? path.resolve(home, rec.root) : '';
    if (rec.enabled !== true) {
      entries.push({
        id: name,
        root,
        origin: 'installed',
        status: 'disabled',
        disabledBy: 'reasonix',
        reason: `${where}.enabled is not true (disabled in Reasonix)`,
      });
      return;
    }
    if (!root) {
      entries.push({
        id: name,
        root,
        origin: 'installed',
        status: 'invalid',
        reason: `${where}.root must be a non-empty path (relative to ${home} or absolute)`,
      });
      return;
    }
    out.push({
      index,
      name,
      root,
      version: typeof rec.version === 'string' && rec.version.trim() ? rec.version : undefined,
      description: typeof rec.description === 'string' && rec.description.trim() ? rec.description : undefined,
    });
  });
  return out;
}

function toEntry(
  id: string,
  root: string,
  source: PluginSpec['source'],
  m: ManifestOutcome,
  warnings: string[],
  installedVersion?: string,
  installedDescription?: string,
): PluginEntry {
  if (m.status !== 'runnable') return { id, root, origin: source, status: m.status, reason: m.reason };
  warnings.push(...m.warnings);
  const spec: PluginSpec = {
    id,
    root,
    version: installedVersion ?? m.version ?? '0.0.0',
    manifestPath: m.manifestPath,
    protocol: m.protocol,
    runtime: m.runtime,
    requires: m.requires,
    provides: m.provides,
    source,
  };
  if (m.name) spec.displayName = m.name;
  const description = installedDescription ?? m.description;
  if (description) spec.description = description;
  return { id, root, origin: source, status: 'runnable', spec };
}

export async function discoverPlugins(opts: DiscoverOptions): Promise<DiscoveryResult> {
  const entries: PluginEntry[] = [];
  const problems: string[] = [];
  const warnings: string[] = [];

  const installed = await readInstalled(opts.home, entries, problems);
  const fromInstalled = await Promise.all(
    installed.map(async (r) =>
      toEntry(r.name, r.root, 'installed', await readManifest(r.root), warnings, r.version, r.description),
    ),
  );
  entries.push(...fromInstalled);

  // A linked folder has no record, so its id is the manifest's own name.
  const taken = new Set(entries.map((e) => e.id));
  for (const dir of opts.linked ?? []) {
    const root = path.resolve(dir);
    if (!path.isAbsolute(dir)) {
      entries.push({
        id: path.basename(root),
        root,
        origin: 'linked',
        status: 'invalid',
        reason: `linked folder "${dir}" must be an absolute path`,
      });
      continue;
    }
    const m = await readManifest(root);
    const name = m.name;
    if (!name || !PLUGIN_ID.test(name)) {
      const why =
        m.status === 'invalid' && !name
          ? m.reason
          : `${m.manifestPath}: name ${JSON.stringify(name ?? null)} is not a valid plugin id (a linked plugin's id is its manifest name)`;
      entries.push({ id: name || path.basename(root), root, origin: 'linked', status: 'invalid', reason: why });
      continue;
    }
    if (taken.has(name)) {
      entries.push({
        id: name,
        root,
        origin: 'linked',
        status: 'invalid',
        reason: `linked folder ${root}: plugin id "${name}" is already used by another plugin; the other one is kept`,
      });
      continue;
    }
    taken.add(name);
    entries.push(toEntry(name, root, 'linked', m, warnings));
  }

  // Per-folder switches only turn runnable plugins off; the spec stays attached for the UI.
  const disabled = new Set(opts.disabled ?? []);
  for (const e of entries) {
    if (e.status === 'runnable' && disabled.has(e.id)) {
      e.status = 'disabled';
      e.disabledBy = 'folder';
      e.reason = `"${e.id}" is disabled for this workspace folder`;
    }
  }

  entries.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const plugins = entries.filter((e) => e.status === 'runnable' && e.spec).map((e) => e.spec as PluginSpec);
  return { plugins, entries, problems, warnings };
}
