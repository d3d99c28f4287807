// What one plugin may make the host hold in surfaces (issue 12 §4): at most `maxSurfaces` live
// surfaces (everything but notifications) and `maxBytes` of payload per plugin and session. Past
// either, the publish is refused with an error and nothing is stored; replacing a surface in place
// only counts the difference. A surface weighs the bytes of the frame that carried it: the
// connection read them, so no payload is serialised again to be measured (the envelope around the
// payload is a few hundred bytes against a 16 MiB budget). The budget follows the store (a
// removed or reset surface gives its room back), so the hub only asks `admit` before it upserts.
import { ProtocolError, surfaceKey, surfaceOwner } from '../../protocol';
import type { Disposable } from '../emitter';
import type { SurfaceStore } from './store';

export const MAX_SURFACES_PER_PLUGIN = 256;
export const MAX_SURFACE_BYTES_PER_PLUGIN = 16 * 1024 * 1024;

export interface SurfaceLimits {
  maxSurfaces?: number;
  maxBytes?: number;
}

interface Held {
  owner: string;
  bytes: number;
}

interface Usage {
  surfaces: number;
  bytes: number;
}

export class SurfaceBudget {
  private readonly held = new Map<string, Held>();
  private readonly usage = new Map<string, Usage>();
  private readonly maxSurfaces: number;
  private readonly maxBytes: number;
  private readonly sub: Disposable;

  constructor(store: SurfaceStore, limits: SurfaceLimits = {}) {
    this.maxSurfaces = limits.maxSurfaces ?? MAX_SURFACES_PER_PLUGIN;
    this.maxBytes = limits.maxBytes ?? MAX_SURFACE_BYTES_PER_PLUGIN;
    this.sub = store.onDidChange((change) => {
      if (change.type === 'remove') this.release(change.key);
      else if (change.type === 'reset') {
        this.held.clear();
        this.usage.clear();
      }
    });
  }

  /**
   * Reserves `bytes` (the publish's frame) as surface `surfaceId` of the plugin, or throws
   * `invalid_params` naming the limit. Call right before the store upsert.
   */
  admit(sessionKey: string, pluginId: string, surfaceId: string, bytes: number): void {
    const key = surfaceKey({ sessionKey, pluginId, surfaceId });
    const owner = surfaceOwner({ sessionKey, pluginId });
    const use = this.usage.get(owner) ?? { surfaces: 0, bytes: 0 };
    const old = this.held.get(key);
    const surfaces = use.surfaces + (old ? 0 : 1);
    const total = use.bytes - (old?.bytes ?? 0) + bytes;
    if (surfaces > this.maxSurfaces) {
      throw new ProtocolError(
        'invalid_params',
        `surface limit: plugin ${pluginId} already shows ${use.surfaces} surfaces, the most one plugin may (${this.maxSurfaces}); update existing surface ids instead of adding new ones`,
      );
    }
    if (total > this.maxBytes) {
      throw new ProtocolError(
        'invalid_params',
        `surface limit: plugin ${pluginId}'s surfaces would hold ${mib(total)} of payload, over the ${mib(this.maxBytes)} one plugin may; publish smaller payloads`,
      );
    }
    this.held.set(key, { owner, bytes });
    this.usage.set(owner, { surfaces, bytes: total });
  }

  dispose(): void {
    this.sub.dispose();
  }

  private release(key: string): void {
    const h = this.held.get(key);
    if (!h) return;
    this.held.delete(key);
    const use = this.usage.get(h.owner);
    if (!use) return;
    if (use.surfaces <= 1) this.usage.delete(h.owner);
    else this.usage.set(h.owner, { surfaces: use.surfaces - 1, bytes: use.bytes - h.bytes });
  }
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
