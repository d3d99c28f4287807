// The manifest while typing (issue 42): the editor's schema agrees with the host's decoder (both come
// from src/protocol/schema/manifest/plugin-manifest.json), and check's findings land on the member
// they are about, with the fix where it is known. The check findings come from real sidecars (v1, v2).
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import Ajv from 'ajv';
import {
  checkFindings,
  manifestFindings,
  type CheckOutcome,
  type ManifestFinding,
  type TextEdit,
} from '../../../src/host/authoring';
import { decodeManifest } from '../../../src/host/plugins';
import { runCli } from '../cli/support';
import { countWordsPlugin, pluginFolder } from '../../support/plugins';

const ROOT = '/pkg/demo';
const FILE = `${ROOT}/reasonix-plugin.json`;
const SIDE = path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'sidecars', 'well-behaved.js');
const v1 = (runtime: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'reasonix.io/plugin/v1',
  name: 'demo',
  version: '1.0.0',
  ...extra,
  runtime: { command: '/usr/bin/node', ...runtime },
});
const v2 = (runtime: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  ...v1(runtime, extra),
  apiVersion: 'reasonix.io/plugin/v2',
});
const TOOL = { name: 'count', description: 'Count', inputSchema: { type: 'object' } };

const text = (doc: unknown) => JSON.stringify(doc, null, 2);
const marked = (t: string, f: ManifestFinding) => t.slice(f.offset, f.offset + f.length);
const apply = (t: string, edits: readonly TextEdit[]) =>
  [...edits]
    .sort((a, b) => b.offset - a.offset)
    .reduce((s, e) => s.slice(0, e.offset) + e.text + s.slice(e.offset + e.length), t);

