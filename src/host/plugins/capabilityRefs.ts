// Strict decoding of a v2 manifest's top-level `requires` and `provides` entries (HOST_SPEC_V2
// §10.3). Every defect is one sentence naming the file and the entry's path, and all are reported.
import { MANIFEST_MEMBERS } from '../../protocol';
import { parseRange, parseSemver } from './semver';
import type { CapabilityDecl } from './types';

const ENTRY_KEYS: readonly string[] = MANIFEST_MEMBERS.v2.capabilityRefKeys;
/** Kinds whose `provides` entry must carry a schema hash (compared case-insensitively). */
const HASHED_KINDS = ['provider', 'tool', 'ui', 'uiaction'];

export type Side = 'requires' | 'provides';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `namespace/kind/id`: what a requirement and a provision are matched on. */
export function capabilityKey(c: { namespace: string; kind: string; id: string }): string {
  return `${c.namespace}/${c.kind}/${c.id}`;
}

export function decodeCapabilityRefs(raw: unknown, side: Side, file: string, problems: string[]): CapabilityDecl[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.push(`${file}: ${side} must be an array of {namespace, kind, id, …} entries`);
    return [];
  }
  const out: CapabilityDecl[] = [];
  const keys = new Set<string>();
  raw.forEach((entry, i) => {
    const at = `${side}[${i}]`;
    const decoded = decodeEntry(entry, side, `${file}: ${at}`, problems);
    if (!decoded) return;
    const key = capabilityKey(decoded);
    if (side === 'provides' && keys.has(key)) {
      problems.push(`${file}: ${at} provides "${key}" a second time`);
      return;
    }
    keys.add(key);
    out.push(decoded);
  });
  return out;
}

function decodeEntry(entry: unknown, side: Side, where: string, problems: string[]): CapabilityDecl | undefined {
  if (!isRecord(entry)) {
    problems.push(`${where} must be an object`);
    return undefined;
  }
  const before = problems.length;
  for (const k of Object.keys(entry)) {
    if (!ENTRY_KEYS.includes(k)) problems.push(`${where}.${k} is not a known member (known: ${ENTRY_KEYS.join(', ')})`);
  }
  const text = (k: string): string | undefined => {
    const v = entry[k];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') {
      problems.push(`${where}.${k} must be a string`);
      return undefined;
    }
    return v.trim() || undefined;
  };
  const name = (k: 'namespace' | 'kind' | 'id'): string => {
    const v = text(k);
    if (v === undefined) problems.push(`${where}.${k} is required and must not be blank`);
    else if (/\s/.test(v)) problems.push(`${where}.${k} "${v}" must not contain whitespace`);
    return v ?? '';
  };
  const decl: CapabilityDecl = { namespace: name('namespace'), kind: name('kind'), id: name('id') };
  const version = text('version');
  if (version !== undefined && !parseSemver(version))
    problems.push(`${where}.version "${version}" is not a semantic version (e.g. 1.2.0 or v1.2.0)`);
  const schemaHash = text('schemaHash');
  const versionRange = text('versionRange');
  const optional = entry.optional;
  if (optional !== undefined && typeof optional !== 'boolean') problems.push(`${where}.optional must be true or false`);
  if (side === 'provides') {
    if (version === undefined) problems.push(`${where}.version is required for a provided capability`);
    if (schemaHash === undefined && HASHED_KINDS.includes(decl.kind.toLowerCase()))
      problems.push(`${where}.schemaHash is required for a provided capability of kind "${decl.kind}"`);
  } else {
    if (versionRange !== undefined) {
      const r = parseRange(versionRange);
      if (!r.ok) problems.push(`${where}.versionRange ${r.why}`);
    }
  }
  if (problems.length > before) return undefined;
  if (version !== undefined) decl.version = version;
  if (schemaHash !== undefined) decl.schemaHash = schemaHash;
  // versionRange and optional mean nothing on a provision: accepted, not kept (HOST_SPEC_V2 §10.3).
  if (side === 'requires') {
    if (versionRange !== undefined) decl.versionRange = versionRange;
    if (optional === true) decl.optional = true;
  }
  return decl;
}
