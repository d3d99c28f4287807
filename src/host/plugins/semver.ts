// The version rules of v2 dependencies (HOST_SPEC_V2 §10.3, §11): semantic versions with an
// optional leading `v`, compared by SemVer 2.0 precedence, and `versionRange` as comma-separated
// clauses (`>=`, `<=`, `>`, `<`, `==`, `=`, or a bare version meaning exact) that must all hold.
// Small enough to own: the range syntax is Reasonix's, not npm's.

export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  /** Dot-separated pre-release identifiers; empty for a release. */
  pre: string[];
}

const SEMVER =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

export function parseSemver(text: string): SemVer | undefined {
  const m = SEMVER.exec(text.trim());
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), pre: m[4] ? m[4].split('.') : [] };
}

function compareIdent(a: string, b: string): number {
  const an = /^\d+$/.test(a);
  const bn = /^\d+$/.test(b);
  if (an && bn) return Number(a) - Number(b);
  if (an !== bn) return an ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Negative, zero or positive as `a` sorts before, with or after `b` (build metadata ignored). */
export function compareSemver(a: SemVer, b: SemVer): number {
  const core = a.major - b.major || a.minor - b.minor || a.patch - b.patch;
  if (core) return core;
  if (!a.pre.length || !b.pre.length) return b.pre.length - a.pre.length; // a release outranks its pre-releases
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const c = compareIdent(a.pre[i], b.pre[i]);
    if (c) return c;
  }
  return a.pre.length - b.pre.length;
}

type Op = '>=' | '<=' | '>' | '<' | '=';
const CLAUSE = /^(>=|<=|==|=|>|<)?\s*(\S+)$/;

/** A parsed range, or the reason it is not one. */
export function parseRange(
  text: string,
): { ok: true; clauses: { op: Op; version: SemVer }[] } | { ok: false; why: string } {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.some((p) => p === '')) return { ok: false, why: `"${text}" has an empty clause` };
  const clauses: { op: Op; version: SemVer }[] = [];
  for (const p of parts) {
    const m = CLAUSE.exec(p);
    const version = m ? parseSemver(m[2]) : undefined;
    if (!m || !version)
      return { ok: false, why: `"${p}" is not a comparison (>=, <=, >, <, ==, =) with a semantic version` };
    const op = (m[1] === '==' || !m[1] ? '=' : m[1]) as Op;
    clauses.push({ op, version });
  }
  return { ok: true, clauses };
}

export function satisfiesRange(version: SemVer, range: string): boolean {
  const r = parseRange(range);
  if (!r.ok) return false;
  return r.clauses.every(({ op, version: v }) => {
    const c = compareSemver(version, v);
    return op === '>=' ? c >= 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : op === '<' ? c < 0 : c === 0;
  });
}
