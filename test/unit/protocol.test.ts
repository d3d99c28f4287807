import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  CONTRACT_TABLES,
  ERRORS,
  LIMITS,
  INTERCEPT_EVENTS,
  ProtocolError,
  V1,
  V2,
  contractFor,
  validateDef,
} from '../../src/protocol';

describe('protocol contract', () => {
  it('generated files match the schemas (no drift)', () => {
    execFileSync(process.execPath, ['scripts/gen-protocol.mjs', '--check'], { stdio: 'pipe' });
  });

  it('holds the v2 schema verbatim: the upstream hash (HOST_SPEC_V2 §0.2)', () => {
    const bytes = readFileSync('src/protocol/schema/reasonix.extension.v2.schema.json');
    assert.equal(bytes.length, 20367);
    assert.equal(
      createHash('sha256').update(bytes).digest('hex'),
      '085c014bb6d1713f722177dda5d79b1224d9bf611cb3947d3331aeb0768449fa',
    );
  });

  it('has the frozen v1 tables', () => {
    assert.equal(Object.keys(CONTRACT_TABLES.v1.methods).length, 16);
    assert.equal(INTERCEPT_EVENTS.length, 17);
    assert.equal(CONTRACT_TABLES.v1.errors.length, 14);
    assert.deepEqual(ERRORS.content_ref_expired, {
      code: -32000,
      retryable: true,
      message: 'The referenced content has expired.',
    });
    assert.equal(ERRORS.protocol_error.code, -32600);
    assert.equal(LIMITS.frameBytes, 8 * 1024 * 1024);
    assert.equal(LIMITS.externalizeFieldBytes, 65536);
    assert.equal(V1.protocolId, 'reasonix.extension.v1');
    assert.equal(V1.major, '1');
  });

  it('has the v2 tables: 17 methods with extension/tool/call, 20 reasons, the same limits', () => {
    assert.equal(Object.keys(CONTRACT_TABLES.v2.methods).length, 17);
    assert.equal(V2.method('extension/tool/call')?.direction, 'host_to_extension_request');
    assert.equal(V1.method('extension/tool/call'), undefined, 'v1 has no tool call');
    assert.equal(CONTRACT_TABLES.v2.errors.length, 20);
    assert.equal(Object.keys(ERRORS).length, 20, 'the engine knows every reason of both');
    for (const r of [
      'activation_failed',
      'cleanup_failed',
      'dependency_cycle',
      'dependency_unsatisfied',
      'schema_mismatch',
      'stale_generation',
    ])
      assert.ok(V2.error(r) && !V1.error(r), r);
    assert.deepEqual(V2.error('stale_generation'), {
      code: -32000,
      retryable: false,
      message: V2.error('stale_generation')!.message,
    });
    assert.equal(V2.protocolId, 'reasonix.extension.v2');
    assert.equal(V2.major, '2');
    assert.equal(contractFor(2), V2);
    assert.equal(contractFor(1), V1);
  });

  it('validates strictly: unknown members and missing required members are rejected with a readable path', () => {
    const ok = validateDef('InitializeResult', {
      name: 'x',
      version: '1',
      protocolVersion: '1',
      stateSchemaVersion: 0,
    });
    assert.equal(ok.ok, true);
    const extra = validateDef('InitializeResult', {
      name: 'x',
      version: '1',
      protocolVersion: '1',
      stateSchemaVersion: 0,
      epoch: 1,
    });
    assert.deepEqual(extra, { ok: false, message: "/: unknown member 'epoch'" });
    const missing = V1.validateParams('host/content/read', { offset: 0 });
    assert.deepEqual(missing, { ok: false, message: "/: missing required member 'contentRef'" });
  });

  it('each version validates with its own schema: v2-only members pass v2 and are refused by v1', () => {
    const result = {
      name: 'x',
      version: '1',
      protocolVersion: '2',
      stateSchemaVersion: 0,
      tools: ['a'],
      componentId: 'c',
    };
    assert.equal(V2.validateResult('extension/initialize', result).ok, true);
    assert.deepEqual(V1.validateResult('extension/initialize', result), {
      ok: false,
      message: "/: unknown member 'tools'",
    });
    const publish = { sessionId: 's', generation: 1, surfaceId: 'p', kind: 'panel', payload: {} };
    assert.equal(V2.validateParams('host/ui/publish', publish).ok, true);
    assert.equal(V1.validateParams('host/ui/publish', publish).ok, false);
    const chunk = { streamId: 's', seq: 1, generation: 3, chunk: { type: 'text', text: 'x', generation: 3 } };
    assert.equal(V2.validateParams('extension/provider/stream/chunk', chunk).ok, true);
    assert.equal(V1.validateParams('extension/provider/stream/chunk', chunk).ok, false);
    assert.equal(V2.paramsCheck('extension/provider/stream/chunk')(chunk), undefined);
    assert.match(V1.paramsCheck('extension/provider/stream/chunk')(chunk) ?? '', /unknown member 'generation'/);
    const call = { name: 'count_words', arguments: { text: 'a b' }, timeoutMillis: 300000 };
    assert.equal(V2.validateParams('extension/tool/call', call).ok, true);
    assert.deepEqual(V2.validateResult('extension/tool/call', { content: '2', extra: 1 }), {
      ok: false,
      message: "/: unknown member 'extra'",
    });
  });

  it('accepts peer error data only when reason and retryable match its own table', () => {
    for (const c of [V1, V2]) {
      assert.deepEqual(c.readErrorData({ reason: 'internal', retryable: true }), {
        reason: 'internal',
        retryable: true,
      });
      assert.equal(c.readErrorData({ reason: 'internal', retryable: false }), undefined);
      assert.equal(c.readErrorData({ reason: 'nope', retryable: true }), undefined);
    }
    // V2-52: a v2 reason is structured on v2 only, and only with its own retryable.
    assert.deepEqual(V2.readErrorData({ reason: 'stale_generation', retryable: false }), {
      reason: 'stale_generation',
      retryable: false,
    });
    assert.equal(V2.readErrorData({ reason: 'stale_generation', retryable: true }), undefined);
    assert.equal(V1.readErrorData({ reason: 'stale_generation', retryable: false }), undefined);
  });

  it('never answers a v1 peer with a reason only v2 has, and words unknown_method per version', () => {
    assert.equal(V1.toWire(new ProtocolError('dependency_cycle', 'x')).data?.reason, 'internal');
    assert.equal(V2.toWire(new ProtocolError('dependency_cycle', 'x')).data?.reason, 'dependency_cycle');
    assert.equal(V1.unknownMethod('host/x').message, 'method not found: host/x');
    assert.equal(V2.unknownMethod('host/x').message, 'The method is not registered in Extension Protocol v2.');
    assert.deepEqual(V2.unknownMethod('host/x').data, { reason: 'unknown_method', retryable: false });
  });
});
