// `reasonix-host tools` and `reasonix-host tool` (HOST_SPEC_V2 §12) against the stdlib-only Python
// sidecar and the Node tool fixture: the listing, one call through the chain, exit statuses.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { pluginFolderV2 } from '../../support/plugins';
import { parseJson, REPO, runCli, tempDir } from './support';

const PYTHON = join(REPO, 'test', 'fixtures', 'v2', 'python-tools');
const TOOLS = join(REPO, 'test', 'fixtures', 'tools', 'tools.js');

describe('reasonix-host tools / tool', function () {
  this.timeout(30_000);
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir('tools')));
  afterEach(() => tmp.cleanup());
  const nodeTools = () =>
    pluginFolderV2(join(tmp.dir, 'counter'), 'counter', {
      command: process.execPath,
      args: [TOOLS],
      capabilities: ['tools'],
      tools: [
        { name: 'count_words', description: 'Counts words.', inputSchema: { type: 'object' }, readOnly: true },
        { name: 'fails', description: 'Always fails.', inputSchema: { type: 'object' } },
        { name: 'refuses', description: 'Answers -32601.', inputSchema: { type: 'object' } },
      ],
    });

  it('tools lists every served tool with its model-facing name, hint, description and schema (text and --json)', async () => {
    const json = await runCli(['tools', '--plugin', PYTHON, '--plugin', nodeTools(), '--json']);
    assert.equal(json.code, 0, json.stderr);
    const { tools } = parseJson<{ tools: { modelName: string; readOnly: boolean; inputSchema: unknown }[] }>(
      json.stdout,
    );
    assert.deepEqual(
      tools.map((t) => [t.modelName, t.readOnly]),
      [
        ['ext__counter__count_words', true],
        ['ext__counter__fails', false],
        ['ext__counter__refuses', false],
        ['ext__py-search__search_web', true],
        ['ext__py-search__fetch_page', true],
      ],
    );
    const text = await runCli(['tools', '--plugin', PYTHON]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^ext__py-search__search_web {2}\(read-only\)\n {2}Search the web for a query/);
    assert.match(text.stdout, /input: \{"type":"object","properties":\{"query"/);
  });

  it('tool calls one tool: 0 for a result, 1 for an isError result, a failed call or a refusal; usage errors 2', async () => {
    const dir = nodeTools();
    const ok = await runCli(['tool', 'counter', 'count_words', '--args', '{"text":"a b c"}', '--plugin', dir]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout, '  3\n', 'a result is indented: only the CLI writes at the margin');
    const own = await runCli(['tool', 'counter', 'fails', '--plugin', dir, '--json']);
    assert.equal(own.code, 1);
    assert.deepEqual(parseJson<Record<string, unknown>>(own.stdout), {
      kind: 'result',
      pluginId: 'counter',
      name: 'fails',
      modelName: 'ext__counter__fails',
      content: 'no key',
      isError: true,
    });
    const refused = await runCli(['tool', 'counter', 'refuses', '--plugin', dir]);
    assert.equal(refused.code, 1);
    assert.match(refused.stdout, /^\[failed \(extension_error -32601\): extension counter could not run tool refuses/);
    const unknown = await runCli(['tool', 'counter', 'nothing', '--plugin', dir]);
    assert.equal(unknown.code, 1);
    assert.match(
      unknown.stdout,
      /\[failed \(not_offered\): no extension of this folder offers a tool named ext__counter__nothing/,
    );
    const py = await runCli(['tool', 'py-search', 'search_web', '--args', '{"query":"x"}', '--plugin', PYTHON]);
    assert.equal(py.code, 1, 'the Python tool reports its own failure without a key');
    assert.match(py.stdout, /PY_SEARCH_API_KEY/);
    assert.equal((await runCli(['tool', 'counter'])).code, 2);
    assert.equal((await runCli(['tool', 'counter', 'x', '--args', '[1]', '--plugin', dir])).code, 2);
  });
});
