// A smaller, seeded run of `npm run fuzz`'s issue-45 parts inside the unit tests: the tool-name rule
// over random folders (item 1) and the wire of `reasonix-host mcp` under random hostile lines and a
// closed stdout (item 3), fixed seeds, fewer rounds.
import { strict as assert } from 'node:assert';
import { fuzzMcpWire } from '../reliability/mcpWire';
import { fuzzToolNames } from '../reliability/toolNames';

describe('reliability: tool names and the MCP wire (issue 45 items 1, 3)', function () {
  this.timeout(120_000);

  it('2,000 random folders of plugin ids and tool names with __, . and long names: no tool shadows another', () => {
    const f = fuzzToolNames({ seed: 45, folders: 2000 });
    assert.ok(f.toolsTried > 4000 && f.withheld > 100, JSON.stringify(f));
    assert.equal(f.shadowed, 0, JSON.stringify(f));
  });

  it('300 random hostile lines cut at random bytes into reasonix-host mcp, and closed-stdout runs: every answer as documented', async () => {
    const f = await fuzzMcpWire({ seed: 45, lines: 300, closedStdoutRuns: 2 });
    assert.ok(f.lines + f.oversizeLines === 300 && f.batches > 10 && f.oversizeLines > 0, JSON.stringify(f));
    assert.equal(f.wrongAnswers, 0, JSON.stringify(f));
    assert.equal(f.serverFailures, 0, JSON.stringify(f));
    assert.equal(f.closedStdoutFailures, 0, JSON.stringify(f));
  });
});
