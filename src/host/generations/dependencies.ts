// Dependencies between one folder's plugins (HOST_SPEC_V2 §11): each `requires` entry is resolved
// against the others' `provides`; what is missing makes its plugin Inactive (never spawned, no
// error for the session), a duplicate provider or a cycle of required edges fails the build, and
// the rest is started providers first. Pure functions over PluginSpecs: the generation reads the
// plan, the faces read the texts. v1 plugins have neither requires nor provides, so for them the
// plan is "everyone active, no edges" and changes nothing.
import {
  capabilityKey,
  compareSemver,
  parseSemver,
  satisfiesRange,
  type CapabilityDecl,
  type PluginSpec,
} from '../plugins';

/** Why a plugin is Inactive (§9: a protocol reason, shown in diagnostics; never sent on the wire). */
export type InactiveReason = 'dependency_unsatisfied' | 'schema_mismatch';
/** Why a build fails before anything spawns (§11.3, §11.5; `duplicate_provider` is a graph-level name, §9). */
export type GraphFailure = 'duplicate_provider' | 'dependency_cycle';

/**
 * Every dependency outcome in one table: what it does to the build and the sentence a user reads
 * (the same words Reasonix prints: "missing required capability <key>").
 */
export const DEPENDENCY_OUTCOMES: Readonly<
  Record<InactiveReason | GraphFailure, { effect: 'inactive' | 'build_error'; text: (subject: string) => string }>
> = {
  dependency_unsatisfied: { effect: 'inactive', text: (key) => `missing required capability ${key}` },
  schema_mismatch: { effect: 'inactive', text: (key) => `missing required capability ${key}` },
  duplicate_provider: { effect: 'build_error', text: (key) => `capability ${key} has more than one provider` },
  dependency_cycle: { effect: 'build_error', text: (path) => `required dependencies form a cycle: ${path}` },
};

/**
 * Capabilities the host itself provides to every folder (§11.1, component "host"). Our VS Code
 * host provides none, so a plugin requiring `reasonix/browser/companion` (or any `reasonix/*`
 * key) is Inactive here (§13, V2-25). An entry added here must be listed in the README.
 */
export const HOST_CAPABILITIES: readonly CapabilityDecl[] = [];
/** The component id host capabilities resolve to (never a plugin: plugin ids cannot contain a space). */
export const HOST_COMPONENT = 'the host';

/** One required capability a plugin lacks. */
export interface Unmet {
  /** `namespace/kind/id`. */
  key: string;
  reason: InactiveReason;
  /** Why beyond "missing", e.g. "b provides version 2.0.0, which is not >=1.0.0,<2.0.0"; absent when nobody provides it. */
  why?: string;
}

/** One satisfied requirement: consumer → provider. */
export interface DependencyEdge {
  consumer: string;
  provider: string;
  key: string;
  optional: boolean;
  /** The requirement's ComponentEpoch (§2.2): `<key>|<provider>|<version>|<schemaHash>`. */
  epoch: string;
}

export interface DependencyPlan {
  /** The plugins that take part, in start order: providers before consumers, ties as §11.6. */
  readonly order: readonly PluginSpec[];
  /** Plugins left out, with every required capability they lack (by id). */
  readonly inactive: ReadonlyMap<string, readonly Unmet[]>;
  /** Satisfied requirements of the active plugins (host capabilities excluded: nothing to start). */
  readonly edges: readonly DependencyEdge[];
  /** `session.epoch` per active plugin with at least one satisfied requirement (§2.2, our policy). */
  readonly epochs: ReadonlyMap<string, string>;
  /** Diagnostics: "optional dependency unsatisfied: <c> requires <key>". */
  readonly notes: readonly string[];
}

export type PlanOutcome =
  { ok: true; plan: DependencyPlan } | { ok: false; reason: GraphFailure; message: string; pluginIds: string[] };

/** "Inactive — missing required capability a/b/c (why); …": the one line every face shows. */
export function inactiveText(unmet: readonly Unmet[]): string {
  return `Inactive — ${unmetText(unmet)}`;
}

/** The reasons alone, e.g. for `state=Inactive - …` lists and notifications. */
export function unmetText(unmet: readonly Unmet[]): string {
  return unmet.map((u) => `${DEPENDENCY_OUTCOMES[u.reason].text(u.key)}${u.why ? ` (${u.why})` : ''}`).join('; ');
}

