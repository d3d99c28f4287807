// Protocol v2 handshake conformance (HOST_SPEC_V2 §2, §14 cases V2-1..V2-13, V2-51, V2-52),
// against real fixture sidecars: test/fixtures/sidecars/well-behaved.js answers with the result
// FIX_RESULT_PATCH makes of it and records every line it reads.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { V2, type InitializeParams } from '../../../src/protocol';
import { SidecarFailure } from '../../../src/host/sidecar';
import { startGeneration } from '../../../src/host/generations';
import type { CapabilityDecl, RuntimeBlock } from '../../../src/host/plugins/types';
import { scriptPlugin } from '../../support/plugins';
import { waitFor } from '../../support/wait';
import { FAST, FIXTURES, MemoryLogger, SESSION, useFleet } from '../sidecar/fixtures';
import { alive } from '../../support/processes';

const V2_RESULT = { protocolVersion: '2' };

function v2Plugin(
  runtime: Partial<RuntimeBlock>,
  env: Record<string, string>,
  deps: { requires?: CapabilityDecl[]; provides?: CapabilityDecl[] } = {},
  id = 'p',
) {
  return scriptPlugin(id, path.join(FIXTURES, 'well-behaved.js'), {
    root: FIXTURES,
    protocol: 2,
    runtime: { env, ...runtime },
    ...deps,
  });
}

const TOOL = (name: string) => ({
  name,
  description: `${name} tool`,
  inputSchema: { type: 'object', properties: {} },
  readOnly: false,
});

