import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { contentText } from '../../../src/host/content/store';
import { InterceptDispatcher, SlotCollisionError, validateSlots } from '../../../src/host/intercepts';
import type { InterceptParams } from '../../../src/protocol';
import { FakeClient, never } from './fakes';

const fastTimeouts = { fastMs: 50, slowMs: 80, ceilingMs: 120 };
const appendText = (tag: string) => (p: InterceptParams) => ({
  decision: 'replace',
  replacement: { text: `${(p.payload as { text: string }).text}|${tag}` },
});

describe('intercept dispatch (HOST_SPEC §4, fakes)', () => {
  it('orders the chain by priority, then plugin id, then registration (case 31)', async () => {
    const order: string[] = [];
    const rec = (id: string) => () => (order.push(id), { decision: 'continue' });
    const clients = [
      new FakeClient('c', { intercepts: ['tool.after'], priority: 10 }, rec('c'), 0),
      new FakeClient('b', { intercepts: ['tool.after'], priority: -5 }, rec('b'), 1),
      new FakeClient('a', { intercepts: ['tool.after'], priority: 0 }, rec('a'), 2),
      new FakeClient('a2', { intercepts: ['tool.after'], priority: 0 }, rec('a2'), 3),
      new FakeClient('z', { intercepts: ['tool.before'] }, rec('z'), 4),
    ];
    const d = new InterceptDispatcher(clients);
    const out = await d.dispatch('tool.after', { name: 't' });
    assert.deepEqual(order, ['b', 'a', 'a2', 'c']);
    assert.equal(out.decision, 'continue');
  });

  it('each interceptor sees the payload replaced by the previous (case 32)', async () => {
    const a = new FakeClient('a', { intercepts: ['input.receive'] }, appendText('a'));
    const b = new FakeClient('b', { intercepts: ['input.receive'], priority: 1 }, appendText('b'));
    const out = await new InterceptDispatcher([b, a]).dispatch('input.receive', { text: 'hi' });
    assert.deepEqual(b.calls[0].payload, { text: 'hi|a' });
    assert.deepEqual(out.payload, { text: 'hi|a|b' });
    assert.deepEqual(out.changedBy, ['a', 'b']);
    assert.equal(a.events.length + b.events.length, 0, 'input.receive has no event');
  });

  it('block stops the walk with a redacted reason (case 33)', async () => {
    const a = new FakeClient('a', { intercepts: ['tool.before'] }, () => ({
      decision: 'block',
      reason: 'leaked api_key=sk-abcdefghijklmnopqrstuvwx1234',
    }));
    const b = new FakeClient('b', { intercepts: ['tool.before'], priority: 1 });
    const out = await new InterceptDispatcher([a, b]).dispatch('tool.before', { name: 't', arguments: '{}' });
    assert.equal(out.decision, 'block');
    assert.equal(out.blockedBy, 'a');
    assert.ok(out.reason && !out.reason.includes('sk-abcdefghijklmnopqrstuvwx1234'), out.reason);
    assert.equal(b.calls.length, 0);
    assert.equal(a.events.length, 1, 'event sent also when blocked');
  });

  it('invalid replacement: optional warns and is skipped, required fails (case 34)', async () => {
    const bad = () => ({ decision: 'replace', replacement: { text: 'x', sneaky: true } });
    const opt = new FakeClient('opt', { intercepts: ['input.receive'] }, bad);
    const next = new FakeClient('next', { intercepts: ['input.receive'], priority: 1 });
    const d = new InterceptDispatcher([opt, next]);
    const out = await d.dispatch('input.receive', { text: 'hi' });
    assert.equal(out.decision, 'continue');
    assert.deepEqual(out.payload, { text: 'hi' });
    assert.equal(out.warnings.length, 1);
    assert.match(out.warnings[0], /opt.*sneaky/);
    assert.deepEqual(next.calls[0].payload, { text: 'hi' });
    const again = await d.dispatch('input.receive', { text: 'hi' });
    assert.equal(again.warnings.length, 0, 'warned once per plugin and class');

    const req = new FakeClient('req', { intercepts: ['input.receive'], required: true }, bad);
    const failed = await new InterceptDispatcher([req, next]).dispatch('input.receive', { text: 'hi' });
    assert.equal(failed.decision, 'failed');
    assert.equal(failed.error?.reason, 'protocol_error');
    assert.equal(failed.error?.pluginId, 'req');
  });

  it('allow outside permission.decision is a violation (case 35)', async () => {
    const allow = () => ({ decision: 'allow' });
    const opt = await new InterceptDispatcher([new FakeClient('o', { intercepts: ['tool.before'] }, allow)]).dispatch(
      'tool.before',
      { name: 't', arguments: '{}' },
    );
    assert.equal(opt.decision, 'continue');
    assert.match(opt.warnings[0], /only legal at permission.decision/);
    const req = await new InterceptDispatcher([
      new FakeClient('r', { intercepts: ['tool.before'], required: true }, allow),
    ]).dispatch('tool.before', { name: 't', arguments: '{}' });
    assert.equal(req.decision, 'failed');
  });

  it('allow over a host deny is honoured, audited and ends the chain phase; the permission owner is still consulted (case 36, issue 11 item 1)', async () => {
    const a = new FakeClient('a', { intercepts: ['permission.decision'] }, () => ({
      decision: 'allow',
      reason: 'trusted',
    }));
    const b = new FakeClient('b', { intercepts: ['permission.decision'], priority: 1 });
    const owner = new FakeClient('own', { replaces: ['permission'] });
    const out = await new InterceptDispatcher([a, b, owner]).dispatch('permission.decision', {
      name: 'rm',
      arguments: '{}',
      readOnly: false,
      hostDecision: 'deny',
    });
    assert.equal(out.decision, 'allow');
    assert.equal(out.audit?.length, 1);
    assert.match(out.audit?.[0] ?? '', /'a' allowed tool 'rm' over the host's deny/);
    assert.equal(b.calls.length, 0);
    assert.equal(owner.calls.length, 1, 'the owner answered continue, so the allow stands');
    assert.deepEqual(a.calls[0].payload, { name: 'rm', arguments: '{}', hostDecision: 'deny' });
  });

  it('permission owner: consulted only when the chain did not block; block matters, replace only for observers', async () => {
    const owner = new FakeClient('own', { replaces: ['permission'] }, () => ({
      decision: 'replace',
      replacement: { name: 'rm', arguments: '{"x":1}', hostDecision: 'allow' },
    }));
    const d = new InterceptDispatcher([owner]);
    const out = await d.dispatch('permission.decision', { name: 'rm', arguments: '{}', hostDecision: 'allow' });
    assert.equal(out.decision, 'continue');
    assert.deepEqual(owner.events[0].payload, { name: 'rm', arguments: '{"x":1}', hostDecision: 'allow' });
    const blocker = new FakeClient('blk', { intercepts: ['permission.decision'] }, () => ({ decision: 'block' }));
    const owner2 = new FakeClient('own2', { replaces: ['permission'] });
    const out2 = await new InterceptDispatcher([blocker, owner2]).dispatch('permission.decision', {
      name: 'rm',
      arguments: '{}',
      hostDecision: 'allow',
    });
    assert.equal(out2.decision, 'block');
    assert.equal(owner2.calls.length, 0);
    assert.equal(owner2.events.length, 1);
    // Any permission owner failure blocks the tool call (HOST_SPEC §4.5), keeping the failure.
    const failing = new FakeClient('own3', { replaces: ['permission'] }, () => Promise.reject(new Error('boom')));
    const out3 = await new InterceptDispatcher([failing]).dispatch('permission.decision', {
      name: 'rm',
      arguments: '{}',
      hostDecision: 'allow',
    });
    assert.equal(out3.decision, 'block');
    assert.equal(out3.blockedBy, 'own3');
    assert.equal(out3.error?.pluginId, 'own3');
    assert.match(out3.reason ?? '', /permission strategy of 'own3' failed .*boom/);
  });

  it('slot owner runs after the chain with the final payload', async () => {
    const a = new FakeClient('a', { intercepts: ['context.prepare'] }, () => ({
      decision: 'replace',
      replacement: { messages: [{ role: 'user', content: 'A' }] },
    }));
    const owner = new FakeClient('own', { replaces: ['context'] }, () => ({ decision: 'block', reason: 'no' }));
    const out = await new InterceptDispatcher([owner, a]).dispatch('context.prepare', { messages: [] });
    assert.deepEqual(a.calls[0].payload, {});
    assert.deepEqual(owner.calls[0].payload, { messages: [{ role: 'user', content: 'A' }] });
    assert.equal(out.decision, 'block');
    assert.equal(out.blockedBy, 'own');
  });

  it('optional timeout warns once and continues; required fails (case 37)', async () => {
    const slow = new FakeClient('slow', { intercepts: ['tool.before'] }, never);
    const next = new FakeClient('next', { intercepts: ['tool.before'], priority: 1 });
    const d = new InterceptDispatcher([slow, next], { timeouts: fastTimeouts });
    const first = await d.dispatch('tool.before', { name: 't', arguments: '{}' });
    assert.equal(slow.calls[0].timeoutMillis, 50);
    assert.equal(first.decision, 'continue');
    assert.equal(first.warnings.length, 1);
    assert.match(first.warnings[0], /intercept_timeout/);
    assert.equal(next.calls.length, 1);
    const second = await d.dispatch('tool.before', { name: 't', arguments: '{}' });
    assert.equal(second.warnings.length, 0);
    const req = new FakeClient('req', { intercepts: ['tool.before'], required: true }, never);
    const failed = await new InterceptDispatcher([req], { timeouts: fastTimeouts }).dispatch('tool.before', {
      name: 't',
      arguments: '{}',
    });
    assert.equal(failed.decision, 'failed');
    assert.equal(failed.error?.reason, 'intercept_timeout');
    assert.equal(req.events.length, 0, 'no event after a required-class failure');
  });

  it('manifest timeoutMillis replaces the family default and is clamped (case 38)', async () => {
    const c = new FakeClient('c', { intercepts: ['tool.before', 'context.prepare'], timeoutMillis: 600000 });
    const d = new InterceptDispatcher([c]);
    await d.dispatch('tool.before', { name: 't', arguments: '{}' });
    await d.dispatch('context.prepare', {});
    assert.deepEqual(
      c.calls.map((p) => p.timeoutMillis),
      [60000, 60000],
    );
  });

  it('seq counts every intercept sent to a client from 1 (case 39)', async () => {
    const c = new FakeClient('c', { intercepts: ['tool.before', 'input.receive'] });
    const d = new InterceptDispatcher([c]);
    await d.dispatch('tool.before', { name: 't', arguments: '{}' });
    await d.dispatch('input.receive', { text: 'x' });
    await d.dispatch('tool.before', { name: 't', arguments: '{}' });
    assert.deepEqual(
      c.calls.map((p) => p.seq),
      [1, 2, 3],
    );
  });

  it('a client that is not live counts as a failure', async () => {
    const dead = new FakeClient('dead', { intercepts: ['tool.before'] });
    dead.live = false;
    const out = await new InterceptDispatcher([dead]).dispatch('tool.before', { name: 't', arguments: '{}' });
    assert.equal(out.decision, 'continue');
    assert.match(out.warnings[0], /provider_interrupted/);
    dead.runtime.required = true;
    const out2 = await new InterceptDispatcher([dead]).dispatch('tool.before', { name: 't', arguments: '{}' });
    assert.equal(out2.decision, 'failed');
    assert.equal(out2.error?.reason, 'provider_interrupted');
  });

  it('system_prompt.build: only the owner is asked; block or timeout fails, continue keeps the default (case 40)', async () => {
    const listener = new FakeClient('listener', { intercepts: ['system_prompt.build'] });
    const payload = { prompt: 'default', workspaceRoot: '/w' };
    const cont = new FakeClient('own', { replaces: ['system_prompt'] });
    const ok = await new InterceptDispatcher([listener, cont]).dispatch('system_prompt.build', payload);
    assert.equal(ok.decision, 'continue');
    assert.deepEqual(ok.payload, payload);
    assert.equal(listener.calls.length, 0);
    assert.deepEqual(
      listener.events.map((e) => e.payload),
      [payload],
    );
    const blk = new FakeClient('own', { replaces: ['system_prompt'] }, () => ({ decision: 'block', reason: 'nope' }));
    assert.equal((await new InterceptDispatcher([blk]).dispatch('system_prompt.build', payload)).decision, 'block');
    const slow = new FakeClient('own', { replaces: ['system_prompt'] }, never);
    const t = await new InterceptDispatcher([slow], { timeouts: fastTimeouts }).dispatch(
      'system_prompt.build',
      payload,
    );
    assert.equal(t.decision, 'failed');
    assert.equal(t.error?.reason, 'intercept_timeout');
    assert.equal(slow.calls[0].timeoutMillis, 80);
    const rep = new FakeClient('own', { replaces: ['system_prompt'] }, () => ({
      decision: 'replace',
      replacement: { prompt: 'mine', workspaceRoot: '/w' },
    }));
    const r = await new InterceptDispatcher([rep]).dispatch('system_prompt.build', payload);
    assert.deepEqual(r.payload, { prompt: 'mine', workspaceRoot: '/w' });
    assert.deepEqual(r.changedBy, ['own']);
  });

  it('session.start/end are events only, to listed plugins and the session_policy owner', async () => {
    const l = new FakeClient('l', { intercepts: ['session.start'] });
    const own = new FakeClient('own', { replaces: ['session_policy'] });
    const other = new FakeClient('other', { intercepts: ['tool.before'] });
    const out = await new InterceptDispatcher([l, own, other]).dispatch('session.start', {
      sessionPath: '/s',
      phase: 'start',
    });
    assert.equal(out.decision, 'continue');
    assert.equal(l.calls.length + own.calls.length, 0);
    assert.deepEqual(l.events, [{ event: 'session.start', payload: { sessionPath: '/s', phase: 'start' } }]);
    assert.equal(own.events.length, 1);
    assert.equal(other.events.length, 0);
  });

  it('session.load failure is a warning; session.save failure fails; replacement phase must match', async () => {
    const failing = () => Promise.reject(new Error('disk on fire'));
    const load = await new InterceptDispatcher([
      new FakeClient('own', { replaces: ['session_policy'] }, failing),
    ]).dispatch('session.load', { sessionPath: '/s', phase: 'load' });
    assert.equal(load.decision, 'continue');
    assert.match(load.warnings[0], /disk on fire/);
    const save = await new InterceptDispatcher([
      new FakeClient('own', { replaces: ['session_policy'] }, failing),
    ]).dispatch('session.save', { sessionPath: '/s', phase: 'save' });
    assert.equal(save.decision, 'failed');
    const wrongPhase = () => ({ decision: 'replace', replacement: { sessionPath: '/t', phase: 'load' } });
    const rot = await new InterceptDispatcher([
      new FakeClient('own', { replaces: ['session_policy'] }, wrongPhase),
    ]).dispatch('session.rotate', { sessionPath: '/s', phase: 'rotate' });
    assert.equal(rot.decision, 'failed');
    assert.match(rot.error?.message ?? '', /phase/);
  });

  it('frontend.event: block suppresses, failure keeps the original, kind change discarded', async () => {
    const ev = { kind: 'notice', text: 'hi' };
    const blk = await new InterceptDispatcher([
      new FakeClient('o', { replaces: ['frontend_events'] }, () => ({ decision: 'block' })),
    ]).dispatch('frontend.event', ev);
    assert.equal(blk.decision, 'block');
    const f = await new InterceptDispatcher([new FakeClient('o', { replaces: ['frontend_events'] }, never)], {
      timeouts: fastTimeouts,
    }).dispatch('frontend.event', ev);
    assert.equal(f.decision, 'continue');
    assert.deepEqual(f.payload, ev);
    assert.equal(f.warnings.length, 1);
    const kindChange = await new InterceptDispatcher([
      new FakeClient('o', { replaces: ['frontend_events'] }, () => ({
        decision: 'replace',
        replacement: { kind: 'other', text: 'x' },
      })),
    ]).dispatch('frontend.event', ev);
    assert.deepEqual(kindChange.payload, ev);
    assert.deepEqual(kindChange.changedBy, []);
    assert.match(kindChange.warnings[0], /discarded/);
    const textChange = await new InterceptDispatcher([
      new FakeClient('o', { replaces: ['frontend_events'] }, () => ({
        decision: 'replace',
        replacement: { kind: 'notice', text: 'x' },
      })),
    ]).dispatch('frontend.event', ev);
    assert.deepEqual(textChange.payload, { kind: 'notice', text: 'x' });
  });

  it('tool:<name> owners are required-class but never consulted', async () => {
    const own = new FakeClient('own', { replaces: ['tool:read'] }, () => ({ decision: 'block' }));
    const opt = new FakeClient('own2', { intercepts: ['tool.before'], replaces: ['tool:write'] }, () => ({
      decision: 'allow',
    }));
    const out = await new InterceptDispatcher([own]).dispatch('tool.before', { name: 'read', arguments: '{}' });
    assert.equal(out.decision, 'continue');
    assert.equal(own.calls.length, 0);
    assert.equal(
      (await new InterceptDispatcher([opt]).dispatch('tool.before', { name: 'read', arguments: '{}' })).decision,
      'failed',
    );
  });

  it('tool.before replacement must name a known tool', async () => {
    const c = new FakeClient('c', { intercepts: ['tool.before'], required: true }, () => ({
      decision: 'replace',
      replacement: { name: 'rm', arguments: '{}' },
    }));
    const d = new InterceptDispatcher([c], { knownTools: (n) => n === 'read' });
    const out = await d.dispatch('tool.before', { name: 'read', arguments: '{}' });
    assert.equal(out.decision, 'failed');
    assert.match(out.error?.message ?? '', /unknown tool 'rm'/);
  });

  it('events deduplicate chain members and slot owners; a dropped event warns once per plugin', async () => {
    const both = new FakeClient('both', { intercepts: ['compaction.prepare'], replaces: ['compaction'] });
    const lossy = new FakeClient('lossy', { intercepts: ['compaction.prepare'] });
    lossy.acceptEvents = false;
    const d = new InterceptDispatcher([both, lossy]);
    const out = await d.dispatch('compaction.prepare', { messages: [], guidance: 'g' });
    assert.equal(both.calls.length, 2, 'chain member and owner');
    assert.equal(both.events.length, 1);
    assert.equal(out.warnings.length, 1);
    assert.match(out.warnings[0], /lossy.*dropped/);
    assert.equal((await d.dispatch('compaction.prepare', { guidance: 'g' })).warnings.length, 0);
  });

  it('slot collisions name the slot, both plugins (in id order, whatever the input order) and the fix', () => {
    const a = new FakeClient('alpha', { replaces: ['context'] });
    const b = new FakeClient('beta', { replaces: ['context'] });
    const expected = 'strategy slot "context" is replaced by both "alpha" and "beta"; disable one of them';
    for (const clients of [
      [a, b],
      [b, a],
    ]) {
      const check = validateSlots(clients);
      assert.equal(check.ok, false);
      assert.equal((check as { message: string }).message, expected);
      assert.deepEqual((check as { plugins: string[] }).plugins, ['alpha', 'beta']);
    }
    assert.throws(
      () => new InterceptDispatcher([b, a]),
      (err: unknown) => err instanceof SlotCollisionError && err.message === expected && err.slot === 'context',
    );
    assert.equal(validateSlots([a, new FakeClient('g', { replaces: ['compaction'] })]).ok, true);
  });

  it('cancellation rejects the dispatch instead of blaming the plugin', async () => {
    const ac = new AbortController();
    const c = new FakeClient(
      'c',
      { intercepts: ['tool.before'], required: true },
      () => (ac.abort(new Error('user cancelled')), never()),
    );
    await assert.rejects(
      new InterceptDispatcher([c], { timeouts: fastTimeouts }).dispatch(
        'tool.before',
        { name: 't', arguments: '{}' },
        { signal: ac.signal },
      ),
      /user cancelled/,
    );
  });
});

describe('content refs in dispatch (HOST_SPEC §5, fakes)', () => {
  const sized = (bytes: number) => ({ text: 'x'.repeat(bytes - '{"text":""}'.length) });

  it('exactly 65,536 bytes stays inline; 65,537 is externalized (case 41)', async () => {
    const c = new FakeClient('c', { intercepts: ['input.receive'] });
    const d = new InterceptDispatcher([c]);
    await d.dispatch('input.receive', sized(65536));
    await d.dispatch('input.receive', sized(65537));
    assert.equal(c.calls[0].externalized, undefined);
    assert.equal(Buffer.byteLength(JSON.stringify(c.calls[0].payload)), 65536);
    assert.equal(c.calls[1].payload, null);
    const [field] = c.calls[1].externalized ?? [];
    assert.equal(field.jsonPointer, '/payload');
    assert.equal(field.totalBytes, 65537);
    const stored = c.content.get(field.contentRef);
    assert.ok(stored);
    const bytes = Buffer.from(contentText(stored.content), 'utf8');
    assert.equal(bytes.length, 65537);
    assert.equal(createHash('sha256').update(bytes).digest('hex'), field.sha256);
  });

  it('events are externalized the same way', async () => {
    const c = new FakeClient('c', { intercepts: ['tool.after'] });
    await new InterceptDispatcher([c]).dispatch('tool.after', { name: 't', result: 'r'.repeat(70000) });
    assert.equal(c.events[0].payload, null);
    assert.equal(c.events[0].externalized?.[0].jsonPointer, '/payload');
  });

  it('a payload over 8 MiB fails that call with frame_too_large', async () => {
    const c = new FakeClient('c', { intercepts: ['tool.after'], required: true });
    const out = await new InterceptDispatcher([c]).dispatch('tool.after', {
      name: 't',
      result: 'r'.repeat(8 * 1024 * 1024),
    });
    assert.equal(out.decision, 'failed');
    assert.equal(out.error?.reason, 'frame_too_large');
    assert.equal(c.calls.length, 0);
  });

  const envelopeCases: Array<
    [string, (ref: { contentRef: string; totalBytes: number; sha256: string }) => unknown, string]
  > = [
    [
      'inline value and envelope',
      (f) => ({
        decision: 'replace',
        replacement: { text: 'x' },
        externalized: [{ jsonPointer: '/replacement', ...f }],
      }),
      'protocol_error',
    ],
    [
      'two descriptors',
      (f) => ({
        decision: 'replace',
        replacement: null,
        externalized: [
          { jsonPointer: '/replacement', ...f },
          { jsonPointer: '/replacement', ...f },
        ],
      }),
      'protocol_error',
    ],
    [
      'wrong pointer',
      (f) => ({ decision: 'replace', replacement: null, externalized: [{ jsonPointer: '/payload', ...f }] }),
      'protocol_error',
    ],
    [
      'object over 8 MiB',
      (f) => ({
        decision: 'replace',
        replacement: null,
        externalized: [{ jsonPointer: '/replacement', ...f, totalBytes: 8 * 1024 * 1024 + 1 }],
      }),
      'frame_too_large',
    ],
    [
      'unknown ref',
      (f) => ({
        decision: 'replace',
        externalized: [{ jsonPointer: '/replacement', ...f, contentRef: 'content_000000000000000000000000' }],
      }),
      'content_ref_expired',
    ],
    [
      'wrong sha256',
      (f) => ({
        decision: 'replace',
        replacement: null,
        externalized: [{ jsonPointer: '/replacement', ...f, sha256: '0'.repeat(64) }],
      }),
      'protocol_error',
    ],
    [
      'wrong length',
      (f) => ({
        decision: 'replace',
        replacement: null,
        externalized: [{ jsonPointer: '/replacement', ...f, totalBytes: f.totalBytes - 1 }],
      }),
      'protocol_error',
    ],
  ];
  for (const [name, answer, reason] of envelopeCases) {
    it(`bad replacement envelope: ${name} → ${reason} (case 45)`, async () => {
      const c = new FakeClient('c', { intercepts: ['input.receive'], required: true }, (p) => {
        const f = p.externalized?.[0];
        assert.ok(f);
        return answer({ contentRef: f.contentRef, totalBytes: f.totalBytes, sha256: f.sha256 });
      });
      const out = await new InterceptDispatcher([c]).dispatch('input.receive', sized(70000));
      assert.equal(out.decision, 'failed');
      assert.equal(out.error?.reason, reason);
    });
  }

  it('an envelope re-pointing at the externalized payload itself (held as its ASCII string) returns that payload', async () => {
    const c = new FakeClient('c', { intercepts: ['input.receive'] }, (p) => {
      const f = p.externalized?.[0];
      assert.ok(f);
      return { decision: 'replace', replacement: null, externalized: [{ ...f, jsonPointer: '/replacement' }] };
    });
    const out = await new InterceptDispatcher([c]).dispatch('input.receive', sized(70000));
    assert.equal(out.decision, 'continue');
    assert.deepEqual(out.payload, sized(70000));
  });

  it('an envelope re-pointing at our stored object is read back, verified and decoded', async () => {
    const c = new FakeClient('c', { intercepts: ['input.receive'] }, (p, self) => {
      const text = `${'y'.repeat(70000)}`;
      const field = self.content.put('/replacement', Buffer.from(JSON.stringify({ text })));
      assert.ok(p.externalized);
      return { decision: 'replace', replacement: null, externalized: [field] };
    });
    const out = await new InterceptDispatcher([c]).dispatch('input.receive', sized(70000));
    assert.equal(out.decision, 'continue');
    assert.equal((out.payload as { text: string }).text, 'y'.repeat(70000));
    assert.deepEqual(out.changedBy, ['c']);
  });
});
