// Each protocol version's rules live in its Contract (issue 39): the lists come from the schemas,
// the manifest decoder reads them from the contract, and the faces ask the contract's features,
// never which version a plugin speaks.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { decodeManifest } from '../../src/host/plugins';
import { MANIFEST_MEMBERS, MANIFEST_RULES, V1, V2, contractFor, featuresOf } from '../../src/protocol';
import { fullTrustLines } from '../../src/vscode/displayStates';
import { scriptPlugin } from '../support/plugins';

const ROOT = path.resolve(__dirname, '../../..');

function schemaPublishKinds(version: 1 | 2): string[] {
  const file = path.join(ROOT, `src/protocol/schema/reasonix.extension.v${version}.schema.json`);
  const schema = JSON.parse(readFileSync(file, 'utf8')) as {
    $defs: { UIPublishParams: { properties: { kind: { enum: string[] } } } };
  };
  return schema.$defs.UIPublishParams.properties.kind.enum;
}

function manifest(apiVersion: string, extra: Record<string, unknown>, runtime: Record<string, unknown> = {}) {
  const text = JSON.stringify({
    apiVersion,
    name: 'p',
    version: '1.0.0',
    runtime: { command: '/usr/bin/node', ...runtime },
    ...extra,
  });
  return decodeManifest(text, '/pkg/reasonix-plugin.json', '/pkg');
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('contract rules: each version in its contract', () => {
  it('capabilities, publish kinds and manifest members come from the schemas', () => {
    for (const [c, m, v] of [
      [V1, MANIFEST_MEMBERS.v1, 1],
      [V2, MANIFEST_MEMBERS.v2, 2],
    ] as const) {
      assert.deepEqual(c.capabilities, m.capabilities);
      assert.deepEqual(c.manifest.topLevelKeys, m.topLevelKeys);
      assert.deepEqual(c.manifest.runtimeKeys, m.runtimeKeys);
      assert.deepEqual(c.manifest.contributesKeys, m.contributesKeys);
      assert.deepEqual([...c.publishKinds], schemaPublishKinds(v));
      assert.equal(contractFor(v), c);
    }
    assert.equal(V1.features.tools, V1.manifest.runtimeKeys.includes('tools'));
    assert.equal(V2.features.tools, V2.manifest.runtimeKeys.includes('tools'));
    assert.equal(V2.features.dependencies, V2.manifest.topLevelKeys.includes('requires'));
    assert.equal(V1.features.dependencies, V1.manifest.topLevelKeys.includes('requires'));
  });

  it('the plain rules the manifest decoder and the face read are each contract’s own (no second table)', () => {
    for (const c of [V1, V2]) {
      const r = MANIFEST_RULES[c.version];
      assert.equal(r.features, c.features, 'the same frozen features object');
      assert.equal(featuresOf(c.version), c.features);
      assert.deepEqual(r.manifest, c.manifest);
      assert.deepEqual(r.capabilities, c.capabilities);
      assert.equal(r.version, c.version);
    }
  });

  it('a manifest is judged by its contract: capabilities, runtime members, tools and dependencies', () => {
    const tool = { name: 't', description: 'd', inputSchema: { type: 'object' } };
    const v1 = manifest('reasonix.io/plugin/v1', {}, { capabilities: ['tools'], tools: [tool] });
    assert.equal(v1.status, 'invalid');
    const why = v1.status === 'invalid' ? v1.reason : '';
    assert.match(why, new RegExp(`"tools" is not a capability \\(known: ${V1.capabilities.join(', ')}\\)`));
    assert.match(
      why,
      new RegExp(`runtime\\.tools is not a known runtime field \\(known: ${V1.manifest.runtimeKeys.join(', ')}\\)`),
    );

    const v2 = manifest(
      'reasonix.io/plugin/v2',
      { requires: [{ namespace: 'n', kind: 'k', id: 'i' }] },
      { capabilities: ['tools', 'ui'], tools: [tool] },
    );
    assert.equal(v2.status, 'runnable');
    if (v2.status !== 'runnable') return;
    assert.equal(v2.protocol, 2);
    assert.deepEqual(
      v2.runtime.tools.map((t) => t.name),
      ['t'],
    );
    assert.equal(v2.requires.length, 1);
  });

  it('the details the face shows follow the contract’s features, v1 and v2', () => {
    const lines = (protocol: 1 | 2) =>
      fullTrustLines(scriptPlugin('p', '/x/p.js', { protocol, runtime: { capabilities: ['ui'] } })).join('\n');
    assert.doesNotMatch(lines(1), /Tools an agent may call|Requires:|Provides:/);
    assert.match(lines(2), /Tools an agent may call: /);
    assert.match(lines(2), /Requires: /);
    assert.match(lines(2), /Provides: /);
  });

  it('nothing in the faces or the engine asks which protocol version a plugin speaks', () => {
    const asks = /\.protocol\s*[!=]==?\s*[12]\b|\b[12]\s*[!=]==?\s*[\w.]*\.protocol\b/;
    const found = ['src/vscode', 'src/host', 'src/cli']
      .flatMap((d) => tsFiles(path.join(ROOT, d)))
      .filter((f) => asks.test(readFileSync(f, 'utf8')))
      .map((f) => path.relative(ROOT, f));
    assert.deepEqual(found, []);
  });
});
