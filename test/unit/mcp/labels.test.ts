// The identity of a window's MCP servers (issues 38 and 41, src/vscode/mcp/labels.ts): VS Code
// 1.139 keeps an extension's server under its definition's label (so a folder's label must not
// change when other folders open or close, or across reloads: old chat cards name it) and names its
// tools after the server's title, cut to 13 characters and numbered in start order where two agree
// (so each folder's title must be whole and unique), and the hook path must recognise the names.
import * as assert from 'node:assert/strict';
import { isAgentNameFor, labelKey, MCP_DEFINITION_LABEL, MCP_TOOL_TITLE } from '../../../src/host/tools';
import { definitionLabels, labelledSessions, toolTitles, wordKey } from '../../../src/vscode/mcp/labels';

const folders = (...names: string[]) => names.map((name, index) => ({ name, index, path: `/work/${index}/${name}` }));
const keysUnique = (titles: string[]) => new Set(titles.map(labelKey)).size === titles.length;

describe('MCP server identity, one per folder (issues 38 and 41)', () => {
  it("a folder's label is the same whether it is open alone or with others", () => {
    const alone = definitionLabels(folders('api'));
    const withOthers = definitionLabels(folders('api', 'web'));
    assert.deepEqual(alone, [`${MCP_DEFINITION_LABEL} · api`]);
    assert.equal(withOthers[0], alone[0]);
    assert.equal(withOthers[1], `${MCP_DEFINITION_LABEL} · web`);
  });

  it('two open folders of the same name are told apart by their path, the same way every run', () => {
    const labels = definitionLabels(folders('api', 'web', 'api'));
    assert.equal(new Set(labels).size, 3);
    assert.match(labels[0], /^Reasonix extension tools · api \([0-9a-f]{6}\)$/);
    assert.equal(labels[1], `${MCP_DEFINITION_LABEL} · web`, 'a folder without a twin is not renamed');
    assert.deepEqual(definitionLabels(folders('api', 'web', 'api')), labels);
  });

  it('tool names: Reasonix alone, the folder’s name among several, whole words in 13 characters', () => {
    assert.deepEqual(toolTitles(folders('api')), [MCP_TOOL_TITLE]);
    assert.equal(labelKey(MCP_TOOL_TITLE), 'reasonix');
    assert.deepEqual(toolTitles(folders('api', 'web')), ['api', 'web']);
    assert.equal(wordKey('frontend-app-mobile'), 'frontend-app', 'cut at a word boundary, not mid-word');
    assert.equal(wordKey('My Project'), 'my_project');
    assert.equal(wordKey('abcdefghijklmnopq'), 'abcdefghijklm', 'no boundary: VS Code’s own cut');
  });

  it('titles alike in 13 characters are told apart by place; the same input gives the same titles every run', () => {
    const input = folders('frontend-app-web', 'frontend-app-mobile', 'api', 'api');
    const titles = toolTitles(input);
    assert.ok(keysUnique(titles), titles.join(' '));
    assert.deepEqual(titles, ['frontend-app', '2-frontend', 'api', '4-api']);
    assert.deepEqual(toolTitles(input), titles);
  });

  it("the hook path recognises a folder's tools by its title, and VS Code's numbered variants of it", () => {
    const tool = 'ext__showcase__count_words';
    assert.ok(isAgentNameFor(`mcp_reasonix_${tool}`, tool), 'the single-folder title by default');
    const [api] = toolTitles(folders('api', 'web'));
    assert.ok(isAgentNameFor(`mcp_api_${tool}`, tool, [api]));
    assert.ok(isAgentNameFor(`mcp_api2_${tool}`, tool, [api]));
    assert.ok(!isAgentNameFor(`mcp_web_${tool}`, tool, [api]), "another folder's server");
    assert.ok(!isAgentNameFor(`mcp_api_${tool}`, tool), 'not the single-folder title');
  });

  it('one place labels the sessions: in workspace order whatever order they come in', () => {
    const session = (name: string, index: number) => ({
      folder: { name, index, uri: { fsPath: `/work/${index}/${name}` } },
      id: `${name}#${index}`,
    });
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
    assert.deepEqual(
      out.map(({ title }) => title),
      ['api', 'web', '3-api'],
    );
    assert.deepEqual(labelledSessions([session('solo', 0)]), [
      { session: session('solo', 0), label: `${MCP_DEFINITION_LABEL} · solo`, title: MCP_TOOL_TITLE },
    ]);
  });
});
