import { strict as assert } from 'node:assert';
import {
  buildHookPayload,
  decodeHookPayload,
  interceptBudget,
  HOOK_POINTS,
  POINTS,
  DEFAULT_INTERCEPT_TIMEOUTS,
} from '../../../src/host/intercepts';

describe('hook payloads (HOST_SPEC §4.1)', () => {
  it('builders omit zero-valued members', () => {
    assert.deepEqual(buildHookPayload('tool.after', { name: 't', arguments: '', result: 'ok', isError: false }), {
      name: 't',
      result: 'ok',
    });
    assert.deepEqual(buildHookPayload('permission.decision', { name: 't', readOnly: false, hostDecision: 'allow' }), {
      name: 't',
      hostDecision: 'allow',
    });
    assert.deepEqual(buildHookPayload('agent.before_start', { model: 'm', toolCount: 0, sessionId: 's' }), {
      model: 'm',
      sessionId: 's',
    });
    assert.deepEqual(
      buildHookPayload('provider.response', { text: 'hi', reasoning: '', calls: [], usage: undefined }),
      { text: 'hi' },
    );
  });

  it('context.prepare with no messages is {}', () => {
    assert.deepEqual(buildHookPayload('context.prepare', { messages: [] }), {});
    assert.deepEqual(buildHookPayload('context.prepare', {}), {});
  });

  it("provider.request's request is always present", () => {
    const request = { messages: [], tools: [], maxTokens: 0 };
    assert.deepEqual(buildHookPayload('provider.request', { request }), { request });
  });

  it('rejects unknown members and missing required members', () => {
    const r = decodeHookPayload('input.receive', { text: 'x', extra: 1 });
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /unknown member 'extra'/);
    assert.equal(decodeHookPayload('input.receive', { text: '' }).ok, false);
    assert.equal(decodeHookPayload('input.receive', {}).ok, false);
    assert.equal(decodeHookPayload('compaction.complete', { summary: '' }).ok, false);
    assert.equal(decodeHookPayload('agent.before_start', { model: 'm' }).ok, false);
    assert.equal(decodeHookPayload('system_prompt.build', { prompt: '', workspaceRoot: '/w' }).ok, true);
    assert.equal(decodeHookPayload('frontend.event', { text: 'x' }).ok, false);
    assert.equal(
      decodeHookPayload('permission.decision', { name: 't', arguments: '{}', hostDecision: 'maybe' }).ok,
      false,
    );
  });

  it('tool.before arguments must be non-empty JSON object text and the tool known', () => {
    assert.equal(decodeHookPayload('tool.before', { name: 'read' }).ok, false);
    assert.equal(decodeHookPayload('tool.before', { name: 'read', arguments: '' }).ok, false);
    assert.equal(decodeHookPayload('tool.before', { name: 'read', arguments: '[1]' }).ok, false);
    assert.equal(decodeHookPayload('tool.before', { name: 'read', arguments: '{"a":' }).ok, false);
    assert.equal(decodeHookPayload('tool.before', { name: 'read', arguments: '{"path":"a"}' }).ok, true);
    const knownTools = (n: string) => n === 'read';
    assert.equal(decodeHookPayload('tool.before', { name: 'read', arguments: '{}' }, { knownTools }).ok, true);
    const r = decodeHookPayload('tool.before', { name: 'rm', arguments: '{}' }, { knownTools });
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /unknown tool 'rm'/);
  });

  it('a permission.decision replacement without arguments is accepted; present arguments must be object text (issue 11 item 3)', () => {
    assert.equal(decodeHookPayload('permission.decision', { name: 'read', hostDecision: 'deny' }).ok, true);
    assert.equal(
      decodeHookPayload('permission.decision', { name: 'read', arguments: '{}', hostDecision: 'deny' }).ok,
      true,
    );
    assert.equal(
      decodeHookPayload('permission.decision', { name: 'read', arguments: '[1]', hostDecision: 'deny' }).ok,
      false,
    );
    // The known-tools rule is tool.before's alone.
    assert.equal(
      decodeHookPayload(
        'permission.decision',
        { name: 'rm', hostDecision: 'deny' },
        { knownTools: (n) => n === 'read' },
      ).ok,
      true,
    );
  });

  it('tool.after arguments may be empty but otherwise must be object text', () => {
    assert.equal(decodeHookPayload('tool.after', { name: 't' }).ok, true);
    assert.equal(decodeHookPayload('tool.after', { name: 't', arguments: '"x"' }).ok, false);
    assert.deepEqual(decodeHookPayload('tool.after', { name: 't', arguments: '', isError: false }), {
      ok: true,
      value: { name: 't' },
    });
  });

  it('messages must be present where the point has them, and each a ProviderMessage', () => {
    assert.equal(decodeHookPayload('context.prepare', {}).ok, false);
    assert.equal(decodeHookPayload('context.prepare', { messages: null }).ok, false);
    assert.equal(decodeHookPayload('context.prepare', { messages: [{ role: 'user', content: 'hi' }] }).ok, true);
    const bad = decodeHookPayload('compaction.prepare', { messages: [{ role: 'robot' }] });
    assert.equal(bad.ok, false);
    assert.match((bad as { message: string }).message, /^\/messages\/0\/role/);
  });

  it('provider.request follows the ProviderRequest rules', () => {
    const ok = { request: { messages: [], tools: [{ name: 'f', parameters: { type: 'object' } }], maxTokens: 10 } };
    assert.equal(decodeHookPayload('provider.request', ok).ok, true);
    assert.equal(
      decodeHookPayload('provider.request', {
        request: { messages: [], tools: [{ name: 'f', parameters: [] }], maxTokens: 1 },
      }).ok,
      false,
    );
    assert.equal(
      decodeHookPayload('provider.request', { request: { messages: [], tools: [], maxTokens: -1 } }).ok,
      false,
    );
    assert.equal(decodeHookPayload('provider.request', { request: { messages: [], maxTokens: 1 } }).ok, false);
    assert.equal(decodeHookPayload('provider.request', {}).ok, false);
  });

  it('provider.response calls need id and name', () => {
    assert.equal(decodeHookPayload('provider.response', { calls: [{ id: 'c', name: 'n', arguments: '{}' }] }).ok, true);
    assert.equal(decodeHookPayload('provider.response', { calls: [{ id: '', name: 'n', arguments: '{}' }] }).ok, false);
    assert.equal(decodeHookPayload('provider.response', { usage: { totalTokens: 1 } }).ok, false);
  });

  it('session phase must match the point', () => {
    assert.equal(decodeHookPayload('session.save', { sessionPath: '/s', phase: 'save' }).ok, true);
    assert.equal(decodeHookPayload('session.save', { sessionPath: '/s', phase: 'load' }).ok, false);
    assert.equal(decodeHookPayload('session.start', { phase: 'start' }).ok, true);
  });

  it('budgets: 5 s fast family, 30 s otherwise, manifest override clamped to 60 s (case 38)', () => {
    const fast = HOOK_POINTS.filter((p) => POINTS[p].fast).sort();
    assert.deepEqual(fast, ['input.receive', 'permission.decision', 'tool.after', 'tool.before']);
    assert.equal(interceptBudget('tool.before', 0), 5000);
    assert.equal(interceptBudget('context.prepare', 0), 30000);
    assert.equal(interceptBudget('tool.before', 12000), 12000);
    assert.equal(interceptBudget('context.prepare', 600000), 60000);
    assert.equal(DEFAULT_INTERCEPT_TIMEOUTS.ceilingMs, 60000);
  });
});
