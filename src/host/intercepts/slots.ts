// Strategy-slot ownership (HOST_SPEC §4.5): exactly one owner per slot across all plugins.
import type { InterceptClient } from './client';

type SlotHolder = Pick<InterceptClient, 'pluginId' | 'runtime'>;

export type SlotCheck =
  | { ok: true; /** slot → owning plugin id */ owners: ReadonlyMap<string, string> }
  | { ok: false; message: string; slot: string; plugins: [string, string] };

/** Maps every claimed slot to its owner; a slot claimed by two plugins fails naming both. */
export function validateSlots(clients: readonly SlotHolder[]): SlotCheck {
  const owners = new Map<string, string>();
  for (const c of clients) {
    for (const slot of new Set(c.runtime.replaces)) {
      const prior = owners.get(slot);
      if (prior !== undefined && prior !== c.pluginId) {
        return { ok: false, slot, plugins: [prior, c.pluginId], message: `strategy slot '${slot}' is claimed by both '${prior}' and '${c.pluginId}'` };
      }
      owners.set(slot, c.pluginId);
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
