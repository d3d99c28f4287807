// Two plugins owning the same strategy slot would make the owner depend on startup order, so a
// build with a collision is refused before anything spawns (HOST_SPEC §4.5).
import type { PluginSpec } from '../plugins/types';

/** A sentence naming the first colliding slot and both plugins, or undefined. */
export function findSlotCollision(plugins: readonly PluginSpec[]): string | undefined {
  const owners = new Map<string, string>();
  for (const p of [...plugins].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    for (const slot of new Set(p.runtime.replaces)) {
      const owner = owners.get(slot);
      if (owner !== undefined) {
        return `strategy slot "${slot}" is replaced by both "${owner}" and "${p.id}"; disable one of them`;
      }
      owners.set(slot, p.id);
    }
  }
  return undefined;
}
