// Lifecycles as data. Each lifecycle of the engine (a sidecar, its connection, a UI binding) names
// its states as a union and writes its moves once, as a table; the code moves only through
// `transition`, so a combination the table does not have cannot be written, and a move it lacks is
// a bug that throws where it happens instead of leaving a state nobody planned for.

/** For each state, the events it takes and the state each leads to; an event not listed is illegal. */
export type TransitionTable<S extends string, E extends string> = {
  readonly [From in S]: { readonly [Event in E]?: S };
};

/** A move its lifecycle's table does not have: the engine's bug, never the peer's. */
export class IllegalTransition extends Error {
  constructor(
    readonly lifecycle: string,
    readonly from: string,
    readonly event: string,
  ) {
    super(`${lifecycle}: "${event}" is not a move from "${from}"`);
    this.name = 'IllegalTransition';
  }
}

/** The state `event` leads to from `from`; throws IllegalTransition when the table has no such move. */
export function transition<S extends string, E extends string>(
  lifecycle: string,
  table: TransitionTable<S, E>,
  from: S,
  event: E,
): S {
  const to = table[from][event];
  if (to === undefined) throw new IllegalTransition(lifecycle, from, event);
  return to;
}
