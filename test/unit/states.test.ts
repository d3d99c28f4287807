// Lifecycles as data (issue 39): each lifecycle's table refuses every move it does not list, the
// engine moves only through it, and a real sidecar's walk (v1 and v2) stays inside its table.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { IllegalTransition, transition, type TransitionTable } from '../../src/host/states';
import { SIDECAR_TABLE, type SidecarState } from '../../src/host/sidecar/lifecycle';
import { CONNECTION_TABLE, READING_TABLE, nextReadingState, IDLE } from '../../src/host/wire/lifecycle';
import { BINDING_TABLE, nextBindingState, stagedState, type BindingState } from '../../src/host/ui/binding';
import { ValidatedConnection } from '../../src/host/wire';
import { V2 } from '../../src/protocol';
import { FIXTURES, useFleet } from './sidecar/fixtures';
import { scriptPlugin } from '../support/plugins';
import { waitFor } from '../support/wait';

/** Every (state, event) pair of a table's vocabulary that the table does not list. */
function illegalMoves<S extends string, E extends string>(
  table: TransitionTable<S, E>,
  events: readonly E[],
): [S, E][] {
  return (Object.keys(table) as S[]).flatMap((s) =>
    events.filter((e) => !(e in table[s])).map((e) => [s, e] as [S, E]),
  );
}

const SIDECAR_STATES = Object.keys(SIDECAR_TABLE) as SidecarState[];

const LIFECYCLES = [
  { name: 'sidecar', table: SIDECAR_TABLE, events: SIDECAR_STATES },
  { name: 'connection', table: CONNECTION_TABLE, events: ['ready', 'shutdown', 'end'] },
  { name: 'connection reading', table: READING_TABLE, events: ['drain', 'pause', 'endPending', 'drained'] },
  { name: 'UI binding', table: BINDING_TABLE, events: ['commit', 'crash', 'stop', 'retire'] },
] as const;

describe('lifecycles: each table refuses what it does not list', () => {
  for (const { name, table, events } of LIFECYCLES) {
    it(`${name}: every unlisted move throws IllegalTransition naming the lifecycle, the state and the event`, () => {
      const t = table as TransitionTable<string, string>;
      const illegal = illegalMoves(t, events as readonly string[]);
      assert.ok(illegal.length > 0, `${name} refuses something`);
      for (const [from, event] of illegal) {
        assert.throws(
          () => transition(name, t, from, event),
          (err: unknown) =>
            err instanceof IllegalTransition && err.lifecycle === name && err.from === from && err.event === event,
          `${name}: ${from} --${event}--> should be refused`,
        );
      }
    });

    it(`${name}: every listed move leads to a state of the same table`, () => {
      const t = table as TransitionTable<string, string>;
      for (const from of Object.keys(t))
        for (const event of events as readonly string[]) {
          const to = t[from][event];
          if (to !== undefined) assert.ok(to in t, `${name}: ${from} --${event}--> ${to} is no state`);
        }
    });
  }

  it('the impossible combinations the flags allowed are refused', () => {
    const refused: [string, TransitionTable<string, string>, string, string][] = [
      // A sidecar runs only after a start, and only a running one crashes or is shut down.
      ['sidecar', SIDECAR_TABLE, 'idle', 'running'],
      ['sidecar', SIDECAR_TABLE, 'stopped', 'running'],
      ['sidecar', SIDECAR_TABLE, 'stopping', 'crashed'],
      ['sidecar', SIDECAR_TABLE, 'starting', 'stopping'],
      ['sidecar', SIDECAR_TABLE, 'crashed', 'stopping'],
      // The barrier does not reopen during shutdown, and shutdown needs an open barrier.
      ['connection', CONNECTION_TABLE, 'closing', 'ready'],
      ['connection', CONNECTION_TABLE, 'handshake', 'shutdown'],
      // The reader is paused only while frames wait; an end waits only behind frames.
      ['connection reading', READING_TABLE, 'idle', 'pause'],
      ['connection reading', READING_TABLE, 'idle', 'endPending'],
      ['connection reading', READING_TABLE, 'idle', 'drained'],
      // A binding is committed once, from staged; nothing reaches a retired one.
      ['UI binding', BINDING_TABLE, 'live', 'commit'],
      ['UI binding', BINDING_TABLE, 'crashed', 'commit'],
      ['UI binding', BINDING_TABLE, 'retired', 'crash'],
      ['UI binding', BINDING_TABLE, 'retired', 'retire'],
    ];
    for (const [name, table, from, event] of refused)
      assert.throws(() => transition(name, table, from, event), IllegalTransition, `${name}: ${from} --${event}-->`);
  });
});