interface Provision {
  provider: string;
  decl: CapabilityDecl;
}

interface Resolution {
  /** Providers whose capability satisfies the requirement (key, pin, version). */
  fits: Provision[];
  /** When none fits: why the nearest candidate did not, and as which reason. */
  miss?: Unmet;
}

/** CONTRACT `SatisfiedBy`: key equal, schema pin equal if set, valid provider semver, exact version or range. */
function resolve(req: CapabilityDecl, byKey: ReadonlyMap<string, Provision[]>): Resolution {
  const key = capabilityKey(req);
  const candidates = byKey.get(key) ?? [];
  const versionOk = (p: Provision) => {
    const v = parseSemver(p.decl.version ?? '');
    if (!v) return false;
    if (req.version !== undefined) {
      const want = parseSemver(req.version);
      return !!want && compareSemver(v, want) === 0;
    }
    return req.versionRange === undefined || satisfiesRange(v, req.versionRange);
  };
  const pinOk = (p: Provision) => req.schemaHash === undefined || p.decl.schemaHash === req.schemaHash;
  const fits = candidates.filter((p) => versionOk(p) && pinOk(p));
  if (fits.length || !candidates.length)
    return { fits, miss: fits.length ? undefined : { key, reason: 'dependency_unsatisfied' } };
  const versioned = candidates.filter(versionOk);
  if (versioned.length) {
    const p = versioned[0];
    const why = `${p.provider} provides schema hash ${p.decl.schemaHash ?? '(none)'}, not the pinned ${req.schemaHash}`;
    return { fits, miss: { key, reason: 'schema_mismatch', why } };
  }
  const p = candidates[0];
  const wanted = req.version ?? req.versionRange ?? '';
  return {
    fits,
    miss: {
      key,
      reason: 'dependency_unsatisfied',
      why: `${p.provider} provides version ${p.decl.version}, which is not ${wanted}`,
    },
  };
}

/**
 * Plans one generation (§11.2–§11.7). Manifest entries arrive validated (the manifest decoder
 * refuses invalid ones), so the only build errors left are duplicate providers and cycles.
 */
export function planDependencies(plugins: readonly PluginSpec[]): PlanOutcome {
  const byKey = new Map<string, Provision[]>();
  const provide = (provider: string, decl: CapabilityDecl) => {
    const key = capabilityKey(decl);
    byKey.set(key, [...(byKey.get(key) ?? []), { provider, decl }]);
  };
  for (const decl of HOST_CAPABILITIES) provide(HOST_COMPONENT, decl);
  for (const p of plugins) for (const decl of p.provides) provide(p.id, decl);
  const resolved = new Map(plugins.map((p) => [p.id, p.requires.map((r) => ({ req: r, ...resolve(r, byKey) }))]));

  const inactive = settleInactive(plugins, resolved);
  const active = plugins.filter((p) => !inactive.has(p.id));
  const edges: DependencyEdge[] = [];
  const notes: string[] = [];
  for (const p of active) {
    for (const { req, fits } of resolved.get(p.id) ?? []) {
      const key = capabilityKey(req);
      const live = fits.filter((f) => !inactive.has(f.provider));
      if (live.length > 1) return duplicate(key, p.id, live);
      if (!live.length) {
        notes.push(`optional dependency unsatisfied: ${p.id} requires ${key}`); // a required one made p inactive
        continue;
      }
      const f = live[0];
      const epoch = `${key}|${f.provider}|${f.decl.version ?? ''}|${f.decl.schemaHash ?? ''}`;
      edges.push({ consumer: p.id, provider: f.provider, key, optional: req.optional === true, epoch });
    }
  }
  const pluginEdges = edges.filter((e) => e.provider !== HOST_COMPONENT);
  const cycle = findCycle(
    active.map((p) => p.id),
    pluginEdges.filter((e) => !e.optional),
  );
  if (cycle) {
    const path = cycle.join(' -> ');
    const message = `dependency_cycle: ${DEPENDENCY_OUTCOMES.dependency_cycle.text(path)}; make one of these requirements optional or remove it, then reload`;
    return { ok: false, reason: 'dependency_cycle', message, pluginIds: [...new Set(cycle)] };
  }
  const epochs = new Map<string, string>();
  for (const p of active) {
    const mine = edges.filter((e) => e.consumer === p.id).map((e) => e.epoch);
    if (mine.length) epochs.set(p.id, mine.sort().join(','));
  }
  return { ok: true, plan: { order: startOrder(active, pluginEdges), inactive, edges: pluginEdges, epochs, notes } };
}

