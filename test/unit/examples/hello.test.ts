// The hello sample: the smallest sidecar still keeps the protocol's rules.
import * as assert from 'node:assert/strict';
import { accessSync, constants } from 'node:fs';
import * as path from 'node:path';
import { V1 } from '../../../src/protocol';
import { decodePublishPayload } from '../../../src/host/ui';
import { EXAMPLES, SidecarDriver, expandedCommand, readManifest } from './driver';

const ROOT = path.join(EXAMPLES, 'hello');

describe('examples/hello', function () {
  let driver: SidecarDriver | undefined;
  afterEach(async () => {
    await driver?.dispose();
    driver = undefined;
  });

  it('has a v1 manifest with an absolute, executable command and only the ui capability', () => {
    const m = readManifest(ROOT);
    assert.equal((m as unknown as { apiVersion: string }).apiVersion, 'reasonix.io/plugin/v1');
    assert.deepEqual(m.runtime.capabilities, ['ui']);
    const cmd = expandedCommand(ROOT, m);
    assert.ok(path.isAbsolute(cmd));
    accessSync(cmd, constants.X_OK);
  });

  it('handshakes, publishes one status after initialized, answers its action, and exits 0 on shutdown', async () => {
    const d = (driver = new SidecarDriver(ROOT));
    const params = d.initializeParams({ workspaceRoot: '/projects/demo', generation: 7 });
    const r = await d.call('extension/initialize', params);
    const v = V1.validateResult('extension/initialize', r);
    assert.ok(v.ok, v.ok ? '' : v.message);
    assert.deepEqual(r.uiActions, [{ actionId: 'say-hello', label: 'Say hello' }]);
    assert.equal(d.publishes().length, 0);

    d.notify('extension/initialized', {});
    const status = await d.waitFor((f) => f.method === 'host/ui/publish', 'status publish');
    assert.equal(typeof status.id, 'number');
    const p = V1.validateParams<{ kind: 'status'; payload: unknown; generation: number; sessionId: string }>(
      'host/ui/publish',
      status.params,
    );
    assert.ok(p.ok, p.ok ? '' : p.message);
    assert.equal(p.value.kind, 'status');
    assert.equal(p.value.generation, 7);
    assert.equal(p.value.sessionId, 'session-1');
    decodePublishPayload('status', p.value.payload);

    const action = await d.call('extension/ui/action', {
      actionId: 'say-hello',
      sessionId: 'session-1',
      generation: 7,
    });
    assert.ok(V1.validateResult('extension/ui/action', action).ok);
    assert.deepEqual(action, { accepted: true, message: 'Hello from demo!' });

    const s = await d.shutdown();
    assert.deepEqual(s.result, { accepted: true });
    assert.equal(s.code, 0);
    assert.deepEqual(d.garbage, []);
  });

  it('answers unknown methods -32601 with unknown_method data, and early calls with protocol_error', async () => {
    const d = (driver = new SidecarDriver(ROOT));
    const early = await d.request('extension/ui/action', {
      actionId: 'say-hello',
      sessionId: 'session-1',
      generation: 3,
    });
    assert.equal(early.error?.code, -32600);
    assert.equal(early.error?.data?.reason, 'protocol_error');
    const unknown = await d.request('extension/provider/catalog', {});
    assert.equal(unknown.error?.code, -32601);
    assert.deepEqual(unknown.error?.data, { reason: 'unknown_method', retryable: false });
  });

  it('exits 0 when stdin closes', async () => {
    const d = (driver = new SidecarDriver(ROOT));
    await d.ready();
    d.child.stdin.end();
    assert.equal((await d.exited).code, 0);
  });
});
