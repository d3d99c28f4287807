import * as assert from 'node:assert/strict';
import { pluginAccessibleName, statusBarAccessibleName } from '../../../src/vscode/accessibleNames';
import type { PluginRow } from '../../../src/vscode/displayStates';

const row = (pluginId: string, state: PluginRow['state'], extra: Partial<PluginRow> = {}): PluginRow => ({
  sessionKey: 's',
  folderName: 'app',
  pluginId,
  state,
  ...extra,
});

describe('display states: accessible names of plugin rows and the status bar item', () => {
  it('says the plugin, its state, its pid and uptime ("showcase, running, pid 1234, up 42s")', () => {
    assert.equal(
      pluginAccessibleName(row('showcase', 'running', { pid: 1234, readyAt: 1_000 }), 43_000),
      'showcase, running, pid 1234, up 42s',
    );
    assert.equal(pluginAccessibleName(row('showcase', 'starting', { pid: 1234 })), 'showcase, starting, pid 1234');
    assert.equal(pluginAccessibleName(row('archive', 'crashed')), 'archive, crashed');
    assert.equal(pluginAccessibleName(row('hello', 'disabled'), 0, true), 'hello in app, disabled');
  });

  it('names the status bar item with every plugin state, folder-qualified only across folders', () => {
    assert.equal(statusBarAccessibleName([]), 'Reasonix: no extensions');
    assert.equal(
      statusBarAccessibleName([row('showcase', 'running', { pid: 1234, readyAt: 1 }), row('hello', 'crashed')]),
      'Reasonix: showcase, running, pid 1234; hello, crashed',
    );
    assert.equal(
      statusBarAccessibleName([row('a', 'running', { pid: 7 }), row('b', 'stopped', { folderName: 'api' })]),
      'Reasonix: a in app, running, pid 7; b in api, stopped',
    );
  });
});