describe('lifecycles: the states carry what belongs to them', () => {
  it('a staged binding that crashes keeps what it held; committed, it is crashed and holds nothing', () => {
    let committed = false;
    const staged: BindingState<string> = {
      kind: 'staged',
      policy: 'hold',
      held: new Map([['s1', 'card']]),
      committed: Promise.resolve(),
      commit: () => (committed = true),
    };
    const crashed = nextBindingState(staged, 'crash', 'p');
    assert.equal(crashed.kind, 'staged-crashed');
    assert.deepEqual([...(stagedState(crashed)?.held ?? [])], [['s1', 'card']]);
    stagedState(crashed)?.commit();
    assert.ok(committed);
    const after = nextBindingState(crashed, 'commit', 'p');
    assert.equal(after.kind, 'crashed');
    assert.equal(stagedState(after), undefined);
    assert.throws(
      () => nextBindingState(after, 'commit', 'p'),
      /UI binding of p: "commit" is not a move from "crashed"/,
    );
  });

  it('an end waiting behind frames is kept (the first one) until they are judged', () => {
    const first = { reason: 'provider_interrupted' as const, message: 'closed', local: false };
    const second = { reason: 'internal' as const, message: 'later', local: false };
    let r = nextReadingState(IDLE, 'drain');
    r = nextReadingState(r, 'pause');
    r = nextReadingState(r, 'endPending', first);
    r = nextReadingState(r, 'endPending', second);
    assert.deepEqual(r, { kind: 'paused', endAfter: first });
    assert.equal(nextReadingState(r, 'drained'), IDLE);
  });
});

describe('lifecycles: a connection moves only through its table', () => {
  function connection(): ValidatedConnection {
    return new ValidatedConnection({
      contract: V2,
      input: new PassThrough(),
      output: new PassThrough(),
      handlers: { handler: () => undefined },
    });
  }

  it('refuses shutdown before the barrier opened, and reopening the barrier during shutdown', () => {
    const early = connection();
    assert.throws(() => early.beginShutdown(), /connection: "shutdown" is not a move from "handshake"/);
    early.dispose();
    const closing = connection();
    closing.markReady();
    closing.markReady(); // the handshake opens it twice: at the result, then before initialized
    closing.beginShutdown();
    assert.throws(() => closing.markReady(), /connection: "ready" is not a move from "closing"/);
    closing.dispose();
  });

  it('stays ended, with the first end, whatever is asked of it afterwards', () => {
    const c = connection();
    c.markReady();
    c.dispose('first');
    c.dispose('second');
    c.beginShutdown();
    c.markReady();
    assert.equal(c.ended?.message, 'first');
    assert.equal(c.ended?.local, true);
  });
});

describe('lifecycles: a real sidecar walks only through its table (v1 and v2)', function () {
  this.timeout(30000);
  const rig = useFleet();

  for (const protocol of [1, 2] as const) {
    it(`protocol v${protocol}: start, stop, start, crash, restart, stop`, async () => {
      const plugin = scriptPlugin(`walk-v${protocol}`, path.join(FIXTURES, 'well-behaved.js'), {
        root: FIXTURES,
        protocol,
        runtime: {
          env: {
            FIX_RESULT_PATCH: JSON.stringify({ protocolVersion: String(protocol) }),
            FIX_CRASH_AFTER_MS: '1000',
          },
        },
      });
      const s = rig.fleet.make({ plugin });
      const moves: string[] = [];
      s.onStateChange((state, previous) => {
        assert.doesNotThrow(() => transition('sidecar', SIDECAR_TABLE, previous, state));
        moves.push(`${previous}>${state}`);
      });
      await s.start();
      await s.stop();
      await s.start();
      await waitFor(() => s.state === 'crashed', { timeoutMs: 10000, what: 'the crash after 1 s' });
      await s.restart();
      await s.stop();
      assert.deepEqual(moves, [
        'idle>starting',
        'starting>running',
        'running>stopping',
        'stopping>stopped',
        'stopped>starting',
        'starting>running',
        'running>crashed',
        'crashed>starting',
        'starting>running',
        'running>stopping',
        'stopping>stopped',
      ]);
    });
  }
});
