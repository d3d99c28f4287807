import * as assert from 'node:assert/strict';
import {
  formatUptime,
  fullTrustLines,
  summarize,
  toDisplayState,
  type PluginRow,
} from '../../../src/vscode/displayStates';
import { scriptPlugin } from '../../support/plugins';

const row = (pluginId: string, state: PluginRow['state']): PluginRow => ({
  sessionKey: 's',
  folderName: 'f',
  pluginId,
  state,
});

describe('display states: what the views say of each plugin', () => {
  it('maps engine states onto the six display states', () => {
    assert.equal(toDisplayState('idle'), 'stopped');
    assert.equal(toDisplayState('stopping'), 'stopped');
    assert.equal(toDisplayState('starting'), 'starting');
    assert.equal(toDisplayState('crashed'), 'crashed');
    assert.equal(toDisplayState('failed'), 'failed');
    assert.equal(toDisplayState('disabled'), 'disabled');
    assert.equal(toDisplayState('inactive'), 'inactive');
  });

  it('an inactive plugin (a dependency missing) is counted and outranks running, never a failure', () => {
    const s = summarize([row('a', 'running'), row('b', 'inactive')]);
    assert.equal(s.worst, 'inactive');
    assert.equal(s.text, '1 inactive, 1 running');
    assert.equal(summarize([row('a', 'inactive'), row('b', 'failed')]).worst, 'failed');
  });

  it('reports the worst state and counts', () => {
    assert.equal(summarize([]).worst, 'none');
    assert.equal(summarize([]).text, 'no extensions');
    const s = summarize([row('a', 'running'), row('b', 'starting'), row('c', 'running')]);
    assert.equal(s.worst, 'starting');
    assert.equal(s.text, '1 starting, 2 running');
    assert.equal(summarize([row('a', 'running'), row('b', 'crashed'), row('c', 'disabled')]).worst, 'crashed');
    assert.equal(summarize([row('a', 'failed'), row('b', 'crashed')]).worst, 'failed');
  });

  it('formats uptime compactly', () => {
    assert.equal(formatUptime(42_000), '42s');
    assert.equal(formatUptime(185_000), '3m 05s');
    assert.equal(formatUptime(2 * 3600_000 + 10 * 60_000), '2h 10m');
    assert.equal(formatUptime(-5), '0s');
    assert.equal(formatUptime(3 * 86400_000 + 4 * 3600_000), '3d 4h');
  });

  it('lists everything a FULL TRUST decision needs', () => {
    const lines = fullTrustLines({
      id: 'demo',
      root: '/p/demo',
      runtime: {
        command: '${REASONIX_PLUGIN_ROOT}/bin/demo',
        args: ['--fast'],
        env: {},
        required: true,
        priority: 0,
        intercepts: ['tool.before'],
        replaces: ['system_prompt'],
        capabilities: ['ui', 'providers'],
        timeoutMillis: 0,
        tools: [],
      },
    });
    const text = lines.join('\n');
    assert.match(text, /FULL TRUST/);
    assert.match(text, /Command: \$\{REASONIX_PLUGIN_ROOT\}\/bin\/demo --fast/);
    assert.match(text, /Intercepts: tool.before/);
    assert.match(text, /Replaces slots: system_prompt/);
    assert.match(text, /Capabilities: ui, providers/);
    assert.match(text, /Required: yes/);
    assert.doesNotMatch(text, /Tools an agent may call|Requires:|Provides:/, 'v1 has neither');
    assert.ok(lines.includes('Environment: none'), text);
  });

  it('shows the environment a manifest sets, values redacted, flagging every variable that can load code', () => {
    const env = {
      NODE_OPTIONS: '--require ./hook.js',
      LD_PRELOAD: '/tmp/x.so',
      DYLD_INSERT_LIBRARIES: '/tmp/y.dylib',
      PYTHONPATH: './lib',
      JAVA_TOOL_OPTIONS: '-javaagent:a.jar',
      PATH: './bin:/usr/bin',
      LOG_LEVEL: 'debug',
      API_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    };
    const lines = fullTrustLines(scriptPlugin('envdemo', '/p/envdemo/main.js', { runtime: { env } }));
    const line = lines.find((l) => l.startsWith('Environment: ')) ?? '';
    for (const name of [
      'NODE_OPTIONS',
      'LD_PRELOAD',
      'DYLD_INSERT_LIBRARIES',
      'PYTHONPATH',
      'JAVA_TOOL_OPTIONS',
      'PATH',
    ])
      assert.match(line, new RegExp(`${name}=[^,]* \\(loads code\\)`), `${name} flagged: ${line}`);
    assert.match(line, /LOG_LEVEL=debug(,|$)/, 'a plain variable is listed, not flagged');
    assert.doesNotMatch(line, /LOG_LEVEL=debug \(loads code\)/);
    assert.doesNotMatch(line, /ghp_abcdefghijklmnopqrstuvwxyz0123456789/, 'a value is redacted');
    assert.match(line, /API_TOKEN=/);
  });

  it("a v2 plugin's block names its tools (read-only marked) and what it requires and provides", () => {
    const lines = fullTrustLines({
      id: 'v2demo',
      root: '/p/v2demo',
      protocol: 2,
      requires: [
        { namespace: 'acme', kind: 'index', id: 'search', versionRange: '>=1.0.0,<2.0.0' },
        { namespace: 'acme', kind: 'clock', id: 'now', optional: true },
      ],
      provides: [{ namespace: 'acme', kind: 'lint', id: 'rules', version: '1.4.0' }],
      runtime: {
        command: 'python3',
        args: ['sidecar.py'],
        env: {},
        required: false,
        priority: 0,
        intercepts: [],
        replaces: [],
        capabilities: ['tools'],
        timeoutMillis: 0,
        tools: [
          { name: 'word_count', description: 'counts', inputSchema: { type: 'object' }, readOnly: true },
          { name: 'write_note', description: 'writes', inputSchema: { type: 'object' }, readOnly: false },
        ],
      },
    });
    assert.ok(lines.includes('Tools an agent may call: word_count (read-only), write_note'), lines.join('\n'));
    assert.ok(lines.includes('Requires: acme/index/search >=1.0.0,<2.0.0, acme/clock/now (optional)'));
    assert.ok(lines.includes('Provides: acme/lint/rules 1.4.0'));
  });
});
