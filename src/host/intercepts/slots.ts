// Strategy-slot ownership (HOST_SPEC §4.5): exactly one owner per slot across all plugins. Two
// owners would make the owner depend on startup order, so this one check runs where a runtime
// generation is built (refusing it before anything spawns: the message the user sees) and again
// where a dispatcher is built over the live clients.
import type { RuntimeBlock } from '../plugins';

/** Whatever claims slots: an intercept client, or a plugin spec seen as `{ pluginId: id, runtime }`. */
export interface SlotHolder {
  readonly pluginId: string;
  readonly runtime: Pick<RuntimeBlock, 'replaces'>;
}

export type SlotCheck =
  | { ok: true; /** slot → owning plugin id */ owners: ReadonlyMap<string, string> }
  | { ok: false; message: string; slot: string; plugins: [string, string] };

const byPluginId = (a: SlotHolder, b: SlotHolder): number =>
  a.pluginId < b.pluginId ? -1 : a.pluginId > b.pluginId ? 1 : 0;

/**
 * Maps every claimed slot to its owner; a slot claimed by two plugins fails with a sentence naming
 * the slot, both plugins and what to do. Holders are judged in plugin-id order, so the same set
 * names the same pair whatever order it arrives in.
 */
export function validateSlots(holders: readonly SlotHolder[]): SlotCheck {
  const owners = new Map<string, string>();
  for (const h of [...holders].sort(byPluginId)) {
    for (const slot of new Set(h.runtime.replaces)) {
      const prior = owners.get(slot);
      if (prior !== undefined && prior !== h.pluginId) {
        return {
          ok: false,
          slot,
          plugins: [prior, h.pluginId],
          message: `strategy slot "${slot}" is replaced by both "${prior}" and "${h.pluginId}"; disable one of them`,
        };
      }
      owners.set(slot, h.pluginId);
    }
  }
  return { ok: true, owners };
}

/** Raised when a dispatcher is built over clients whose slots collide. */
export class SlotCollisionError extends Error {
  constructor(
    message: string,
    readonly slot: string,
    readonly plugins: [string, string],
  ) {
    super(message);
    this.name = 'SlotCollisionError';
  }
}
