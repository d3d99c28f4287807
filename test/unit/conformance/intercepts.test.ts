// Issue 11 items 1, 3 and 7 against real fixture interceptor sidecars: the permission owner is
// always consulted, tool.before replacement rules hold for every plugin class, and an envelope on
// a continue/block answer is validated. The CLI `fire` gives the same outcomes as the engine.
import { strict as assert } from 'node:assert';
import { runCli } from '../cli/support';
import { InterceptorRig } from './interceptor-rig';
import { waitFor } from '../../support/wait';

const DENIED = { name: 'write', arguments: '{"p":"x"}', readOnly: false, hostDecision: 'deny' as const };
const ALLOWED = { name: 'write', arguments: '{"p":"x"}', hostDecision: 'allow' as const };

describe('conformance: the permission owner is always consulted (issue 11 item 1)', function () {
  this.timeout(30000);
  let rig: InterceptorRig;
  beforeEach(() => (rig = new InterceptorRig()));
  afterEach(() => rig.dispose());

  it('a chain allow followed by an owner block ends as block, without an audit note', async () => {
    const d = await rig.dispatcher([
      ['trusting', { intercepts: ['permission.decision'] }, { '*': { decision: 'allow', reason: 'I trust it' } }],
      ['later', { intercepts: ['permission.decision'], priority: 1 }],
      ['owner', { replaces: ['permission'] }, { '*': { decision: 'block', reason: 'policy says no' } }],
    ]);
    const out = await d.dispatch('permission.decision', DENIED);
    assert.equal(out.decision, 'block');
    assert.equal(out.blockedBy, 'owner');
    assert.equal(out.reason, 'policy says no');
    assert.equal(out.audit, undefined, 'an allow the owner vetoed is not audited as honoured');
    assert.equal(rig.intercepts('owner').length, 1, 'the owner was asked after the chain allow');
    assert.equal(rig.intercepts('later').length, 0, 'the first allow ended the chain phase');
  });

  it("a chain deny is still put to the owner; the owner's continue lets it stand", async () => {
    const d = await rig.dispatcher([
      ['wary', { intercepts: ['permission.decision'] }, { '*': { decision: 'deny', reason: 'not today' } }],
      ['owner', { replaces: ['permission'] }, { '*': { decision: 'continue' } }],
    ]);
    const out = await d.dispatch('permission.decision', ALLOWED);
    assert.equal(out.decision, 'deny');
    assert.equal(out.blockedBy, 'wary');
    assert.equal(out.reason, 'not today');
    assert.equal(rig.intercepts('owner').length, 1);
  });

  it('a chain allow over the host deny that the owner lets stand is honoured and audited', async () => {
    const d = await rig.dispatcher([
      ['trusting', { intercepts: ['permission.decision'] }, { '*': { decision: 'allow', reason: 'I trust it' } }],
      ['owner', { replaces: ['permission'] }, { '*': { decision: 'continue' } }],
    ]);
    const out = await d.dispatch('permission.decision', DENIED);
    assert.equal(out.decision, 'allow');
    assert.equal(out.audit?.length, 1);
    assert.match(out.audit?.[0] ?? '', /'trusting' allowed tool 'write' over the host's deny: I trust it/);
  });

  for (const verdict of ['allow', 'deny'] as const) {
    it(`an owner '${verdict}' is a contract violation that blocks the tool (not the host decision standing)`, async () => {
      const d = await rig.dispatcher([['owner', { replaces: ['permission'] }, { '*': { decision: verdict } }]]);
      const out = await d.dispatch('permission.decision', verdict === 'allow' ? DENIED : ALLOWED);
      assert.equal(out.decision, 'block');
      assert.equal(out.blockedBy, 'owner');
      assert.equal(out.error?.reason, 'protocol_error');
      assert.match(out.reason ?? '', new RegExp(`contract violation: '${verdict}' from the permission strategy`));
    });
  }

  it('a chain block ends the walk: the owner only observes', async () => {
    const d = await rig.dispatcher([
      ['stopper', { intercepts: ['permission.decision'] }, { '*': { decision: 'block', reason: 'stop' } }],
      ['owner', { replaces: ['permission'] }, { '*': { decision: 'continue' } }],
    ]);
    const out = await d.dispatch('permission.decision', ALLOWED);
    assert.equal(out.decision, 'block');
    assert.equal(out.blockedBy, 'stopper');
    await waitFor(() => rig.recorded('owner').find((r) => r.kind === 'event'), {
      timeoutMs: 5000,
      what: "the owner's permission.decision event",
      intervalMs: 10,
    });
    assert.equal(rig.intercepts('owner').length, 0);
  });

  it('the CLI `fire` agrees: chain allow then owner block prints block (exit 0)', async () => {
    const trusting = rig.pluginDir(
      'trusting',
      { capabilities: ['interceptors'], intercepts: ['permission.decision'] },
      { '*': { decision: 'allow' } },
    );
    const owner = rig.pluginDir(
      'owner',
      { capabilities: ['interceptors', 'strategies'], replaces: ['permission'] },
      { '*': { decision: 'block', reason: 'policy says no' } },
    );
    const r = await runCli(
      [
        'fire',
        'permission.decision',
        '--payload',
        JSON.stringify(DENIED),
        '--plugin',
        trusting,
        '--plugin',
        owner,
        '--json',
      ],
      { timeoutMs: 20000 },
    );
    assert.equal(r.code, 0, r.stderr);
    const outcome = JSON.parse(r.stdout) as { decision: string; blockedBy: string; reason: string };
    assert.deepEqual([outcome.decision, outcome.blockedBy, outcome.reason], ['block', 'owner', 'policy says no']);
  });
});

describe('conformance: tool.before replacement rules (issue 11 item 3)', function () {
  this.timeout(30000);
  let rig: InterceptorRig;
  beforeEach(() => (rig = new InterceptorRig()));
  afterEach(() => rig.dispose());

  const CALL = { name: 'read', arguments: '{"path":"a"}' };

  for (const [label, replacement] of [
    ['without arguments', { name: 'read' }],
    ['with empty arguments', { name: 'read', arguments: '' }],
    ['with blank arguments', { name: 'read', arguments: '   ' }],
  ] as const) {
    it(`a replacement ${label} from an OPTIONAL plugin fails the tool call (not ignored with the original arguments kept)`, async () => {
      const d = await rig.dispatcher([
        ['sloppy', { intercepts: ['tool.before'] }, { '*': { decision: 'replace', replacement } }],
        ['next', { intercepts: ['tool.before'], priority: 1 }],
      ]);
      const out = await d.dispatch('tool.before', CALL);
      assert.equal(out.decision, 'failed');
      assert.equal(out.error?.pluginId, 'sloppy');
      assert.equal(out.error?.reason, 'protocol_error');
      assert.match(out.error?.message ?? '', /contract violation: invalid tool.before replacement: \/arguments/);
      assert.equal(rig.intercepts('next').length, 0, 'the walk stopped at the violation');
    });
  }

  it('a replacement naming a tool the caller does not know fails the call for every class; without known tools it applies', async () => {
    const rename = { '*': { decision: 'replace', replacement: { name: 'rm', arguments: '{"path":"/"}' } } };
    const d = await rig.dispatcher([['renamer', { intercepts: ['tool.before'] }, rename]]);
    const strict = await d.dispatch('tool.before', CALL, { knownTools: (n) => n === 'read' });
    assert.equal(strict.decision, 'failed');
    assert.equal(strict.error?.pluginId, 'renamer');
    assert.match(strict.error?.message ?? '', /unknown tool 'rm'/);
    const open = await d.dispatch('tool.before', CALL);
    assert.equal(open.decision, 'continue');
    assert.deepEqual(open.payload, { name: 'rm', arguments: '{"path":"/"}' });
  });

  it('a permission.decision replacement without arguments is accepted', async () => {
    const d = await rig.dispatcher([
      [
        'narrower',
        { intercepts: ['permission.decision'] },
        { '*': { decision: 'replace', replacement: { name: 'write', hostDecision: 'deny' } } },
      ],
    ]);
    const out = await d.dispatch('permission.decision', ALLOWED);
    assert.equal(out.decision, 'continue');
    assert.deepEqual(out.changedBy, ['narrower']);
    assert.deepEqual(out.payload, { name: 'write', hostDecision: 'deny' });
    assert.deepEqual(out.warnings, []);
  });

  it('the CLI `fire --known-tool` agrees with the engine', async () => {
    const plugin = rig.pluginDir(
      'renamer',
      { capabilities: ['interceptors'], intercepts: ['tool.before'] },
      { '*': { decision: 'replace', replacement: { name: 'rm', arguments: '{"path":"/"}' } } },
    );
    const strict = await runCli(
      ['fire', 'tool.before', '--payload', JSON.stringify(CALL), '--plugin', plugin, '--known-tool', 'read', '--json'],
      { timeoutMs: 20000 },
    );
    assert.equal(strict.code, 1, strict.stderr);
    assert.match((JSON.parse(strict.stdout) as { error: { message: string } }).error.message, /unknown tool 'rm'/);
    const open = await runCli(
      ['fire', 'tool.before', '--payload', JSON.stringify(CALL), '--plugin', plugin, '--json'],
      { timeoutMs: 20000 },
    );
    assert.equal(open.code, 0, open.stderr);
    assert.equal((JSON.parse(open.stdout) as { decision: string }).decision, 'continue');
  });
});

describe('conformance: an envelope on a continue or block answer is validated (issue 11 item 7)', function () {
  this.timeout(30000);
  let rig: InterceptorRig;
  beforeEach(() => (rig = new InterceptorRig()));
  afterEach(() => rig.dispose());

  const BIG = { name: 'read', result: 'q'.repeat(70000) };

  it('continue with a wrong sha256: a required plugin fails the operation, an optional one is skipped with a warning', async () => {
    const req = await rig.dispatcher([
      [
        'req',
        { intercepts: ['tool.after'], required: true },
        { '*': { decision: 'continue', attachEnvelope: 'bad-sha' } },
      ],
    ]);
    const failed = await req.dispatch('tool.after', BIG);
    assert.equal(failed.decision, 'failed');
    assert.equal(failed.error?.reason, 'protocol_error');
    assert.match(failed.error?.message ?? '', /invalid externalized envelope on a 'continue' answer: .*sha256/);

    const opt = await rig.dispatcher([
      ['opt', { intercepts: ['tool.after'] }, { '*': { decision: 'continue', attachEnvelope: 'bad-sha' } }],
    ]);
    const skipped = await opt.dispatch('tool.after', BIG);
    assert.equal(skipped.decision, 'continue');
    assert.match(skipped.warnings[0] ?? '', /^opt: .*invalid externalized envelope on a 'continue' answer/);
  });

  it('block with an envelope naming a ref the host never minted is not honoured: the required plugin fails with content_ref_expired', async () => {
    const d = await rig.dispatcher([
      [
        'req',
        { intercepts: ['tool.before'], required: true },
        { '*': { decision: 'block', reason: 'no', attachEnvelope: 'unknown-ref' } },
      ],
    ]);
    const out = await d.dispatch('tool.before', { name: 'read', arguments: '{}' });
    assert.equal(out.decision, 'failed');
    assert.equal(out.error?.reason, 'content_ref_expired');
    assert.match(out.error?.message ?? '', /on a 'block' answer/);
  });

  it('continue with a valid envelope (the ref it was sent) is accepted and changes nothing', async () => {
    const d = await rig.dispatcher([
      [
        'req',
        { intercepts: ['tool.after'], required: true },
        { '*': { decision: 'continue', attachEnvelope: 'received' } },
      ],
    ]);
    const out = await d.dispatch('tool.after', BIG);
    assert.equal(out.decision, 'continue', JSON.stringify(out.error));
    assert.deepEqual(out.changedBy, []);
    assert.equal(rig.intercepts('req')[0].externalized, true);
  });
});