describe('authoring: the manifest schema and check findings (issue 42)', () => {
  const schema = JSON.parse(
    readFileSync(path.join(__dirname, '..', '..', '..', '..', 'schemas', 'reasonix-plugin.schema.json'), 'utf8'),
  );
  const validate = new Ajv({ strict: false }).compile(schema);

  it('the editor schema accepts and refuses what the decoder does, v1 and v2', () => {
    const cases: [string, unknown][] = [
      ['full v1', v1({ intercepts: ['tool.before'], replaces: ['permission', 'tool:x'], capabilities: ['ui'] })],
      [
        'full v2',
        v2({ capabilities: ['tools'], tools: [TOOL] }, { requires: [{ namespace: 'a', kind: 'b', id: 'c' }] }),
      ],
      ['unknown top-level key', v1({}, { colour: 'red' })],
      ['v2 tools in a v1 manifest', v1({ tools: [TOOL] })],
      ['v2 capability in a v1 manifest', v1({ capabilities: ['tools'] })],
      ['v2 requires in a v1 manifest', v1({}, { requires: [] })],
      ['unknown runtime field', v2({ restart: true })],
      ['unknown intercept point', v2({ intercepts: ['tool.during'] })],
      ['priority out of range', v2({ priority: 1001 })],
      ['unknown tool member', v2({ capabilities: ['tools'], tools: [{ ...TOOL, colour: 1 }] })],
      ['unknown contributes member', v2({}, { contributes: { widgets: [] } })],
      ['unknown slot', v2({ replaces: ['weather'] })],
    ];
    for (const [name, doc] of cases) {
      const decoded = decodeManifest(text(doc), FILE, ROOT).status;
      assert.equal(validate(doc), decoded === 'runnable', `${name}: schema ${validate(doc)}, decoder ${decoded}`);
    }
  });

  it('describes every member of the schema', () => {
    const walk = (node: Record<string, unknown>, at: string): void => {
      for (const [n, m] of Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        if (n === 'apiVersion' && at === '') continue; // the root's own, described in its branches
        assert.ok(typeof m.description === 'string' && m.description.length > 10, `${at}${n} has a description`);
        walk(m, `${at}${n}.`);
        if (m.items && typeof m.items === 'object') walk(m.items as Record<string, unknown>, `${at}${n}[].`);
      }
    };
    for (const [name, def] of Object.entries(schema.$defs as Record<string, Record<string, unknown>>))
      walk(def, `${name}.`);
  });

  it('marks an unknown member at its key and removes it with its comma', () => {
    const t = text(v2({ restart: true, args: ['a'] }, { colour: 'red' }));
    const found = manifestFindings(t, FILE, ROOT);
    const top = found.find((f) => f.path.join('.') === 'colour')!;
    assert.equal(marked(t, top), '"colour"');
    assert.equal(top.severity, 'error');
    const rt = found.find((f) => f.path.join('.') === 'runtime.restart')!;
    assert.equal(marked(t, rt), '"restart"');
    assert.match(rt.message, /^runtime\.restart is not a known runtime field/);
    const fixed = apply(apply(t, rt.fix!.edits), []);
    assert.deepEqual(JSON.parse(fixed).runtime, { command: '/usr/bin/node', args: ['a'] });
    const both = apply(t, [...top.fix!.edits]);
    assert.equal(JSON.parse(both).colour, undefined);
    assert.equal(
      decodeManifest(apply(both, manifestFindings(both, FILE, ROOT)[0].fix!.edits), FILE, ROOT).status,
      'runnable',
    );
  });

  it('marks a bad value deep in the tree (runtime.tools[0].name)', () => {
    const t = text(v2({ capabilities: ['tools'], tools: [{ ...TOOL, name: 'bad name' }] }));
    const [f] = manifestFindings(t, FILE, ROOT);
    assert.deepEqual(f.path, ['runtime', 'tools', 0, 'name']);
    assert.equal(marked(t, f), '"bad name"');
  });

  it('roots a relative command under ${REASONIX_PLUGIN_ROOT}', () => {
    const t = text(v1({ command: './bin/sidecar' }));
    const [f] = manifestFindings(t, FILE, ROOT);
    assert.equal(marked(t, f), '"./bin/sidecar"');
    const fixed = JSON.parse(apply(t, f.fix!.edits));
    assert.equal(fixed.runtime.command, '${REASONIX_PLUGIN_ROOT}/bin/sidecar');
    assert.deepEqual(manifestFindings(text(fixed), FILE, ROOT), []);
  });

  it('adds the tools capability a v2 manifest with tools lacks (a warning), creating the list', () => {
    const t = text(v2({ tools: [TOOL] }));
    const [f] = manifestFindings(t, FILE, ROOT);
    assert.equal(f.severity, 'warning');
    assert.equal(marked(t, f), t.slice(t.indexOf('{', t.indexOf('"runtime"')), t.lastIndexOf('}') - 1).trimEnd());
    const fixed = apply(t, f.fix!.edits);
    assert.deepEqual(JSON.parse(fixed).runtime.capabilities, ['tools']);
    assert.deepEqual(manifestFindings(fixed, FILE, ROOT), []);
  });

  it('points a JSON syntax error at its position', () => {
    const t = '{\n  "apiVersion": "reasonix.io/plugin/v2",\n  "name": }';
    const [f] = manifestFindings(t, FILE, ROOT);
    assert.match(f.message, /not valid JSON/);
    assert.equal(t[f.offset], '}');
  });

  describe('check findings from a real sidecar', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'rx-findings-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    /** `reasonix-host check --json` in its own process, as the extension runs it. */
    const runCheck = async (plugin: string, _o: unknown) =>
      JSON.parse((await runCli(['check', plugin, '--json'])).stdout) as CheckOutcome;
    const workspace = tmpdir();

    it('v1: a subscription the manifest does not declare → add it to runtime.intercepts; then it conforms', async () => {
      pluginFolder(dir, 'subs', {
        command: process.execPath,
        args: [SIDE],
        intercepts: ['session.start'],
        env: { FIX_RESULT_PATCH: JSON.stringify({ subscriptions: ['session.start', 'tool.before'] }) },
      });
      const file = path.join(dir, 'reasonix-plugin.json');
      const t = readFileSync(file, 'utf8');
      const report = await runCheck(dir, { workspace });
      assert.equal(report.ok, false);
      const [f] = checkFindings(t, report);
      assert.equal(f.source, 'check', JSON.stringify(report));
      assert.deepEqual(f.path, ['runtime', 'intercepts']);
      assert.equal(marked(t, f), '[\n      "session.start"\n    ]');
      assert.equal(f.fix!.title, 'Add "tool.before" to runtime.intercepts');
      writeFileSync(file, apply(t, f.fix!.edits));
      assert.equal((await runCheck(dir, { workspace })).ok, true);
    });

    it('v2: a tool served without the tools capability → add it; then it conforms', async () => {
      countWordsPlugin(dir);
      const file = path.join(dir, 'reasonix-plugin.json');
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      doc.runtime.capabilities = ['ui'];
      writeFileSync(file, text(doc));
      const t = readFileSync(file, 'utf8');
      const report = await runCheck(dir, { workspace });
      const [f] = checkFindings(t, report);
      assert.deepEqual(f.path, ['runtime', 'capabilities']);
      assert.equal(f.fix!.title, 'Add "tools" to runtime.capabilities');
      writeFileSync(file, apply(t, f.fix!.edits));
      assert.deepEqual(manifestFindings(readFileSync(file, 'utf8'), file, dir), []);
      assert.equal((await runCheck(dir, { workspace })).ok, true);
    });

    it('a sidecar that does not start is marked at runtime.command', async () => {
      pluginFolder(dir, 'gone', { command: '/nonexistent/reasonix-sidecar' });
      const t = readFileSync(path.join(dir, 'reasonix-plugin.json'), 'utf8');
      const [f] = checkFindings(t, await runCheck(dir, { workspace }));
      assert.deepEqual(f.path, ['runtime', 'command']);
      assert.equal(marked(t, f), '"/nonexistent/reasonix-sidecar"');
    });
  });
});
