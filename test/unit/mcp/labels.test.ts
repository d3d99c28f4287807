// The labels of a window's MCP server definitions (issue 38 item 6): VS Code tells servers apart by
// label and names their tools after the label's first 13 characters (src/vscode/mcp/labels.ts), so
// every folder's label must be unique in those 13 characters, whatever the folders are called, and
// the hook path must recognise each folder's tool names.
import * as assert from 'node:assert/strict';
import { isAgentNameFor, labelKey, MCP_DEFINITION_LABEL } from '../../../src/host/tools';
import { definitionLabels, labelledSessions } from '../../../src/vscode/mcp/labels';

const folders = (...names: string[]) => names.map((name, index) => ({ name, index }));
const keysUnique = (labels: string[]) => new Set(labels.map(labelKey)).size === labels.length;

describe('MCP server definition labels, one per folder (issue 38)', () => {
  it('a single folder keeps the plain label', () => {
    assert.deepEqual(definitionLabels(folders('api')), [MCP_DEFINITION_LABEL]);
    assert.equal(labelKey(MCP_DEFINITION_LABEL), 'reasonix_exte');
  });

  it("several folders: each label starts with the folder's name, so its tools are named after it", () => {
    const labels = definitionLabels(folders('api', 'web'));
    assert.deepEqual(labels, [`api · ${MCP_DEFINITION_LABEL}`, `web · ${MCP_DEFINITION_LABEL}`]);
    assert.deepEqual(labels.map(labelKey), ['api_reasonix_', 'web_reasonix_']);
  });

  it('two folders of the same name get distinct labels, unique in 13 characters, by their place', () => {
    const labels = definitionLabels(folders('api', 'web', 'api'));
    assert.equal(new Set(labels).size, 3);
    assert.ok(keysUnique(labels), labels.map(labelKey).join(' '));
    assert.equal(labels[1], `web · ${MCP_DEFINITION_LABEL}`, 'a folder without a twin is not renamed');
  });

  it('names alike for 13 characters are told apart; the same input gives the same labels every run', () => {
    const input = folders('frontend-app-web', 'frontend-app-mobile', 'frontend-app-admin', 'docs');
    const labels = definitionLabels(input);
    assert.ok(keysUnique(labels), labels.map(labelKey).join(' '));
    assert.deepEqual(definitionLabels(input), labels);
  });

  it("the hook path recognises a folder's tools by its label, and VS Code's numbered variants of it", () => {
    const tool = 'ext__showcase__count_words';
    const [label] = definitionLabels(folders('api', 'web'));
    assert.ok(isAgentNameFor(`mcp_api_reasonix__${tool}`, tool, [label]));
    assert.ok(isAgentNameFor(`mcp_api_reasonix2_${tool}`, tool, [label]));
    assert.ok(!isAgentNameFor(`mcp_web_reasonix__${tool}`, tool, [label]), "another folder's server");
    assert.ok(!isAgentNameFor(`mcp_api_reasonix__${tool}`, tool), 'not the single-folder label');
  });

  it('one place labels the sessions: in workspace order whatever order they come in, each label the one its folder gets among all', () => {
    const session = (name: string, index: number) => ({ folder: { name, index }, id: `${name}#${index}` });
    const shuffled = [session('web', 1), session('api', 2), session('api', 0)];
    const out = labelledSessions(shuffled);
    assert.deepEqual(
      out.map(({ session: s }) => s.id),
      ['api#0', 'web#1', 'api#2'],
    );
    assert.deepEqual(
      out.map(({ label }) => label),
      definitionLabels(folders('api', 'web', 'api')),
    );
    assert.deepEqual(labelledSessions([session('solo', 0)]), [
      { session: session('solo', 0), label: MCP_DEFINITION_LABEL },
    ]);
  });
});
