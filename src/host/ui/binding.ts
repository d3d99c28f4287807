// A UI binding's lifecycle (one plugin's sidecar bound to the hub for one session and generation)
// as a union and one table (src/host/states.ts). It used to be implied by a `crashed` flag, an
// optional `staged` member and whether `life` had aborted, which allowed combinations nothing
// meant (staged and live at once, crashed with prompts still asked).
import { transition, type TransitionTable } from '../states';

/** What a staged binding holds until its build is published (HOST_SPEC_V2 §2.4). */
export interface Staged<H> {
  /** What its UI calls get meanwhile: the stale answer, or held and shown at commit. */
  readonly policy: 'stale' | 'hold';
  /** Publishes accepted while staged, by surface id (last one wins), shown at commit. */
  readonly held: Map<string, H>;
  /** Settles at commit: held prompts go ahead. */
  readonly committed: Promise<void>;
  commit(): void;
}

/**
 * staged: bound beside the current binding until its build is published; staged-crashed: its
 * sidecar crashed before that (what it published is kept, shown stale if the build is published);
 * live: the session's; crashed: its sidecar crashed; stopped: it stopped in an orderly way;
 * retired: replaced or forgotten, nothing reaches it any more.
 */
export type BindingState<H> =
  | ({ readonly kind: 'staged' } & Staged<H>)
  | ({ readonly kind: 'staged-crashed' } & Staged<H>)
  | { readonly kind: 'live' }
  | { readonly kind: 'crashed' }
  | { readonly kind: 'stopped' }
  | { readonly kind: 'retired' };
export type BindingKind = BindingState<unknown>['kind'];

/**
 * commit: its build was published; crash / stop: its sidecar crashed or stopped; retire: a newer
 * binding took its place, its staged build failed, or the plugin was unbound.
 */
export type BindingEvent = 'commit' | 'crash' | 'stop' | 'retire';

// A crash is reported twice (the state change, then the crash record after the reap) and a
// crashed sidecar's stop leaves it crashed; retired is the end.
export const BINDING_TABLE: TransitionTable<BindingKind, BindingEvent> = {
  staged: { commit: 'live', crash: 'staged-crashed', stop: 'retired', retire: 'retired' },
  'staged-crashed': { commit: 'crashed', crash: 'staged-crashed', stop: 'retired', retire: 'retired' },
  live: { crash: 'crashed', stop: 'stopped', retire: 'retired' },
  crashed: { crash: 'crashed', stop: 'crashed', retire: 'retired' },
  stopped: { crash: 'crashed', stop: 'stopped', retire: 'retired' },
  retired: {},
};

/** Staged or live: its prompts may still be asked. */
export function isLive(s: BindingState<unknown>): boolean {
  return s.kind === 'staged' || s.kind === 'live';
}

/** What a staged binding (crashed or not) holds; undefined once it is not staged. */
export function stagedState<H>(s: BindingState<H>): Staged<H> | undefined {
  return s.kind === 'staged' || s.kind === 'staged-crashed' ? s : undefined;
}

export function nextBindingState<H>(from: BindingState<H>, event: BindingEvent, pluginId: string): BindingState<H> {
  const kind = transition(`UI binding of ${pluginId}`, BINDING_TABLE, from.kind, event);
  if (kind === from.kind) return from;
  const staged = stagedState(from);
  if (kind === 'staged-crashed' && staged) return { ...staged, kind };
  return { kind } as BindingState<H>;
}
