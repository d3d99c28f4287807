import * as assert from 'node:assert/strict';
import { decodeManifest, decodeRuntimeBlock, discoverPlugins, expandCommand } from '../../../src/host/plugins';
import { makeTempHome, v1Manifest } from './temp-home';

const FILE = '/pkg/demo/reasonix-plugin.json';
const ROOT = '/pkg/demo';
const decode = (doc: unknown) => decodeManifest(JSON.stringify(doc), FILE, ROOT);
const why = (m: ReturnType<typeof decode>): string => ('reason' in m ? m.reason : '');
const reasonOf = (doc: unknown): string => {
  const m = decode(doc);
  assert.notEqual(m.status, 'runnable', `expected a refusal for ${JSON.stringify(doc)}`);
  return why(m);
};

describe('plugins: manifest apiVersion and top-level keys', () => {
  it('runs reasonix.io/plugin/v1 and v1.<minor>', () => {
    for (const apiVersion of ['reasonix.io/plugin/v1', 'reasonix.io/plugin/v1.0', 'reasonix.io/plugin/v1.7']) {
      assert.equal(decode({ ...v1Manifest('d'), apiVersion }).status, 'runnable', apiVersion);
    }
  });

  it('runs exactly reasonix.io/plugin/v2 as protocol v2 and refuses every other version, naming file and value (V2-13)', () => {
    const m = decode({ ...v1Manifest('d'), apiVersion: 'reasonix.io/plugin/v2', requires: [], provides: [] });
    assert.equal(m.status, 'runnable');
    assert.equal(m.status === 'runnable' && m.protocol, 2);
    const v1 = decode(v1Manifest('d'));
    assert.equal(v1.status === 'runnable' && v1.protocol, 1);
    for (const apiVersion of [
      'reasonix.io/plugin/v2.0',
      'reasonix.io/plugin/v2.1',
      'reasonix.io/plugin/v3',
      'reasonix.io/plugin/v0',
    ]) {
      const r = decode({ ...v1Manifest('d'), apiVersion });
      assert.equal(r.status, 'invalid', apiVersion);
      assert.match(why(r), new RegExp(`unsupported apiVersion "${apiVersion.replace(/\./g, '\\.')}"`));
      assert.match(why(r), /reasonix-plugin\.json/);
    }
  });

  it('refuses a malformed apiVersion', () => {
    for (const apiVersion of [
      'reasonix.io/plugin/1',
      'reasonix.io/plugin/v1.x',
      'reasonix.io/plugin/v01',
      'reasonix.io/plugins/v1',
      'v1',
      'reasonix.io/plugin/v1.2.3',
    ]) {
      const m = decode({ ...v1Manifest('d'), apiVersion });
      assert.equal(m.status, 'invalid', apiVersion);
      assert.match(why(m), /apiVersion .* is malformed/);
    }
    assert.match(reasonOf({ ...v1Manifest('d'), apiVersion: 1 }), /apiVersion must be a string/);
  });

  it('ignores the runtime of a legacy manifest (no apiVersion)', () => {
    const m = decode({ name: 'old', runtime: { command: '/bin/true' }, skills: [], whatever: 1 });
    assert.equal(m.status, 'no-runtime');
    assert.match(why(m), /no apiVersion \(legacy manifest\)/);
  });

  it('reports a v1 manifest without a runtime block as no-runtime', () => {
    const m = decode({
      apiVersion: 'reasonix.io/plugin/v1',
      name: 'decl',
      contributes: { skills: ['s'] },
      skills: [],
      commands: [],
      hooks: {},
      mcpServers: {},
      homepage: 'h',
      repository: 'r',
      description: 'd',
    });
    assert.equal(m.status, 'no-runtime');
  });

  it('refuses unknown top-level and contributes keys, naming key and file', () => {
    const r = reasonOf({ ...v1Manifest('d'), requires: [] });
    assert.match(r, /\/pkg\/demo\/reasonix-plugin\.json: unknown top-level key "requires"/);
    assert.match(reasonOf({ ...v1Manifest('d'), contributes: { widgets: [] } }), /unknown key "contributes\.widgets"/);
    assert.match(reasonOf({ ...v1Manifest('d'), name: 7 }), /name must be a string/);
  });

  it('refuses a file that is not a JSON object', () => {
    assert.match(decodeManifest('[1]', FILE, ROOT).status, /invalid/);
    assert.equal(decodeManifest('nope', FILE, ROOT).status, 'invalid');
  });
});

