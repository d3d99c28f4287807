// The companion sample (examples/companion): a v2 extension without tools that the real Reasonix
// 1.38.11 runs, driven by hand over its stdio as a host drives it, and then by the real Reasonix in
// a scratch home (a whole agent turn answered offline by its echo model).
import * as assert from 'node:assert/strict';
import { accessSync, constants, cpSync } from 'node:fs';
import * as path from 'node:path';
import { V2, type CardPayload, type StatusPayload, type UIRequestParams } from '../../../src/protocol';
import { decodePublishPayload, decodeRequestPayload } from '../../../src/host/ui';
import { runReasonix } from '../../../src/host/reasonix';
import { realReasonixBinary, scratchReasonix, type ScratchReasonix } from '../../support/reasonix';
import { EXAMPLES, SidecarDriver, expandedCommand, readManifest, type DriverOptions, type Frame } from './driver';

const ROOT = path.join(EXAMPLES, 'companion');
const FAST = { COMPANION_TICK_MS: '2', COMPANION_CHUNK_MS: '2' };
const MODEL = 'plugin/companion/echo/echo-1';
const field = (card: CardPayload, key: string): string | undefined =>
  (card.fields as { key: string; value?: string }[] | undefined)?.find((f) => f.key === key)?.value;

describe('examples/companion', function () {
  let driver: SidecarDriver | undefined;
  afterEach(async () => {
    await driver?.dispose();
    driver = undefined;
  });
  async function started(opts: DriverOptions = {}): Promise<SidecarDriver> {
    const d = (driver = new SidecarDriver(ROOT, { ...opts, env: { ...FAST, ...(opts.env ?? {}) } }));
    const r = await d.ready(d.initializeParams({ workspaceRoot: '/projects/demo' }));
    const v = V2.validateResult('extension/initialize', r);
    assert.ok(v.ok, v.ok ? '' : v.message);
    return d;
  }

  it('has a v2 manifest without runtime.tools, an executable command, and the ui and providers capabilities', () => {
    const m = readManifest(ROOT);
    assert.equal(m.apiVersion, 'reasonix.io/plugin/v2');
    assert.equal(m.runtime.tools, undefined, 'Reasonix 1.38.x refuses runtime.tools');
    assert.deepEqual(m.runtime.capabilities, ['ui', 'providers']);
    accessSync(expandedCommand(ROOT, m), constants.X_OK);
  });

  it('publishes a notification, its card with buttons, and a status whose progress advances then settles', async () => {
    const d = await started();
    const status = await d.surface<StatusPayload>('warm-up', (s) => s.label === 'Companion is ready');
    assert.equal(status.progress, undefined);
    const pubs = d.publishes();
    for (const p of pubs) {
      assert.ok(V2.validateParams('host/ui/publish', p).ok);
      assert.equal(p.generation, 3);
      decodePublishPayload(p.kind, p.payload);
    }
    const progress = pubs.filter((p) => p.surfaceId === 'warm-up').map((p) => (p.payload as StatusPayload).progress);
    assert.deepEqual(progress, [0, 0.2, 0.4, 0.6, 0.8, undefined]);
    assert.equal(pubs[0].kind, 'notification');
    const card = await d.surface<CardPayload>('companion');
    assert.deepEqual(
      card.actions?.map((a) => a.actionId),
      ['pick-color', 'ping'],
    );
    assert.equal(field(card, 'Workspace'), 'demo');
  });

  it('pick-color asks a select prompt and the card shows the answer; a dismissed prompt changes nothing', async () => {
    const asked: UIRequestParams[] = [];
    let answer: { cancelled: boolean; values?: Record<string, unknown> } = {
      cancelled: false,
      values: { color: 'Violet' },
    };
    const d = await started({
      prompt: (p) => {
        asked.push(p);
        return answer;
      },
    });
    const action = { actionId: 'pick-color', sessionId: 'session-1', generation: 3 };
    assert.deepEqual(await d.call('extension/ui/action', action), { accepted: true, message: 'Color set to Violet' });
    assert.ok(V2.validateParams('host/ui/request', asked[0]).ok);
    assert.equal(asked[0].kind, 'select');
    assert.deepEqual(decodeRequestPayload(asked[0].payload).fields[0].options, ['Teal', 'Amber', 'Violet', 'Slate']);
    await d.surface<CardPayload>('companion', (c) => field(c, 'Color') === 'Violet' && field(c, 'Actions run') === '1');
    // Reasonix answers a choice as the option's label under `value`.
    answer = { cancelled: false, values: { value: 'Amber' } };
    assert.deepEqual(await d.call('extension/ui/action', action), { accepted: true, message: 'Color set to Amber' });
    answer = { cancelled: true };
    assert.deepEqual(await d.call('extension/ui/action', action), { accepted: true, message: 'Color unchanged' });
    await d.surface<CardPayload>('companion', (c) => field(c, 'Color') === 'Amber' && field(c, 'Actions run') === '3');
    const stale = await d.call('extension/ui/action', { ...action, generation: 2 });
    assert.equal(stale.accepted, false);
  });

  it('streams "Echo: <the message>" with contiguous seqs, then ends; a cancel ends it interrupted', async () => {
    const d = await started();
    const catalog = await d.call('extension/provider/catalog', {});
    assert.ok(V2.validateResult('extension/provider/catalog', catalog).ok);
    const open = (streamId: string, text: string) => ({
      streamId,
      providerRef: MODEL,
      model: 'echo-1',
      request: { messages: [{ role: 'user', content: text }], tools: [], maxTokens: 64 },
      seqBase: 4,
    });
    assert.ok(V2.validateParams('extension/provider/stream/open', open('s1', 'hi there')).ok);
    assert.deepEqual(await d.call('extension/provider/stream/open', open('s1', 'hi there')), { accepted: true });
    const end = (id: string): Promise<Frame> =>
      d.waitFor(
        (f) => f.method === 'extension/provider/stream/end' && (f.params as { streamId: string }).streamId === id,
        `end of ${id}`,
      );
    const ended = (await end('s1')).params as { lastSeq: number };
    const chunks = d.frames
      .filter((f) => f.method === 'extension/provider/stream/chunk')
      .map((f) => f.params as { seq: number; chunk: { type: string; text?: string } });
    assert.deepEqual(
      chunks.map((c) => c.seq),
      chunks.map((_, i) => 4 + i),
    );
    assert.equal(ended.lastSeq, chunks[chunks.length - 1].seq);
    assert.equal(chunks.map((c) => c.chunk.text ?? '').join(''), 'Echo: hi there');
    assert.deepEqual(
      chunks.slice(-2).map((c) => c.chunk.type),
      ['usage', 'done'],
    );
    await d.surface<CardPayload>('companion', (c) => field(c, 'Model answers') === '1');
    assert.deepEqual(
      await d.call('extension/provider/stream/open', { ...open('s2', 'x'), providerRef: 'plugin/other/m/1' }),
      {
        accepted: false,
      },
    );

    assert.deepEqual(await d.call('extension/provider/stream/open', open('s3', 'one two three four five six')), {
      accepted: true,
    });
    assert.deepEqual(await d.call('extension/provider/stream/cancel', { streamId: 's3' }), { cancelled: true });
    assert.equal(((await end('s3')).params as { interrupted?: boolean }).interrupted, true);
    const s = await d.shutdown();
    assert.equal(s.code, 0);
    assert.deepEqual(d.garbage, []);
  });

  describe('in the real Reasonix 1.38.11 (scratch home)', function () {
    this.timeout(60_000);
    let s: ScratchReasonix;
    before(() => (s = scratchReasonix()));
    after(() => s.remove());

    it('installs, is enabled, and answers a whole agent turn offline with its echo model', async () => {
      // A copy inside the workspace: Reasonix links only sources under its cwd or home.
      const dir = path.join(s.workspace, 'companion');
      cpSync(ROOT, dir, { recursive: true });
      const run = (args: string[]) =>
        runReasonix(realReasonixBinary(), args, 'install', { cwd: s.workspace, env: s.env });
      const installed = await run(['plugin', 'install', dir, '--link', '--yes']);
      assert.equal(installed.code, 0, installed.stderr);
      assert.match((await run(['plugin', 'list'])).stdout, /^companion\tenabled\t0\.1\.0/m);
      const turn = await run(['-p', 'hello from the test', '--model', MODEL]);
      assert.equal(turn.code, 0, turn.stderr);
      assert.match(turn.stdout, /Echo: hello from the test/);
    });
  });
});