function duplicate(key: string, consumer: string, live: readonly Provision[]): PlanOutcome {
  const names = live.map((f) => f.provider).sort();
  const message =
    `duplicate_provider: ${DEPENDENCY_OUTCOMES.duplicate_provider.text(key)} (${names.join(', ')}), which ${consumer} requires; ` +
    'disable or unlink all but one of them, then reload';
  return { ok: false, reason: 'duplicate_provider', message, pluginIds: names };
}

/** §11.3–4: inactive for a required capability nobody (active) satisfies, repeated to a fixed point. */
function settleInactive(
  plugins: readonly PluginSpec[],
  resolved: ReadonlyMap<string, readonly ({ req: CapabilityDecl } & Resolution)[]>,
): Map<string, Unmet[]> {
  const inactive = new Map<string, Unmet[]>();
  for (let changed = true; changed;) {
    changed = false;
    for (const p of plugins) {
      if (inactive.has(p.id)) continue;
      const unmet: Unmet[] = [];
      for (const { req, fits, miss } of resolved.get(p.id) ?? []) {
        if (req.optional) continue;
        if (!fits.length) unmet.push(miss ?? { key: capabilityKey(req), reason: 'dependency_unsatisfied' });
        else if (fits.every((f) => inactive.has(f.provider))) {
          const names = fits.map((f) => f.provider).join(', ');
          unmet.push({
            key: capabilityKey(req),
            reason: 'dependency_unsatisfied',
            why: `its provider ${names} is inactive`,
          });
        }
      }
      if (unmet.length) {
        inactive.set(p.id, unmet);
        changed = true;
      }
    }
  }
  return inactive;
}

/** The first cycle (in id order) among the edges, as a closed path `a, b, a`; undefined when acyclic. */
function findCycle(ids: readonly string[], edges: readonly DependencyEdge[]): string[] | undefined {
  const out = new Map<string, string[]>();
  for (const e of edges) out.set(e.consumer, [...(out.get(e.consumer) ?? []), e.provider]);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'open') return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, 'open');
    stack.push(id);
    for (const next of [...(out.get(id) ?? [])].sort()) {
      const found = visit(next);
      if (found) return found;
    }
    stack.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const id of [...ids].sort()) {
    const found = visit(id);
    if (found) return found;
  }
  return undefined;
}

/**
 * §11.6: providers before consumers; among the plugins ready to start, the deeper dependency rank
 * first, then higher `priority`, then id (one scope: every plugin of a folder is in the same one).
 * Optional edges order too unless they close a cycle with required ones; then only required order.
 */
function startOrder(active: readonly PluginSpec[], edges: readonly DependencyEdge[]): PluginSpec[] {
  return (
    topological(active, edges) ??
    topological(
      active,
      edges.filter((e) => !e.optional),
    ) ?? [...active]
  );
}

function topological(active: readonly PluginSpec[], edges: readonly DependencyEdge[]): PluginSpec[] | undefined {
  const providers = new Map<string, Set<string>>(active.map((p) => [p.id, new Set<string>()]));
  for (const e of edges) providers.get(e.consumer)?.add(e.provider);
  const rank = new Map<string, number>();
  const rankOf = (id: string, seen: Set<string>): number => {
    const known = rank.get(id);
    if (known !== undefined) return known;
    if (seen.has(id)) return Infinity; // a cycle: the caller retries without optional edges
    seen.add(id);
    const r = Math.max(-1, ...[...(providers.get(id) ?? [])].map((d) => rankOf(d, seen))) + 1;
    seen.delete(id);
    rank.set(id, r);
    return r;
  };
  for (const p of active) if (!Number.isFinite(rankOf(p.id, new Set()))) return undefined;
  const before = (a: PluginSpec, b: PluginSpec) =>
    rank.get(b.id)! - rank.get(a.id)! ||
    b.runtime.priority - a.runtime.priority ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const done = new Set<string>();
  const order: PluginSpec[] = [];
  while (order.length < active.length) {
    const ready = active.filter((p) => !done.has(p.id) && [...providers.get(p.id)!].every((d) => done.has(d)));
    if (!ready.length) return undefined;
    const next = ready.sort(before)[0];
    done.add(next.id);
    order.push(next);
  }
  return order;
}
