// The dependency plan (HOST_SPEC_V2 §11) as pure data: who is Inactive and why, the cascade, the
// build errors, the start order and the epochs. The conformance file runs the same rules against
// real sidecars (test/unit/conformance/v2-dependencies.test.ts).
import * as assert from 'node:assert/strict';
import { inactiveText, planDependencies, type DependencyPlan } from '../../../src/host/generations';
import type { CapabilityDecl, PluginSpec } from '../../../src/host/plugins/types';
import { scriptPlugin } from '../../support/plugins';

const cap = (id: string, extra: Partial<CapabilityDecl> = {}): CapabilityDecl => ({
  namespace: 'plugin/x',
  kind: 'interceptors',
  id,
  ...extra,
});
const provided = (id: string, version = '1.0.0', extra: Partial<CapabilityDecl> = {}) => cap(id, { version, ...extra });

function plugin(
  id: string,
  o: { requires?: CapabilityDecl[]; provides?: CapabilityDecl[]; priority?: number; protocol?: 1 | 2 } = {},
): PluginSpec {
  return scriptPlugin(id, '/nowhere/sidecar.js', {
    protocol: o.protocol ?? 2,
    requires: o.requires,
    provides: o.provides,
    runtime: { priority: o.priority ?? 0 },
  });
}

function plan(plugins: PluginSpec[]): DependencyPlan {
  const out = planDependencies(plugins);
  assert.ok(out.ok, out.ok ? '' : out.message);
  return out.plan;
}
const ids = (ps: readonly PluginSpec[]) => ps.map((p) => p.id);

