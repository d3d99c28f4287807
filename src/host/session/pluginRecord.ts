// What the composition keeps about one sidecar it wired: one record, made when the sidecar is
// created (a restart keeps the sidecar object and so its record; a reload makes new ones), and
// disposed once, when the sidecar leaves the session. Everything per plugin that used to sit in
// maps beside each other (stream hub, last crash, last known actions, tool port and call queue,
// the subscriptions) lives here, so one dispose lets go of all of it.
import type { Disposable } from '../emitter';
import type { FailureInfo, Sidecar } from '../sidecar';
import type { StreamHub } from '../streams';
import type { ToolCaller, ToolClient } from '../tools';
import type { UIActionDecl } from '../../protocol';

export class PluginRecord implements Disposable {
  /** Its last crash since it last ran; cleared when it runs again. */
  crash: FailureInfo | undefined;
  private disposed = false;

  constructor(
    readonly sidecar: Sidecar,
    readonly streams: StreamHub,
    readonly tools: ToolClient,
    readonly caller: ToolCaller,
    /**
     * The actions it declared when it last ran (or, until it first runs, those of the record it
     * replaced), listed while it is not running.
     */
    public actions: readonly UIActionDecl[],
    /** Its UI binding, its crash and state listeners. */
    private readonly subscriptions: readonly Disposable[],
  ) {}

  get pluginId(): string {
    return this.sidecar.pluginId;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.streams.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

/**
 * The records of one session, keyed by their sidecar (the one key: a plugin id may have two
 * sidecars at once while a reload builds its next generation). Insertion order is wiring order, so
 * the last record of an id is its newest sidecar.
 */
export class PluginRecords {
  private readonly bySidecar = new Map<Sidecar, PluginRecord>();

  add(record: PluginRecord): void {
    this.bySidecar.set(record.sidecar, record);
  }

  of(sidecar: Sidecar): PluginRecord | undefined {
    return this.bySidecar.get(sidecar);
  }

  /** The newest record of a plugin. */
  newest(pluginId: string): PluginRecord | undefined {
    let found: PluginRecord | undefined;
    for (const r of this.bySidecar.values()) if (r.pluginId === pluginId) found = r;
    return found;
  }

  /** The record whose tool port this is. */
  ofTools(client: ToolClient): PluginRecord | undefined {
    for (const r of this.bySidecar.values()) if (r.tools === client) return r;
    return undefined;
  }

  /** Disposes and forgets every record `drop` picks. */
  dropWhere(drop: (r: PluginRecord) => boolean): void {
    for (const r of [...this.bySidecar.values()]) {
      if (!drop(r)) continue;
      r.dispose();
      this.bySidecar.delete(r.sidecar);
    }
  }

  /**
   * Keeps the records of `live` sidecars (the published generation's) and, of the others, each
   * plugin's newest: what a build that failed or was replaced left behind is let go of, so records
   * never outnumber two per plugin.
   */
  prune(live: ReadonlySet<Sidecar>): void {
    const newest = new Map<string, PluginRecord>();
    for (const r of this.bySidecar.values()) newest.set(r.pluginId, r);
    const keep = new Set(newest.values());
    this.dropWhere((r) => !live.has(r.sidecar) && !keep.has(r));
  }

  clear(): void {
    this.dropWhere(() => true);
  }
}
