// Plugin manifests v2 (HOST_SPEC_V2 §10, cases V2-14..V2-18): strict keys naming their path, the
// runtime's tools, and the requires/provides entries with versions, ranges and schema-hash pins.
import * as assert from 'node:assert/strict';
import { decodeManifest, discoverPlugins } from '../../../src/host/plugins';
import { parseSemver, satisfiesRange } from '../../../src/host/plugins/semver';
import { makeTempHome, v1Manifest } from './temp-home';

const FILE = '/pkg/demo/reasonix-plugin.json';
const decode = (doc: unknown) => decodeManifest(JSON.stringify(doc), FILE, '/pkg/demo');
const v2 = (extra: Record<string, unknown> = {}, runtime: Record<string, unknown> = {}) => ({
  ...v1Manifest('demo', runtime),
  apiVersion: 'reasonix.io/plugin/v2',
  ...extra,
});
const reasonOf = (doc: unknown): string => {
  const m = decode(doc);
  assert.equal(m.status, 'invalid', `expected a refusal for ${JSON.stringify(doc)}`);
  return 'reason' in m ? m.reason : '';
};
const TOOL = { name: 'count_words', description: 'Count words', inputSchema: { type: 'object' }, readOnly: true };

describe('plugins: manifest v2 (HOST_SPEC_V2 §10)', () => {
  it('decodes tools, requires and provides of a full v2 manifest', () => {
    const m = decode(
      v2(
        {
          requires: [
            {
              namespace: ' plugin/base ',
              kind: 'interceptors',
              id: 'default',
              versionRange: '>=1.0.0',
              optional: true,
            },
          ],
          provides: [
            { namespace: 'plugin/demo', kind: 'provider', id: 'fake/echo', version: 'v1.0.0', schemaHash: 'sha256:41' },
            {
              namespace: 'plugin/demo',
              kind: 'tools',
              id: 'words',
              version: '1.0.0',
              versionRange: '>=9',
              optional: true,
            },
          ],
        },
        {
          capabilities: ['tools', 'providers'],
          tools: [TOOL, { ...TOOL, name: 'b', readOnly: undefined }, { ...TOOL, name: 'c', anchorsView: true }],
        },
      ),
    );
    assert.equal(m.status, 'runnable', 'reason' in m ? m.reason : '');
    if (m.status !== 'runnable') return;
    assert.equal(m.protocol, 2);
    assert.deepEqual(m.runtime.tools, [
      TOOL,
      { name: 'b', description: 'Count words', inputSchema: { type: 'object' }, readOnly: false },
      // issue 41: a tool that may anchor a view to its call says so (only then a card in an MCP Apps client)
      { ...TOOL, name: 'c', anchorsView: true },
    ]);
    assert.deepEqual(m.requires, [
      { namespace: 'plugin/base', kind: 'interceptors', id: 'default', versionRange: '>=1.0.0', optional: true },
    ]);
    assert.deepEqual(m.provides, [
      { namespace: 'plugin/demo', kind: 'provider', id: 'fake/echo', version: 'v1.0.0', schemaHash: 'sha256:41' },
      { namespace: 'plugin/demo', kind: 'tools', id: 'words', version: '1.0.0' },
    ]);
    assert.deepEqual(m.warnings, []);
  });

  it('V2-14: an unknown member anywhere is refused with its path', () => {
    assert.match(reasonOf(v2({ runtimes: {} })), /unknown top-level key "runtimes"/);
    assert.match(reasonOf(v2({}, { tool: [] })), /runtime\.tool is not a known runtime field/);
    assert.match(
      reasonOf(v2({ provides: [{ namespace: 'a', kinds: 'x', kind: 'tools', id: 'i', version: '1.0.0' }] })),
      /provides\[0\]\.kinds is not a known member/,
    );
    assert.match(reasonOf(v2({ contributes: { widgets: [] } })), /unknown key "contributes\.widgets"/);
    assert.match(
      reasonOf(v2({}, { tools: [{ ...TOOL, icon: 'x' }], capabilities: ['tools'] })),
      /runtime\.tools\[0\]\.icon is not a known tool member/,
    );
    // v1 keeps its own rules: no requires/provides, no tools, no tools capability.
    assert.match(reasonOf({ ...v1Manifest('d'), requires: [] }), /unknown top-level key "requires"/);
    assert.match(reasonOf(v1Manifest('d', { tools: [] })), /runtime\.tools is not a known runtime field/);
    assert.match(reasonOf(v1Manifest('d', { capabilities: ['tools'] })), /"tools" is not a capability/);
  });

  it('V2-15: a provided provider, tool, ui or uiaction without schemaHash is refused, naming schemaHash', () => {
    for (const kind of ['provider', 'tool', 'ui', 'uiaction', 'UIAction']) {
      assert.match(
        reasonOf(v2({ provides: [{ namespace: 'plugin/demo', kind, id: 'x', version: '1.0.0' }] })),
        new RegExp(`provides\\[0\\]\\.schemaHash is required for a provided capability of kind "${kind}"`),
      );
    }
    assert.equal(
      decode(v2({ provides: [{ namespace: 'plugin/demo', kind: 'tools', id: 'x', version: '1.0.0' }] })).status,
      'runnable',
    );
  });

  it('V2-16: a provision without a version or with "latest" is refused', () => {
    assert.match(
      reasonOf(v2({ provides: [{ namespace: 'n', kind: 'tools', id: 'x' }] })),
      /provides\[0\]\.version is required/,
    );
    assert.match(
      reasonOf(v2({ provides: [{ namespace: 'n', kind: 'tools', id: 'x', version: 'latest' }] })),
      /provides\[0\]\.version "latest" is not a semantic version/,
    );
  });

  it('refuses blank or spaced names, duplicates, bad ranges and bad requires versions', () => {
    assert.match(
      reasonOf(v2({ requires: [{ namespace: '', kind: 'k', id: 'i' }] })),
      /requires\[0\]\.namespace is required and must not be blank/,
    );
    assert.match(reasonOf(v2({ requires: [{ namespace: 'a b', kind: 'k', id: 'i' }] })), /must not contain whitespace/);
    assert.match(
      reasonOf(
        v2({
          provides: [
            { namespace: 'n', kind: 'tools', id: 'x', version: '1.0.0' },
            { namespace: 'n', kind: 'tools', id: 'x', version: '2.0.0' },
          ],
        }),
      ),
      /provides\[1\] provides "n\/tools\/x" a second time/,
    );
    assert.match(
      reasonOf(v2({ requires: [{ namespace: 'n', kind: 'k', id: 'i', versionRange: '>=1.0, <2' }] })),
      /versionRange/,
    );
    assert.match(
      reasonOf(v2({ requires: [{ namespace: 'n', kind: 'k', id: 'i', version: '1' }] })),
      /requires\[0\]\.version "1"/,
    );
    assert.match(
      reasonOf(v2({ requires: [{ namespace: 'n', kind: 'k', id: 'i', optional: 'yes' }] })),
      /optional must be true or false/,
    );
    assert.match(reasonOf(v2({ requires: {} })), /requires must be an array/);
  });

  it('tools: name pattern, unique, non-blank description, an object input schema; a missing capability is a warning', () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ ...TOOL, name: 'has space' }, /tools\[0\]\.name must match/],
      [{ ...TOOL, name: 'x'.repeat(65) }, /tools\[0\]\.name must match/],
      [{ ...TOOL, description: ' ' }, /tools\[0\]\.description must be a non-blank string/],
      [{ ...TOOL, inputSchema: { type: 'string' } }, /tools\[0\]\.inputSchema must be a JSON Schema object/],
      [{ ...TOOL, readOnly: 'yes' }, /tools\[0\]\.readOnly must be true or false/],
      [{ ...TOOL, anchorsView: 1 }, /tools\[0\]\.anchorsView must be true or false/],
    ];
    for (const [tool, re] of bad) assert.match(reasonOf(v2({}, { capabilities: ['tools'], tools: [tool] })), re);
    assert.match(
      reasonOf(v2({}, { capabilities: ['tools'], tools: [TOOL, TOOL] })),
      /tools\[1\]\.name "count_words" is declared twice/,
    );
    const m = decode(v2({}, { tools: [TOOL] }));
    assert.equal(m.status, 'runnable');
    assert.match(
      m.status === 'runnable' ? m.warnings[0] : '',
      /runtime\.tools declares 1 tool\(s\) but runtime\.capabilities lacks "tools"/,
    );
  });

  it('a speculation slot (a fork-only v2 slot) is a manifest error (HOST_SPEC_V2 §4)', () => {
    assert.match(reasonOf(v2({}, { replaces: ['speculation'] })), /"speculation" is not a strategy slot/);
  });

  it('discovery hands a v2 spec its protocol, tools and dependencies, and collects manifest warnings', async () => {
    const home = await makeTempHome();
    try {
      const root = await home.manifest(
        'plugins/demo',
        v2({ provides: [{ namespace: 'plugin/demo', kind: 'tools', id: 't', version: '1.0.0' }] }, { tools: [TOOL] }),
      );
      await home.packages({ version: 1, plugins: [{ name: 'demo', root, enabled: true }] });
      const r = await discoverPlugins({ home: home.dir });
      assert.equal(r.plugins.length, 1);
      assert.equal(r.plugins[0].protocol, 2);
      assert.deepEqual(r.plugins[0].runtime.tools, [TOOL]);
      assert.equal(r.plugins[0].provides.length, 1);
      assert.equal(r.warnings.length, 1);
    } finally {
      await home.remove();
    }
  });
});

