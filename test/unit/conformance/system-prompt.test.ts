// Issue 11 item 8: the session engine runs `system_prompt.build` once per runtime build, as the
// reference does, and a blocking or failing `system_prompt` owner fails that build (the old
// runtime stays on a reload). Real fixture interceptor sidecars behind the composed engine.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionEngine } from '../../../src/host/session';
import { GenerationError } from '../../../src/host/generations';
import { InterceptorRig, type Rule } from './interceptor-rig';
import { waitFor } from '../../support/wait';
import { testEngine } from '../../support/engine';

describe('conformance: system_prompt.build at every runtime build (issue 11 item 8)', function () {
  this.timeout(30000);
  let rig: InterceptorRig;
  let engine: SessionEngine | undefined;
  beforeEach(() => (rig = new InterceptorRig()));
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
    await rig.dispose();
  });

  function make(plugins: string[]): SessionEngine {
    engine = testEngine({ base: rig.dir, plugins, options: { sessionId: 'session-1' } });
    return engine;
  }

  const owner = (rule: Rule) =>
    rig.pluginDir(
      'prompter',
      { capabilities: ['interceptors', 'strategies'], replaces: ['system_prompt'] },
      { '*': rule },
    );
  const listener = () =>
    rig.pluginDir('listener', { capabilities: ['interceptors'], intercepts: ['system_prompt.build'] }, {});

  it('start asks the system_prompt owner once, with the empty host prompt and the workspace root; listeners observe it', async () => {
    const e = make([owner({ decision: 'continue' }), listener()]);
    await e.start();
    const calls = rig.intercepts('prompter');
    assert.deepEqual(
      calls.map((c) => [c.event, c.payload]),
      [['system_prompt.build', { workspaceRoot: rig.dir }]],
    );
    await waitFor(() => rig.recorded('listener').find((r) => r.kind === 'event' && r.event === 'system_prompt.build'), {
      timeoutMs: 5000,
      what: "the listener's system_prompt.build event",
      intervalMs: 10,
    });
    assert.equal(rig.intercepts('listener').length, 0, 'a listener is never asked');
    assert.ok(e.plugins().every((p) => p.state === 'running'));
  });

  it('an owner block fails the start: the error names the plugin and what to do, no process is left running', async () => {
    const e = make([owner({ decision: 'block', reason: 'no prompt today' }), listener()]);
    const err = await e.start().then(
      () => assert.fail('start should fail'),
      (x: unknown) => x,
    );
    assert.ok(err instanceof GenerationError, String(err));
    assert.equal(err.kind, 'strategy_failed');
    assert.equal(err.pluginId, 'prompter');
    assert.match(err.message, /system_prompt strategy of 'prompter' blocked it: no prompt today; .*Reload Runtime/);
    assert.ok(
      e.plugins().every((p) => p.pid === undefined),
      JSON.stringify(e.plugins()),
    );
  });

  it('an owner failing on reload keeps the old runtime running (fail-atomic)', async () => {
    const ruleFile = join(rig.dir, 'rule.json');
    const e = make([owner({ decision: 'continue', ruleFile })]);
    await e.start();
    const before = e.plugins().find((p) => p.pluginId === 'prompter');
    assert.equal(before?.state, 'running');
    writeFileSync(ruleFile, JSON.stringify({ decision: 'allow' })); // a contract violation at a strategy point
    await assert.rejects(e.reload(), /system_prompt strategy of 'prompter' failed \(protocol_error\)/);
    const after = e.plugins().find((p) => p.pluginId === 'prompter');
    assert.equal(after?.state, 'running');
    assert.equal(after?.pid, before?.pid, "the old generation's process still serves");
    assert.equal(rig.intercepts('prompter').length, 2, 'one system_prompt.build per build');
  });
});
