// Issue 26 item 1: a hook that gives up abandons its intercept. The AbortSignal goes from the
// caller through the session port's dispatch(point, payload, {signal}) to the intercept request:
// the dispatch rejects at once, the pending request is removed (the sidecar's late answer is
// ignored, logged as nobody waiting), and the plugin goes on serving the next call. Real sidecars.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { answerHookEvent } from '../../../src/host/hooks';
import type { SessionEngine } from '../../../src/host/session';
import type { Logger } from '../../../src/host/log';
import { startTestEngine } from '../../support/engine';
import { pluginFolder } from '../../support/plugins';
import { waitFor } from '../../support/wait';
import { INTERCEPTOR } from './support';

describe('agent hooks: a hook that gives up abandons its intercept (issue 26 item 1)', function () {
  this.timeout(20_000);
  let base: string;
  let engine: SessionEngine;
  const lines: string[] = [];
  const logger: Logger = {
    trace: (m) => lines.push(m),
    debug: (m) => lines.push(m),
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
  };

  /** One plugin at tool.before answering after `delayMs` (its own timeout far beyond that). */
  const start = async (required: boolean, delayMs = 1_500) => {
    base = mkdtempSync(join(tmpdir(), 'rx-hook-cancel-'));
    const folder = pluginFolder(join(base, 'slowpoke'), 'slowpoke', {
      command: process.execPath,
      args: [INTERCEPTOR],
      capabilities: ['interceptors'],
      intercepts: ['tool.before'],
      required,
      timeoutMillis: 20_000,
      env: { INTERCEPTOR_CONFIG: JSON.stringify({ points: { 'tool.before': { decision: 'block', delayMs } } }) },
    });
    engine = await startTestEngine({
      base,
      plugins: [folder],
      logger,
      options: { sessionId: 'cancel-test', maxParallelStarts: 1 },
    });
  };
  afterEach(async () => {
    await engine?.stop();
    lines.length = 0;
    rmSync(base, { recursive: true, force: true });
  });
  const payload = { name: 'dangerous_exec', arguments: '{}' };

  it('dispatch(point, payload, {signal}): an abort rejects at once; the late answer finds nobody waiting', async () => {
    await start(false);
    const ac = new AbortController();
    const t0 = performance.now();
    setTimeout(() => ac.abort(new Error('the hook gave up')), 100);
    await assert.rejects(engine.dispatch('tool.before', payload, { signal: ac.signal }), /the hook gave up/);
    assert.ok(performance.now() - t0 < 1_000, 'rejected when the signal fired, not when the plugin answered');
    await waitFor(() => lines.some((l) => /ignored response with id \d+: no call is waiting for it/.test(l)), {
      timeoutMs: 5_000,
      what: 'the late answer to be ignored',
    });
    assert.equal(engine.plugins()[0].state, 'running', 'the plugin is not blamed for the caller leaving');
    const next = await engine.dispatch('tool.before', payload);
    assert.equal(next.decision, 'block', 'the next call is served as usual');
  });

  it('the hooks mapping cancels a dispatch that outlives its deadline: optional → ask, required → deny', async () => {
    await start(false);
    const input = { tool_name: 'dangerous_exec', tool_input: {}, cwd: base };
    const t0 = performance.now();
    const r = await answerHookEvent('PreToolUse', input, engine, { deadlineAt: Date.now() + 200 });
    assert.ok(performance.now() - t0 < 1_000, `answered at the deadline (${Math.round(performance.now() - t0)} ms)`);
    const out = r.answer?.hookSpecificOutput as Record<string, unknown>;
    assert.equal(out.permissionDecision, 'ask');
    assert.match(String(out.permissionDecisionReason), /could not ask slowpoke \(intercept_timeout/);
    await waitFor(() => lines.some((l) => /no call is waiting for it/.test(l)), {
      timeoutMs: 5_000,
      what: 'the abandoned intercept answer to be ignored',
    });
    await engine.stop();
    rmSync(base, { recursive: true, force: true });
    await start(true);
    const req = await answerHookEvent('PreToolUse', { ...input, cwd: base }, engine, { deadlineAt: Date.now() + 200 });
    const denied = req.answer?.hookSpecificOutput as Record<string, unknown>;
    assert.equal(denied.permissionDecision, 'deny');
    assert.match(String(denied.permissionDecisionReason), /"slowpoke" is required but could not be asked/);
  });
});