describe('plugins: semantic versions and ranges (HOST_SPEC_V2 §10.3, V2-17, V2-18)', () => {
  const v = (s: string) => parseSemver(s)!;
  it('V2-17: ">=1.0.0,<2.0.0" holds for 1.4.0 and not for 2.0.0', () => {
    assert.equal(satisfiesRange(v('1.4.0'), '>=1.0.0,<2.0.0'), true);
    assert.equal(satisfiesRange(v('2.0.0'), '>=1.0.0,<2.0.0'), false);
    assert.equal(satisfiesRange(v('0.9.9'), '>=1.0.0, <2.0.0'), false);
  });
  it('V2-18: a leading v is ignored; a bare version and == mean exact', () => {
    assert.deepEqual(parseSemver('v1.2.0'), parseSemver('1.2.0'));
    assert.equal(satisfiesRange(v('1.2.0'), 'v1.2.0'), true);
    assert.equal(satisfiesRange(v('1.2.0'), '==1.2.0'), true);
    assert.equal(satisfiesRange(v('1.2.1'), '=1.2.0'), false);
  });
  it('orders pre-releases below their release, numerically by identifier', () => {
    assert.equal(satisfiesRange(v('1.0.0-rc.1'), '<1.0.0'), true);
    assert.equal(satisfiesRange(v('1.0.0-rc.10'), '>1.0.0-rc.2'), true);
    assert.equal(satisfiesRange(v('1.0.0+build.5'), '=1.0.0'), true);
    assert.equal(parseSemver('1.0'), undefined);
    assert.equal(parseSemver('01.0.0'), undefined);
  });
});