describe('generations: the dependency plan (HOST_SPEC_V2 §11)', () => {
  it('v1 plugins (no requires or provides) are all active, ordered by priority then id, with no epochs', () => {
    const p = plan([
      plugin('b', { protocol: 1 }),
      plugin('a', { protocol: 1 }),
      plugin('c', { protocol: 1, priority: 5 }),
    ]);
    assert.deepEqual(ids(p.order), ['c', 'a', 'b']);
    assert.equal(p.inactive.size, 0);
    assert.deepEqual(p.edges, []);
    assert.equal(p.epochs.size, 0);
  });

  it('a missing required capability makes its plugin Inactive naming the key', () => {
    const p = plan([plugin('a', { requires: [cap('base')] }), plugin('z')]);
    assert.deepEqual(ids(p.order), ['z']);
    assert.deepEqual(p.inactive.get('a'), [{ key: 'plugin/x/interceptors/base', reason: 'dependency_unsatisfied' }]);
    assert.equal(
      inactiveText(p.inactive.get('a')!),
      'Inactive — missing required capability plugin/x/interceptors/base',
    );
  });

  it('a version that does not fit names the provider, its version and the wanted range', () => {
    const p = plan([
      plugin('a', { requires: [cap('base', { versionRange: '>=1.0.0,<2.0.0' })] }),
      plugin('b', { provides: [provided('base', '2.0.0')] }),
    ]);
    assert.deepEqual(p.inactive.get('a'), [
      {
        key: 'plugin/x/interceptors/base',
        reason: 'dependency_unsatisfied',
        why: 'b provides version 2.0.0, which is not >=1.0.0,<2.0.0',
      },
    ]);
  });

  it('a pinned hash that differs from the one fitting provider is schema_mismatch', () => {
    const p = plan([
      plugin('a', { requires: [cap('base', { schemaHash: 'sha256:aaa' })] }),
      plugin('b', { provides: [provided('base', '1.0.0', { schemaHash: 'sha256:bbb' })] }),
    ]);
    assert.equal(p.inactive.get('a')?.[0].reason, 'schema_mismatch');
    assert.match(inactiveText(p.inactive.get('a')!), /b provides schema hash sha256:bbb, not the pinned sha256:aaa/);
  });

  it('inactivity cascades to a fixed point, each consumer naming the key it lacks', () => {
    const p = plan([
      plugin('c', { requires: [cap('mid')] }),
      plugin('b', { requires: [cap('missing')], provides: [provided('mid')] }),
      plugin('a', { requires: [cap('top')] }),
      plugin('d', { requires: [cap('leaf')], provides: [provided('top')] }),
      plugin('e', { provides: [provided('leaf')] }),
    ]);
    assert.deepEqual([...p.inactive.keys()].sort(), ['b', 'c']);
    assert.deepEqual(p.inactive.get('c'), [
      { key: 'plugin/x/interceptors/mid', reason: 'dependency_unsatisfied', why: 'its provider b is inactive' },
    ]);
    assert.deepEqual(ids(p.order), ['e', 'd', 'a']);
  });

  it('an optional requirement never blocks: a diagnostic, no edge, no epoch', () => {
    const p = plan([plugin('a', { requires: [cap('extra', { optional: true })] })]);
    assert.deepEqual(ids(p.order), ['a']);
    assert.deepEqual(p.notes, ['optional dependency unsatisfied: a requires plugin/x/interceptors/extra']);
    assert.equal(p.epochs.has('a'), false);
  });

  it('providers start before consumers whatever their names and priorities (V2-24 order)', () => {
    const p = plan([
      plugin('a', { requires: [cap('b')], priority: 900 }),
      plugin('b', { provides: [provided('b')], requires: [cap('c')] }),
      plugin('c', { provides: [provided('c')], priority: -5 }),
    ]);
    assert.deepEqual(ids(p.order), ['c', 'b', 'a']);
  });

  it('among plugins ready to start: the deeper dependency rank first, then higher priority, then id', () => {
    const p = plan([
      plugin('c', { provides: [provided('k')], priority: -5 }),
      plugin('x', { requires: [cap('k')] }),
      plugin('y', { priority: -10 }),
      plugin('d', { priority: 100 }),
      plugin('e', { priority: 100 }),
    ]);
    // Ready at first: c, d, e, y (rank 0) → d, e (priority 100, by id), c (-5). Then x (rank 1) before y (rank 0).
    assert.deepEqual(ids(p.order), ['d', 'e', 'c', 'x', 'y']);
  });

  it('epochs join each satisfied requirement as key|provider|version|hash, sorted', () => {
    const p = plan([
      plugin('a', { requires: [cap('two'), cap('one', { optional: true })] }),
      plugin('p', { provides: [provided('one', '1.2.0', { schemaHash: 'sha256:1' }), provided('two', '2.0.0')] }),
    ]);
    assert.equal(p.epochs.get('a'), 'plugin/x/interceptors/one|p|1.2.0|sha256:1,plugin/x/interceptors/two|p|2.0.0|');
    assert.equal(p.epochs.has('p'), false);
  });

  it('two active providers of a required key fail the build as duplicate_provider naming both', () => {
    const out = planDependencies([
      plugin('a', { requires: [cap('k')] }),
      plugin('c', { provides: [provided('k')] }),
      plugin('b', { provides: [provided('k')] }),
    ]);
    assert.equal(out.ok, false);
    if (out.ok) return;
    assert.equal(out.reason, 'duplicate_provider');
    assert.deepEqual(out.pluginIds, ['b', 'c']);
    assert.match(out.message, /plugin\/x\/interceptors\/k has more than one provider \(b, c\), which a requires/);
  });

  it('two providers nobody requires are no error; a provider that is itself inactive is no duplicate', () => {
    assert.ok(
      planDependencies([plugin('b', { provides: [provided('k')] }), plugin('c', { provides: [provided('k')] })]).ok,
    );
    const p = plan([
      plugin('a', { requires: [cap('k')] }),
      plugin('b', { provides: [provided('k')] }),
      plugin('c', { provides: [provided('k')], requires: [cap('gone')] }),
    ]);
    assert.deepEqual(ids(p.order), ['b', 'a']);
  });

  it('a cycle of required edges fails the build with its path; through an optional edge it only orders', () => {
    const cyc = planDependencies([
      plugin('a', { requires: [cap('b')], provides: [provided('a')] }),
      plugin('b', { requires: [cap('a')], provides: [provided('b')] }),
    ]);
    assert.equal(cyc.ok, false);
    if (!cyc.ok) {
      assert.equal(cyc.reason, 'dependency_cycle');
      assert.match(cyc.message, /a -> b -> a/);
    }
    const soft = plan([
      plugin('a', { requires: [cap('b')], provides: [provided('a')] }),
      plugin('b', { requires: [cap('a', { optional: true })], provides: [provided('b')] }),
    ]);
    assert.deepEqual(ids(soft.order), ['b', 'a']);
  });

  it('the host provides no reasonix/* capability (V2-25)', () => {
    const p = plan([plugin('a', { requires: [{ namespace: 'reasonix', kind: 'browser', id: 'companion' }] })]);
    assert.equal(
      inactiveText(p.inactive.get('a')!),
      'Inactive — missing required capability reasonix/browser/companion',
    );
  });
});
