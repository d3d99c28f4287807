// Debug Extension… (issue 42), the engine part: the debug start of a sidecar as data
// (src/host/authoring/debugPlan.ts) and a start under a debugger, with real processes. Node's own
// `--inspect-brk` holds the fixture sidecar (v1 and v2) at its first line for longer than the
// handshake budget and Node's own command-line debugger (`node inspect host:port`) attaches and
// continues it: it comes up, the budget suspended; the same held start without the debugging mode
// fails on the budget, so the budget applies again once debugging ends.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { debugPlan, freePort, waitForListener } from '../../../src/host/authoring';
import { startGeneration } from '../../../src/host/generations';
import { Sidecar, SidecarFailure, type DebugLaunch } from '../../../src/host/sidecar';
import type { PluginSpec } from '../../../src/host/plugins/types';
import { scriptPlugin } from '../../support/plugins';
import { FAST, FIXTURES, SESSION, useFleet } from '../sidecar/fixtures';

const SCRIPT = path.join(FIXTURES, 'well-behaved.js');
// Long enough for a normal start of the fixture on a busy machine, short enough to wait past.
const BUDGET = 2_000;

function fixture(protocol: 1 | 2, args: string[] = []): PluginSpec {
  const plugin = scriptPlugin(`held-v${protocol}`, SCRIPT, {
    root: FIXTURES,
    protocol,
    runtime: { env: protocol === 2 ? { FIX_RESULT_PATCH: JSON.stringify({ protocolVersion: '2' }) } : {} },
  });
  // Extra interpreter switches before the script (the "normal" start held by --inspect-brk).
  return { ...plugin, runtime: { ...plugin.runtime, args: [...args, SCRIPT] } };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Node's command-line debugger attached to `port`, told to continue; killed by `done()`. */
function attachAndContinue(port: number): { client: ChildProcess; done: () => void; said: () => string } {
  const client = spawn(process.execPath, ['inspect', `127.0.0.1:${port}`], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  const collect = (b: Buffer) => (out += b.toString());
  client.stdout!.on('data', collect);
  client.stderr!.on('data', collect);
  // Once it says "Break on start" (the sidecar held at its first line), continue it; again until
  // the test is done, in case the first one raced the debugger's own start.
  const timer = setInterval(() => {
    if (/Break on start/.test(out)) client.stdin!.write('cont\n');
  }, 200);
  return {
    client,
    done: () => {
      clearInterval(timer);
      client.kill('SIGKILL');
    },
    said: () => out,
  };
}

describe('authoring: Debug Extension… (engine)', function () {
  this.timeout(30000);
  const { fleet } = useFleet();

  describe('debugPlan', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'rx-debugplan-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    const script = (name: string, text: string) => {
      const f = path.join(dir, name);
      writeFileSync(f, Buffer.from(text, 'latin1'));
      chmodSync(f, 0o755);
      return f;
    };

    it('Node named as the command: --inspect-brk on a loopback port before the arguments', () => {
      const plan = debugPlan('/usr/bin/node', ['/x/sidecar.js', '--v'], 9229);
      assert.ok(plan.ok);
      assert.equal(plan.runtime, 'node');
      assert.deepEqual(plan.launch, {
        command: '/usr/bin/node',
        args: ['--inspect-brk=127.0.0.1:9229', '/x/sidecar.js', '--v'],
      });
      assert.deepEqual(plan.attach, { host: '127.0.0.1', port: 9229 });
    });

    it('a script whose #! line names Node or Python runs through that interpreter, switches first', () => {
      const js = script('sidecar.js', '#!/usr/bin/env node\nprocess.exit(0)\n');
      const node = debugPlan(js, ['a'], 1234);
      assert.ok(node.ok && node.runtime === 'node');
      assert.deepEqual(node.launch, {
        command: '/usr/bin/env',
        args: ['node', '--inspect-brk=127.0.0.1:1234', js, 'a'],
      });
      const py = script('sidecar.py', '#!/usr/bin/python3 -u\nprint()\n');
      const python = debugPlan(py, [], 1235);
      assert.ok(python.ok && python.runtime === 'python');
      assert.deepEqual(python.launch, {
        command: '/usr/bin/python3',
        args: ['-u', '-m', 'debugpy', '--listen', '127.0.0.1:1235', '--wait-for-client', py],
      });
      assert.deepEqual(python.probe, { command: '/usr/bin/python3', args: ['-u', '-c', 'import debugpy'] });
      assert.match(python.install, /debugpy/);
    });

    it('a Go binary runs under dlv exec --headless (its listening line on stderr), or names Delve when it is missing', () => {
      const bin = script('sidecar', `\x7fELF...\xff Go buildinf:\x08\x02...`);
      const without = debugPlan(bin, [], 4000);
      assert.equal(without.ok, false);
      assert.ok(!without.ok && without.runtime === 'go');
      assert.match(
        !without.ok ? without.message : '',
        /sidecar is a Go program: debugging it needs Delve on PATH \(go install/,
      );
      const plan = debugPlan(bin, ['x'], 4000, '/opt/go/bin/dlv');
      assert.ok(plan.ok && plan.runtime === 'go');
      assert.deepEqual(plan.launch, {
        command: '/opt/go/bin/dlv',
        args: ['exec', bin, '--headless', '--listen=127.0.0.1:4000', '--api-version=2', '--log-dest=2', '--', 'x'],
      });
    });

    it('anything else is refused with a sentence naming the program', () => {
      const sh = script('run.rb', '#!/usr/bin/env ruby\n');
      const plan = debugPlan(sh, [], 1);
      assert.equal(plan.ok, false);
      assert.match(
        !plan.ok ? plan.message : '',
        /^run\.rb is not a Node or Python program .* nor a Go binary, so no debugger is known for it$/,
      );
    });
  });

  for (const protocol of [1, 2] as const) {
    it(`v${protocol}: held by --inspect-brk past the handshake budget, it comes up when a debugger continues it; without the debugging mode the budget applies again`, async () => {
      const port = await freePort();
      const plugin = fixture(protocol);
      const plan = debugPlan(process.execPath, plugin.runtime.args, port);
      assert.ok(plan.ok && plan.runtime === 'node');
      let debugging: DebugLaunch | undefined = plan.launch;
      const s = fleet.make({ plugin, timeouts: { ...FAST, handshakeMs: BUDGET }, debugLaunch: () => debugging });
      const started = s.start();
      started.catch(() => undefined);
      assert.ok(await waitForListener(port, 10_000), 'the inspector listens');
      await sleep(BUDGET * 2);
      assert.equal(s.state, 'starting', 'held at its first line, past the budget, the start has not failed');
      assert.equal(s.debugging, true);
      const dbg = attachAndContinue(port);
      try {
        await Promise.race([
          started,
          sleep(15_000).then(() =>
            assert.fail(`not continued; the debugger said: ${dbg.said()}; stderr: ${s.stderrTail()}`),
          ),
        ]);
      } finally {
        dbg.done();
      }
      assert.equal(s.state, 'running');
      assert.equal(s.initializeResult?.protocolVersion, String(protocol));

      // Debugging ends: the next start is the normal one, under the budget. Held the same way
      // (the interpreter told to wait for a debugger that never comes), it now fails on the budget.
      debugging = undefined;
      const heldPort = await freePort();
      const held = fleet.make({
        plugin: fixture(protocol, [`--inspect-brk=127.0.0.1:${heldPort}`]),
        timeouts: { ...FAST, handshakeMs: BUDGET },
        debugLaunch: () => debugging,
      });
      const err = await held.start().then(
        () => assert.fail('a held start without the debugging mode must fail'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof SidecarFailure);
      assert.equal(held.debugging, false);
      assert.match(err.info.message, /did not answer extension\/initialize within 2 s, counted from spawn/);
      await s.restart();
      assert.equal(s.debugging, false, 'a restart after debugging is a normal start');
      assert.equal(s.state, 'running');
    });
  }

  it('a runtime generation waits for a sidecar held by a debugger past its launch budget', async () => {
    const port = await freePort();
    const plugin = fixture(2);
    const plan = debugPlan(process.execPath, plugin.runtime.args, port);
    assert.ok(plan.ok);
    const made: Sidecar[] = [];
    const building = startGeneration({
      plugins: [{ ...plugin, runtime: { ...plugin.runtime, required: true } }],
      session: SESSION,
      uiHost: 'desktop',
      timeouts: { ...FAST, handshakeMs: BUDGET },
      budgetMs: BUDGET,
      sidecarFactory: (o) => {
        const s = fleet.make({ ...o, debugLaunch: () => plan.launch });
        made.push(s);
        return s;
      },
    });
    assert.ok(await waitForListener(port, 10_000), 'the inspector listens');
    await sleep(BUDGET * 2);
    assert.equal(made[0]?.state, 'starting');
    const dbg = attachAndContinue(port);
    try {
      const gen = await building;
      assert.deepEqual(gen.failures, []);
      assert.equal(made[0].state, 'running');
      await gen.stop();
    } finally {
      dbg.done();
    }
  });
});
