import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import {
  ERRORS,
  LIMITS,
  METHODS,
  INTERCEPT_EVENTS,
  validateDef,
  validateParams,
  readErrorData,
} from '../../src/protocol';

describe('protocol contract', () => {
  it('generated files match the schema (no drift)', () => {
    execFileSync(process.execPath, ['scripts/gen-protocol.mjs', '--check'], { stdio: 'pipe' });
  });

  it('has the frozen v1 tables', () => {
    assert.equal(Object.keys(METHODS).length, 16);
    assert.equal(INTERCEPT_EVENTS.length, 17);
    assert.equal(Object.keys(ERRORS).length, 14);
    assert.deepEqual(ERRORS.content_ref_expired, {
      code: -32000,
      retryable: true,
      message: 'The referenced content has expired.',
    });
    assert.equal(ERRORS.protocol_error.code, -32600);
    assert.equal(LIMITS.frameBytes, 8 * 1024 * 1024);
    assert.equal(LIMITS.externalizeFieldBytes, 65536);
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
    const missing = validateParams('host/content/read', { offset: 0 });
    assert.deepEqual(missing, { ok: false, message: "/: missing required member 'contentRef'" });
  });

  it('accepts peer error data only when reason and retryable match the table', () => {
    assert.deepEqual(readErrorData({ reason: 'internal', retryable: true }), { reason: 'internal', retryable: true });
    assert.equal(readErrorData({ reason: 'internal', retryable: false }), undefined);
    assert.equal(readErrorData({ reason: 'nope', retryable: true }), undefined);
  });
});
