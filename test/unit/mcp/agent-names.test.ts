// How the hook path knows an agent's tool is one our MCP server serves (src/host/tools/catalog.ts
// isAgentNameFor): VS Code 1.139 names MCP tools after the server's title (seen in its shipped
// workbench: `mcp_` + serverInfo.title (else the label) lower-cased, other characters `_`, cut to fit 18 with a number for
// servers of the same label, then the tool, dots made `_`, cut at 64); Claude Code `mcp__<key>__<tool>`.
import * as assert from 'node:assert/strict';
import { isAgentNameFor } from '../../../src/host/tools';

describe('agent tool names of extension tools served over MCP', () => {
  const tool = 'ext__showcase__count_words';

  it('VS Code: the first server of our label, and the second and tenth of the same label (multi-root)', () => {
    assert.ok(isAgentNameFor(`mcp_reasonix_${tool}`, tool));
    assert.ok(isAgentNameFor(`mcp_reasonix2_${tool}`, tool));
    assert.ok(isAgentNameFor(`mcp_reasonix10_${tool}`, tool));
  });

  it('VS Code: a long name cut at 64 characters, and dots made underscores', () => {
    const long = 'ext__a-very-long-extension-name__with_a_tool_whose_name_goes_on_and_on';
    assert.ok(isAgentNameFor(`mcp_reasonix_${long}`.slice(0, 64), long));
    assert.ok(isAgentNameFor('mcp_reasonix_ext__my_ext__read_v2', 'ext__my.ext__read.v2'));
  });

  it('Claude Code: mcp__<any key>__<tool>', () => {
    assert.ok(isAgentNameFor(`mcp__reasonix__${tool}`, tool));
    assert.ok(isAgentNameFor(`mcp__my_tools__${tool}`, tool));
  });

  it('not ours: another server, another tool, the bare name, a built-in tool', () => {
    assert.ok(!isAgentNameFor(`mcp_github_${tool}`, tool));
    assert.ok(!isAgentNameFor(`mcp_reasonix_ext__showcase__add_note`, tool));
    assert.ok(!isAgentNameFor(tool, tool));
    assert.ok(!isAgentNameFor('run_in_terminal', tool));
    assert.ok(!isAgentNameFor(`mcp_reasonix_x${tool}`, tool));
  });
});
