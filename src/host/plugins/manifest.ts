// Reads one package's reasonix-plugin.json and decides whether a v1 host may run it
// (HOST_SPEC §10). Only the runtime block is validated in depth; the declarative parts belong to
// Reasonix itself and are checked for known keys only.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { decodeRuntimeBlock } from './runtime-block';
import type { RuntimeBlock } from './types';

export const MANIFEST_FILE = 'reasonix-plugin.json';

const TOP_LEVEL_KEYS = [
  'apiVersion',
  'name',
  'version',
  'description',
  'homepage',
  'repository',
  'contributes',
  'runtime',
  // legacy (pre-`contributes`) declarative keys
  'skills',
  'commands',
  'hooks',
  'mcpServers',
];
const CONTRIBUTES_KEYS = ['skills', 'agents', 'commands', 'prompts', 'themes', 'hooks', 'mcpServers'];
const API_VERSION = /^reasonix\.io\/plugin\/v(0|[1-9][0-9]*)(?:\.(0|[1-9][0-9]*))?$/;

interface ManifestInfo {
  manifestPath: string;
  name?: string;
  version?: string;
  description?: string;
}

export type ManifestOutcome =
  | (ManifestInfo & { status: 'runnable'; runtime: RuntimeBlock })
  | (ManifestInfo & { status: 'no-runtime' | 'needs-v2-host' | 'invalid'; reason: string });

/** The largest reasonix-plugin.json read (1 MiB). */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

/** Editors on Windows may save JSON with a UTF-8 byte order mark; JSON.parse rejects it. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Decides from the manifest text alone; `root` is the package root the command expands against. */
export function decodeManifest(text: string, manifestPath: string, root: string): ManifestOutcome {
  const file = manifestPath;
  let doc: unknown;
  try {
    doc = JSON.parse(stripBom(text));
  } catch (err) {
    return { status: 'invalid', manifestPath, reason: `${file} is not valid JSON: ${(err as Error).message}` };
  }
  if (!isRecord(doc)) return { status: 'invalid', manifestPath, reason: `${file} must contain a JSON object` };

  const info: ManifestInfo = { manifestPath };
  for (const field of ['name', 'version', 'description'] as const) {
    const v = doc[field];
    if (typeof v === 'string' && v.trim()) info[field] = v;
  }

  // The apiVersion decides which rules apply, so it is read before anything else: a v2 manifest
  // has keys a v1 reader does not know, and must be reported as "needs v2", not as "unknown key".
  const api = doc.apiVersion;
  if (api === undefined) {
    return {
      ...info,
      status: 'no-runtime',
      reason: `${file} has no apiVersion (legacy manifest): a runtime block, if any, is ignored`,
    };
  }
  if (typeof api !== 'string') {
    return {
      ...info,
      status: 'invalid',
      reason: `${file}: apiVersion must be a string like "reasonix.io/plugin/v1" (got ${JSON.stringify(api)})`,
    };
  }
  const m = API_VERSION.exec(api);
  if (!m) {
    return {
      ...info,
      status: 'invalid',
      reason: `${file}: apiVersion "${api}" is malformed (expected reasonix.io/plugin/v<major>[.<minor>])`,
    };
  }
  if (m[1] !== '1') {
    const why =
      m[1] === '2'
        ? 'this plugin needs a Reasonix protocol v2 host'
        : `this plugin needs a Reasonix host for plugin API v${m[1]}`;
    return {
      ...info,
      status: 'needs-v2-host',
      reason: `${why}; this host runs only reasonix.io/plugin/v1 plugins (unsupported apiVersion "${api}" in ${file})`,
    };
  }

  const problems: string[] = [];
  for (const key of Object.keys(doc)) {
    if (!TOP_LEVEL_KEYS.includes(key)) problems.push(`${file}: unknown top-level key "${key}"`);
  }
  if (doc.contributes !== undefined) {
    if (!isRecord(doc.contributes)) problems.push(`${file}: contributes must be an object`);
    else
      for (const key of Object.keys(doc.contributes)) {
        if (!CONTRIBUTES_KEYS.includes(key)) problems.push(`${file}: unknown key "contributes.${key}"`);
      }
  }
  for (const field of ['name', 'version', 'description'] as const) {
    if (doc[field] !== undefined && typeof doc[field] !== 'string') problems.push(`${file}: ${field} must be a string`);
  }
  if (doc.runtime === undefined) {
    if (problems.length) return { ...info, status: 'invalid', reason: problems.join('; ') };
    return {
      ...info,
      status: 'no-runtime',
      reason: `${file} declares no runtime block (declarative plugin, nothing to run)`,
    };
  }
  const rt = decodeRuntimeBlock(doc.runtime, file, root);
  if (!rt.ok) problems.push(...rt.problems);
  if (problems.length || !rt.ok) return { ...info, status: 'invalid', reason: problems.join('; ') };
  return { ...info, status: 'runnable', runtime: rt.runtime };
}

/** Reads `<root>/reasonix-plugin.json`; never throws, an unreadable file is an 'invalid' outcome. */
export async function readManifest(root: string): Promise<ManifestOutcome> {
  const manifestPath = path.join(root, MANIFEST_FILE);
  let text: string;
  try {
    // Bounded before it is read: a manifest is a few hundred bytes, never worth holding megabytes.
    const { size } = await fs.stat(manifestPath);
    if (size > MAX_MANIFEST_BYTES) {
      return {
        status: 'invalid',
        manifestPath,
        reason: `${manifestPath} is ${size} bytes, over the ${MAX_MANIFEST_BYTES} bytes (1 MiB) a manifest may have; it is not read`,
      };
    }
    text = await fs.readFile(manifestPath, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? (err as Error).message})`;
    return { status: 'invalid', manifestPath, reason: `${manifestPath} ${why}` };
  }
  return decodeManifest(text, manifestPath, root);
}
