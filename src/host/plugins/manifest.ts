// Reads one package's reasonix-plugin.json and decides whether this host may run it and with which
// protocol (HOST_SPEC §10, HOST_SPEC_V2 §2.1, §10). The apiVersion picks the rules:
// `reasonix.io/plugin/v1[.<minor>]` → protocol v1, exactly `reasonix.io/plugin/v2` → protocol v2,
// anything else is refused with the file and the value named. Only the runtime block (and, for v2,
// the dependency entries) is validated in depth; the declarative parts belong to Reasonix itself
// and are checked for known keys only.
import * as path from 'node:path';
import { MANIFEST_RULES, type ManifestRules, type ProtocolVersion } from '../../protocol';
import { readBounded } from '../boundedFile';
import { decodeManifestBytes } from './manifestText';
import { decodeCapabilityRefs } from './capabilityRefs';
import { decodeRuntimeBlock } from './runtime-block';
import type { CapabilityDecl, RuntimeBlock } from './types';

export const MANIFEST_FILE = 'reasonix-plugin.json';

// What each plugin API version allows is its protocol's Contract (HOST_SPEC §10, HOST_SPEC_V2
// §10.1): the member lists (from src/protocol/schema/manifest/plugin-manifest.json, the source the
// editor's schema is generated from too), the capabilities and whether `requires`/`provides` count.
/** The shape of every plugin apiVersion; which of them this host runs is `rulesFor`'s answer. */
const API_VERSION = /^reasonix\.io\/plugin\/v(0|[1-9][0-9]*)(?:\.(0|[1-9][0-9]*))?$/;
const API_V1 = /^reasonix\.io\/plugin\/v1(?:\.(0|[1-9][0-9]*))?$/;
const API_V2 = 'reasonix.io/plugin/v2';

/** The contract an apiVersion selects, or undefined when this host does not run it. */
function rulesFor(apiVersion: string): ManifestRules | undefined {
  if (apiVersion === API_V2) return MANIFEST_RULES[2];
  return API_V1.test(apiVersion) ? MANIFEST_RULES[1] : undefined;
}

interface ManifestInfo {
  manifestPath: string;
  name?: string;
  version?: string;
  description?: string;
}

export interface RunnableManifest extends ManifestInfo {
  status: 'runnable';
  protocol: ProtocolVersion;
  runtime: RuntimeBlock;
  requires: CapabilityDecl[];
  provides: CapabilityDecl[];
  /** Not errors, but worth telling the author (each names the file). */
  warnings: string[];
}

export type ManifestOutcome =
  | RunnableManifest
  | (ManifestInfo & {
      status: 'no-runtime' | 'invalid';
      reason: string;
      /** The defects one by one (each names the file), when the reason joins several. */
      problems?: string[];
    });

/** The largest reasonix-plugin.json read (1 MiB). */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

/** Editors on Windows may save JSON with a UTF-8 byte order mark; JSON.parse rejects it. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The apiVersion, read before anything else: it decides which keys are known at all. */
function apiVersionOf(
  doc: Record<string, unknown>,
  file: string,
): { rules: ManifestRules } | { status: 'no-runtime' | 'invalid'; reason: string } {
  const api = doc.apiVersion;
  if (api === undefined) {
    return {
      status: 'no-runtime',
      reason: `${file} has no apiVersion (legacy manifest): a runtime block, if any, is ignored`,
    };
  }
  if (typeof api !== 'string') {
    return {
      status: 'invalid',
      reason: `${file}: apiVersion must be a string like "${API_V2}" (got ${JSON.stringify(api)})`,
    };
  }
  if (!API_VERSION.test(api)) {
    return {
      status: 'invalid',
      reason: `${file}: apiVersion "${api}" is malformed (expected reasonix.io/plugin/v<major>[.<minor>])`,
    };
  }
  const rules = rulesFor(api);
  if (!rules) {
    return {
      status: 'invalid',
      reason: `${file}: unsupported apiVersion "${api}": this host runs plugins of apiVersion "${API_V2}" (protocol v2) and "reasonix.io/plugin/v1[.<minor>]" (protocol v1)`,
    };
  }
  return { rules };
}

function keyProblems(doc: Record<string, unknown>, rules: ManifestRules, file: string): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(doc)) {
    if (!rules.manifest.topLevelKeys.includes(key)) problems.push(`${file}: unknown top-level key "${key}"`);
  }
  if (doc.contributes !== undefined) {
    if (!isRecord(doc.contributes)) problems.push(`${file}: contributes must be an object`);
    else
      for (const key of Object.keys(doc.contributes)) {
        if (!rules.manifest.contributesKeys.includes(key)) problems.push(`${file}: unknown key "contributes.${key}"`);
      }
  }
  for (const field of ['name', 'version', 'description'] as const) {
    if (doc[field] !== undefined && typeof doc[field] !== 'string') problems.push(`${file}: ${field} must be a string`);
  }
  return problems;
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
  const api = apiVersionOf(doc, file);
  if (!('rules' in api)) return { ...info, ...api };
  const { rules } = api;

  const problems = keyProblems(doc, rules, file);
  const requires = rules.features.dependencies ? decodeCapabilityRefs(doc.requires, 'requires', file, problems) : [];
  const provides = rules.features.dependencies ? decodeCapabilityRefs(doc.provides, 'provides', file, problems) : [];
  if (doc.runtime === undefined) {
    if (problems.length) return { ...info, status: 'invalid', reason: problems.join('; '), problems };
    return {
      ...info,
      status: 'no-runtime',
      reason: `${file} declares no runtime block (declarative plugin, nothing to run)`,
    };
  }
  const rt = decodeRuntimeBlock(doc.runtime, file, root, rules);
  if (!rt.ok) problems.push(...rt.problems);
  if (problems.length || !rt.ok) return { ...info, status: 'invalid', reason: problems.join('; '), problems };
  return {
    ...info,
    status: 'runnable',
    protocol: rules.version,
    runtime: rt.runtime,
    requires,
    provides,
    warnings: rt.warnings,
  };
}

/** Reads `<root>/reasonix-plugin.json`; never throws, an unreadable file is an 'invalid' outcome. */
export async function readManifest(root: string): Promise<ManifestOutcome> {
  const manifestPath = path.join(root, MANIFEST_FILE);
  // Only a regular file, never more than the cap plus one byte (boundedFile.ts).
  const read = await readBounded(manifestPath, MAX_MANIFEST_BYTES, decodeManifestBytes);
  if (!read.ok) return { status: 'invalid', manifestPath, reason: `${manifestPath} ${read.why}` };
  const text = read.text;
  return decodeManifest(text, manifestPath, root);
}