describe('conformance: protocol v2 handshake (HOST_SPEC_V2 §2)', function () {
  this.timeout(20000);
  const rig = useFleet();
  const fleet = rig.fleet;

  function recorded(): Record<string, unknown>[] {
    return rig.scratch.records('rec').filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null);
  }
  function initializeSent(): InitializeParams {
    const init = recorded().find((m) => m.method === 'extension/initialize');
    assert.ok(init, 'the sidecar got extension/initialize');
    return init.params as InitializeParams;
  }
  const env = (patch: object = {}) => ({
    FIX_RECORD: rig.scratch.file('rec'),
    FIX_RESULT_PATCH: JSON.stringify({ ...V2_RESULT, ...patch }),
  });

  it('V2-1: the first frame is a v2 extension/initialize with dependencySchemaVersion 1, nothing outside the schema', async () => {
    const s = fleet.make({ plugin: v2Plugin({}, env()) });
    await s.start();
    const first = recorded()[0];
    assert.equal(first.method, 'extension/initialize');
    const p = first.params as InitializeParams;
    assert.equal(p.protocolId, 'reasonix.extension.v2');
    assert.equal(p.protocolVersion, '2');
    assert.equal(p.capabilities.protocolVersion, '2');
    assert.equal(p.dependencySchemaVersion, 1);
    assert.equal(p.capabilities.dependencySchemaVersion, 1);
    assert.deepEqual(p.session, { sessionId: SESSION.sessionId, workspaceRoot: SESSION.workspaceRoot, generation: 3 });
    assert.deepEqual(p.manifest, {}, 'empty lists are omitted, as the reference does');
    assert.equal(V2.validateParams('extension/initialize', p).ok, true, 'valid against the v2 schema');
    assert.equal(s.contract, V2);
  });

  it('V2-2/V2-3/V2-4: the manifest expectation carries tools, providers, uiActions, provides and requires', async () => {
    const provides: CapabilityDecl[] = [
      { namespace: 'plugin/p', kind: 'provider', id: 'fake/echo', version: '1.0.0', schemaHash: 'sha256:416a' },
      { namespace: 'plugin/p', kind: 'uiaction', id: 'demo', version: '1.0.0', schemaHash: 'sha256:8532' },
    ];
    const requires: CapabilityDecl[] = [
      { namespace: 'plugin/base', kind: 'interceptors', id: 'default', versionRange: '>=1.0.0' },
      { namespace: 'plugin/opt', kind: 'tools', id: 'x', version: '2.0.0', optional: true, schemaHash: 'sha256:aa' },
    ];
    const s = fleet.make({
      plugin: v2Plugin(
        { intercepts: ['input.receive'], capabilities: ['interceptors', 'tools'], tools: [TOOL('a'), TOOL('b')] },
        env(),
        { provides, requires },
      ),
    });
    await s.start();
    const m = initializeSent().manifest;
    assert.deepEqual(m.tools, ['a', 'b'], 'V2-2: tool names in manifest order');
    assert.deepEqual(m.providers, ['plugin/p/fake/echo'], 'V2-3');
    assert.deepEqual(m.uiActions, ['demo'], 'V2-3');
    assert.deepEqual(m.provides, [
      { namespace: 'plugin/p', kind: 'provider', id: 'fake/echo', version: '1.0.0', schemaHash: 'sha256:416a' },
      { namespace: 'plugin/p', kind: 'uiaction', id: 'demo', version: '1.0.0', schemaHash: 'sha256:8532' },
    ]);
    assert.deepEqual(m.requires, requires, 'V2-4: versionRange and optional carried');
    assert.deepEqual(m.intercepts, ['input.receive']);
    assert.deepEqual(m.capabilities, ['interceptors', 'tools']);
  });

  const refusals: Array<[string, Partial<RuntimeBlock>, object, string, RegExp, { provides?: CapabilityDecl[] }?]> = [
    [
      'V2-5: protocolVersion "reasonix.extension.v2"',
      {},
      { protocolVersion: 'reasonix.extension.v2' },
      'protocol_error',
      /not a decimal integer/,
    ],
    [
      'V2-6: protocolVersion "1" (a v1 sidecar)',
      {},
      { protocolVersion: '1' },
      'unsupported_version',
      /protocolVersion 1 is not supported.*reasonix\.extension\.v2/,
    ],
    [
      'V2-7: tools without the tools capability',
      { tools: [TOOL('a')] },
      { tools: ['a'] },
      'capability_not_declared',
      /capability "tools" is not declared/,
    ],
    [
      'V2-8: a tool the manifest does not declare',
      { capabilities: ['tools'], tools: [TOOL('a')] },
      { tools: ['zzz'] },
      'capability_not_declared',
      /served tool "zzz" which its manifest does not declare/,
    ],
    [
      'V2-9: provides outside the manifest ceiling',
      {},
      { provides: [{ namespace: 'plugin/p', kind: 'provider', id: 'other' }] },
      'capability_not_declared',
      /"plugin\/p\/provider\/other" is outside the manifest provides ceiling/,
      {
        provides: [
          { namespace: 'plugin/p', kind: 'provider', id: 'fake/echo', version: '1.0.0', schemaHash: 'sha256:1' },
        ],
      },
    ],
    [
      'V2-12: an unknown result member',
      {},
      { capabilities: ['ui'] },
      'protocol_error',
      /unknown member 'capabilities'/,
    ],
  ];
  for (const [name, runtime, patch, reason, message, deps] of refusals) {
    it(`${name} → start fails ${reason}, child killed`, async () => {
      const s = fleet.make({ plugin: v2Plugin(runtime, env(patch), deps ?? {}) });
      await assert.rejects(s.start(), (err: unknown) => {
        assert.ok(err instanceof SidecarFailure);
        assert.equal(err.info.reason, reason);
        assert.equal(err.info.stage, 'handshake');
        assert.match(err.info.message, message);
        return true;
      });
      assert.equal(s.state, 'failed');
      assert.equal(s.pid === undefined || !alive(s.pid), true, 'no process left');
    });
  }

  it('V2-10: provides in the result with no manifest provides → accepted (the reference skips the check)', async () => {
    const s = fleet.make({
      plugin: v2Plugin({}, env({ provides: [{ namespace: 'plugin/p', kind: 'provider', id: 'other' }] })),
    });
    await s.start();
    assert.equal(s.state, 'running');
  });

  it('V2-11: componentId and requires the manifest lacks → accepted, a warning logged, kept for diagnostics', async () => {
    const logger = new MemoryLogger();
    const s = fleet.make({
      plugin: v2Plugin({}, env({ componentId: 'x', requires: [{ namespace: 'plugin/q', kind: 'tools', id: 't' }] })),
      logger,
    });
    await s.start();
    assert.equal(s.state, 'running');
    assert.equal(s.initializeResult?.componentId, 'x');
    assert.ok(
      logger.lines.some((l) =>
        /^warn .*requires "plugin\/q\/tools\/t", which the manifest's requires does not declare/.test(l),
      ),
      logger.lines.join('\n'),
    );
    assert.equal(s.handshakeNotes.length, 1);
  });

  it('V2-33: only tools named in the result are served; a declared-but-unnamed tool is not', async () => {
    const s = fleet.make({
      plugin: v2Plugin({ capabilities: ['tools'], tools: [TOOL('a'), TOOL('b')] }, env({ tools: ['b'] })),
    });
    await s.start();
    assert.deepEqual(
      s.tools.map((t) => t.name),
      ['b'],
    );
  });

  it('V2-13: a v1 plugin in the same generation gets a v1 handshake with no v2 member', async () => {
    const v1Rec = rig.scratch.file('v1rec');
    const v1 = scriptPlugin('old', path.join(FIXTURES, 'well-behaved.js'), {
      root: FIXTURES,
      runtime: { env: { FIX_RECORD: v1Rec } },
    });
    const gen = await startGeneration({
      plugins: [v1, v2Plugin({ capabilities: ['tools'], tools: [TOOL('a')] }, env({ tools: ['a'] }), {}, 'new')],
      session: SESSION,
      uiHost: 'desktop',
      timeouts: FAST,
    });
    try {
      assert.equal(gen.sidecars.get('old')?.state, 'running');
      assert.equal(gen.sidecars.get('new')?.state, 'running');
      const old = rig.scratch
        .records('v1rec')
        .find((m) => (m as { method?: string }).method === 'extension/initialize') as {
        params: Record<string, unknown>;
      };
      assert.deepEqual(Object.keys(old.params).sort(), [
        'capabilities',
        'manifest',
        'protocolId',
        'protocolVersion',
        'session',
      ]);
      assert.equal(old.params.protocolId, 'reasonix.extension.v1');
      assert.deepEqual(old.params.capabilities, { contentRefs: true, uiHost: 'desktop', protocolVersion: '1' });
      assert.deepEqual(old.params.manifest, { intercepts: [], replaces: [], capabilities: [] });
      assert.equal(initializeSent().protocolId, 'reasonix.extension.v2');
    } finally {
      await gen.stop();
    }
  });

  it('V2-51: a v2 sidecar calling host/browser/tab/list gets -32601 unknown_method in v2 words', async () => {
    const call = JSON.stringify({ jsonrpc: '2.0', id: 'b1', method: 'host/browser/tab/list', params: {} });
    const s = fleet.make({ plugin: v2Plugin({}, { ...env(), FIX_LINES: JSON.stringify([call]) }) });
    await s.start();
    await waitFor(() => recorded().some((m) => m.id === 'b1'), {
      timeoutMs: 5000,
      what: 'the answer to host/browser/tab/list',
    });
    const answer = recorded().find((m) => m.id === 'b1') as { error: { code: number; message: string; data: unknown } };
    assert.equal(answer.error.code, -32601);
    assert.deepEqual(answer.error.data, { reason: 'unknown_method', retryable: false });
    assert.equal(answer.error.message, 'The method is not registered in Extension Protocol v2.');
  });

  it('V2-52: a v2 sidecar error with stale_generation/false stays structured; with retryable true it is unstructured', async () => {
    const { ValidatedConnection, PeerError } = await import('../../../src/host/wire');
    const { PassThrough } = await import('node:stream');
    const { ProtocolError } = await import('../../../src/protocol');
    const input = new PassThrough();
    const output = new PassThrough();
    const conn = new ValidatedConnection({ contract: V2, input, output, handlers: { handler: () => undefined } });
    const answer = (retryable: boolean) =>
      new Promise<unknown>((resolve) => {
        output.once('data', (buf: Buffer) => {
          const { id } = JSON.parse(buf.toString()) as { id: number };
          input.write(
            `${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: 'old', data: { reason: 'stale_generation', retryable } } })}\n`,
          );
        });
        conn.request('extension/provider/catalog', {}).then(resolve, resolve);
      });
    const structured = await answer(false);
    assert.ok(structured instanceof ProtocolError);
    assert.equal(structured.reason, 'stale_generation');
    const loose = await answer(true);
    assert.ok(loose instanceof PeerError);
    assert.equal(loose.code, -32000);
    conn.dispose();
  });
});