describe('plugins: runtime block validation', () => {
  const defects: [string, Record<string, unknown>, RegExp][] = [
    ['unknown key', { tools: [] }, /runtime\.tools is not a known runtime field/],
    ['missing command', { command: undefined }, /runtime\.command is required/],
    ['empty command', { command: '  ' }, /runtime\.command must be a non-empty string/],
    ['non-string command', { command: 5 }, /runtime\.command must be a non-empty string/],
    [
      'relative command',
      { command: 'bin/x' },
      /runtime\.command must be absolute after \$\{REASONIX_PLUGIN_ROOT\} expansion/,
    ],
    ['variable not as prefix', { command: 'x/${REASONIX_PLUGIN_ROOT}/bin' }, /must be absolute after/],
    ['shell command', { command: '/bin/bash' }, /runtime\.command must not be a shell/],
    ['args not an array', { args: 'a b' }, /runtime\.args must be an array/],
    ['blank arg', { args: ['ok', ' '] }, /runtime\.args\[1\] must be a non-blank string/],
    ['non-string arg', { args: [1] }, /runtime\.args\[0\] must be a non-blank string/],
    ['env not an object', { env: ['A=1'] }, /runtime\.env must be an object/],
    ['blank env key', { env: { ' ': 'x' } }, /runtime\.env has a blank key/],
    ['non-string env value', { env: { A: 1 } }, /runtime\.env\.A must be a string/],
    ['priority too high', { priority: 1001 }, /runtime\.priority must be an integer in -1000\.\.1000 \(got 1001\)/],
    ['priority too low', { priority: -1001 }, /runtime\.priority must be an integer/],
    ['fractional priority', { priority: 1.5 }, /runtime\.priority must be an integer/],
    ['string priority', { priority: '1' }, /runtime\.priority must be an integer/],
    [
      'unknown intercept point',
      { intercepts: ['tool.before', 'tool.during'] },
      /runtime\.intercepts\[1\] "tool\.during" is not an intercept point/,
    ],
    ['intercepts not an array', { intercepts: 'tool.before' }, /runtime\.intercepts must be an array/],
    ['unknown slot', { replaces: ['planner'] }, /runtime\.replaces\[0\] "planner" is not a strategy slot/],
    ['tool slot without name', { replaces: ['tool:'] }, /"tool:" needs a tool name/],
    ['provider slot without model', { replaces: ['provider:openai'] }, /needs a provider ref/],
    ['provider slot with empty part', { replaces: ['provider:/gpt'] }, /needs a provider ref/],
    ['plugin provider slot too short', { replaces: ['provider:plugin/me/model'] }, /needs a provider ref/],
    ['unknown capability', { capabilities: ['tools'] }, /runtime\.capabilities\[0\] "tools" is not a capability/],
    ['negative timeout', { timeoutMillis: -1 }, /runtime\.timeoutMillis must be a non-negative integer/],
    ['fractional timeout', { timeoutMillis: 0.5 }, /runtime\.timeoutMillis must be a non-negative integer/],
    ['non-boolean required', { required: 'yes' }, /runtime\.required must be true or false/],
  ];
  for (const [what, patch, expected] of defects) {
    it(`refuses ${what}, naming the file and the field`, () => {
      const reason = reasonOf(v1Manifest('d', patch));
      assert.match(reason, expected);
      assert.ok(reason.includes(FILE), reason);
    });
  }

  it('refuses a runtime that is not an object', () => {
    assert.match(reasonOf({ ...v1Manifest('d'), runtime: 'node x' }), /runtime must be an object/);
  });

  it('reports every defect of one block at once', () => {
    const reason = reasonOf(v1Manifest('d', { priority: 5000, capabilities: ['x'], required: 1 }));
    assert.match(reason, /priority/);
    assert.match(reason, /capabilities\[0\]/);
    assert.match(reason, /required/);
  });

  it('accepts every slot form, intercept point and capability, and keeps values as written', () => {
    const m = decode(
      v1Manifest('d', {
        command: '${REASONIX_PLUGIN_ROOT}/bin/sidecar',
        args: ['--flag', '${REASONIX_PLUGIN_ROOT}/x'],
        env: { MODE: 'test' },
        required: true,
        priority: -1000,
        intercepts: ['input.receive', 'tool.before', 'system_prompt.build'],
        replaces: [
          'system_prompt',
          'context',
          'provider_request',
          'provider_response',
          'compaction',
          'session_policy',
          'permission',
          'frontend_events',
          'tool:read_file',
          'provider:openai/gpt-4o',
          'provider:plugin/demo/local/llama-3',
          'provider:openrouter/meta/llama',
        ],
        capabilities: ['interceptors', 'strategies', 'providers', 'ui'],
        timeoutMillis: 600000,
      }),
    );
    assert.equal(m.status, 'runnable');
    if (m.status !== 'runnable') return;
    assert.equal(m.runtime.command, '${REASONIX_PLUGIN_ROOT}/bin/sidecar');
    assert.deepEqual(m.runtime.args, ['--flag', '${REASONIX_PLUGIN_ROOT}/x']);
    assert.equal(m.runtime.priority, -1000);
    assert.equal(m.runtime.required, true);
    assert.equal(m.runtime.timeoutMillis, 600000, 'clamping is the dispatcher’s job');
    assert.equal(m.runtime.replaces.length, 12);
  });

  it('expands ${REASONIX_PLUGIN_ROOT} only as a prefix', () => {
    assert.equal(expandCommand('${REASONIX_PLUGIN_ROOT}/bin/x', '/r'), '/r/bin/x');
    assert.equal(expandCommand('/abs/${REASONIX_PLUGIN_ROOT}', '/r'), '/abs/${REASONIX_PLUGIN_ROOT}');
    assert.equal(decodeRuntimeBlock({ command: '${REASONIX_PLUGIN_ROOT}/bin/x' }, FILE, '/r').ok, true);
  });

  it('shows runtime defects as the plugin entry reason during discovery', async () => {
    const home = await makeTempHome();
    try {
      await home.manifest('plugins/p', v1Manifest('p', { priority: 2000 }));
      await home.packages({ version: 1, plugins: [{ name: 'p', root: 'plugins/p', enabled: true }] });
      const r = await discoverPlugins({ home: home.dir });
      assert.equal(r.entries[0].status, 'invalid');
      assert.match(
        r.entries[0].reason ?? '',
        /plugins\/p\/reasonix-plugin\.json: runtime\.priority must be an integer in -1000\.\.1000/,
      );
    } finally {
      await home.remove();
    }
  });
});
