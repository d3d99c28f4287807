// The surfaces every session's UI hub stores, keyed by (sessionKey, pluginId, surfaceId), with
// change events for the front ends (snapshot, then deltas). Notifications are transient: only a
// small bounded list of recent ones is kept.
import { surfaceKey, type Surface, type SurfaceChange, type SurfaceOrigin, type SurfacePayload } from '../../protocol';
import { Emitter, type Disposable } from '../emitter';
import type { SurfaceFeed } from './ports';

export type NotificationSurface = Surface & { kind: 'notification' };

export interface SurfaceStoreOptions {
  /** Recent notifications kept (default 20). */
  maxNotifications?: number;
  now?: () => number;
}

export class SurfaceStore implements SurfaceFeed {
  private readonly surfaces = new Map<string, Surface>();
  private readonly recent: NotificationSurface[] = [];
  /** A broken front end cannot break the hub or the other front ends: the emitter isolates listeners. */
  private readonly changes = new Emitter<SurfaceChange>();
  private revision = 0;
  private readonly maxNotifications: number;
  private readonly now: () => number;

  constructor(opts: SurfaceStoreOptions = {}) {
    this.maxNotifications = opts.maxNotifications ?? 20;
    this.now = opts.now ?? Date.now;
  }

  /** Inserts or replaces (in place, bumping `revision`) a status, card or form surface. */
  upsert(origin: SurfaceOrigin, surfaceId: string, content: SurfacePayload): Surface {
    const revision = ++this.revision;
    const first = this.surfaces.get(surfaceKey({ ...origin, surfaceId }))?.firstRevision ?? revision;
    const surface = {
      ...origin,
      ...content,
      surfaceId,
      revision,
      firstRevision: first,
      updatedAt: this.now(),
      stale: false,
    } as Surface;
    if (surface.kind === 'notification') return this.addNotification(surface as NotificationSurface);
    this.surfaces.set(surfaceKey(surface), surface);
    this.changes.fire({ type: 'upsert', surface });
    return surface;
  }

  get(sessionKey: string, pluginId: string, surfaceId: string): Surface | undefined {
    return this.surfaces.get(surfaceKey({ sessionKey, pluginId, surfaceId }));
  }

  /** The surface stored under `key` (a `surfaceKey`), as a front end names it. */
  byKey(key: string): Surface | undefined {
    return this.surfaces.get(key);
  }

  /** Marks every surface of the plugin in the session stale (it stopped or crashed). */
  markPluginStale(sessionKey: string, pluginId: string): void {
    for (const [key, s] of this.surfaces) {
      if (s.sessionKey !== sessionKey || s.pluginId !== pluginId || s.stale) continue;
      const next = { ...s, stale: true, revision: ++this.revision, updatedAt: this.now() };
      this.surfaces.set(key, next);
      this.changes.fire({ type: 'upsert', surface: next });
    }
  }

  /** Removes the plugin's stale surfaces in the session (its next generation starts afresh). */
  clearStale(sessionKey: string, pluginId: string): void {
    for (const [key, s] of [...this.surfaces]) {
      if (s.sessionKey !== sessionKey || s.pluginId !== pluginId || !s.stale) continue;
      this.surfaces.delete(key);
      this.changes.fire({ type: 'remove', key });
    }
  }

  /** Drops everything a session stored (its folder closed). */
  removeSession(sessionKey: string): void {
    for (const [key, s] of [...this.surfaces]) {
      if (s.sessionKey !== sessionKey) continue;
      this.surfaces.delete(key);
      this.changes.fire({ type: 'remove', key });
    }
  }

  clear(): void {
    this.surfaces.clear();
    this.recent.length = 0;
    this.changes.fire({ type: 'reset' });
  }

  /** Stored surfaces, newest first. */
  snapshot(): Surface[] {
    return [...this.surfaces.values()].sort((a, b) => b.revision - a.revision);
  }

  /** Recent notifications, oldest first. */
  notifications(): readonly NotificationSurface[] {
    return [...this.recent];
  }

  onDidChange(listener: (change: SurfaceChange) => void): Disposable {
    return this.changes.event(listener);
  }

  private addNotification(n: NotificationSurface): NotificationSurface {
    this.recent.push(n);
    if (this.recent.length > this.maxNotifications) this.recent.splice(0, this.recent.length - this.maxNotifications);
    return n;
  }
}
