// What the UI hub keeps about one bound plugin: one record, holding its current binding (what its
// surfaces, prompts, actions and submits go to) and, while a build is not yet published, the staged
// binding of that build beside it (HOST_SPEC_V2 §2.4). The record goes when it holds neither, so
// one lookup by plugin id answers every question the gate asks.
import type { SurfacePayload } from '../../protocol';
import type { ActionSet } from './actions';
import { isLive, nextBindingState, type BindingEvent, type BindingState } from './binding';
import type { UiClient } from './ports';

/** A decoded publish and the byte length of the frame that carried it (what the budget counts). */
export interface Shown {
  content: SurfacePayload;
  bytes: number;
}

/** One sidecar's binding to the session's (sessionId, generation). */
export interface Binding {
  pluginId: string;
  sessionId: string;
  generation: number;
  client?: UiClient;
  /** Staged, live, crashed, stopped or retired: moved only by `move` (binding.ts's table). */
  state: BindingState<Shown>;
  /** Aborts prompts of this binding when its connection is gone: aborted on leaving staged or live. */
  life: AbortController;
  actions?: { source: string; set: ActionSet };
  /** The user was told once that this plugin hit its surface limit. */
  overBudgetWarned?: boolean;
}

/** Moves `b` through its lifecycle; its prompts are dropped when it leaves staged and live. */
export function move(b: Binding, event: BindingEvent): void {
  b.state = nextBindingState(b.state, event, b.pluginId);
  if (!isLive(b.state)) b.life.abort();
}

/** One bound plugin: its current binding, and the staged one of a build not yet published. */
export interface PluginBinding {
  current?: Binding;
  staged?: Binding;
}

type Which = keyof PluginBinding;

interface Entry extends PluginBinding {
  /** When each binding of the record was first set since it last had none: the order they are listed in. */
  since: Partial<Record<Which, number>>;
}

/**
 * The hub's records, one per bound plugin id; a record with neither binding is not kept. Current
 * and staged bindings are each listed in the order they were first set (replacing one keeps its
 * place, clearing it gives the place up), the order the hub commits and disposes them in.
 */
export class PluginBindings {
  private readonly records = new Map<string, Entry>();
  private seq = 0;

  current(pluginId: string): Binding | undefined {
    return this.records.get(pluginId)?.current;
  }

  staged(pluginId: string): Binding | undefined {
    return this.records.get(pluginId)?.staged;
  }

  /** Sets (or, with undefined, clears) one of the plugin's two bindings. */
  set(pluginId: string, which: Which, b: Binding | undefined): void {
    const r: Entry = this.records.get(pluginId) ?? { since: {} };
    if (b) {
      if (!r[which]) r.since[which] = ++this.seq;
      r[which] = b;
    } else {
      delete r[which];
      delete r.since[which];
    }
    if (r.current || r.staged) this.records.set(pluginId, r);
    else this.records.delete(pluginId);
  }

  /** Every current binding, in the order they were set. */
  currents(): Binding[] {
    return this.listed('current');
  }

  /** Every staged binding, in the order they were staged. */
  stagedAll(): Binding[] {
    return this.listed('staged');
  }

  /** The plugin ids bound: those with a current binding, then those only staged, each in their order. */
  ids(): string[] {
    const current = this.currents().map((b) => b.pluginId);
    return [
      ...current,
      ...this.stagedAll()
        .map((b) => b.pluginId)
        .filter((id) => !current.includes(id)),
    ];
  }

  private listed(which: Which): Binding[] {
    return [...this.records.values()]
      .filter((r) => r[which])
      .sort((x, y) => (x.since[which] ?? 0) - (y.since[which] ?? 0))
      .map((r) => r[which] as Binding);
  }
}
