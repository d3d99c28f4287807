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

export interface PluginRecord {
  readonly sidecar: Sidecar;
  readonly streams: StreamHub;
  readonly tools: ToolClient;
  readonly caller: ToolCaller;
  /**
   * The actions it declared when it last ran (or, until it first runs, those of the record it
   * replaced), listed while it is not running.
   */
  actions: readonly UIActionDecl[];
  /** Its last crash since it last ran; cleared when it runs again. */
  crash?: FailureInfo;
  /** Its UI binding, its crash and state listeners. */
  readonly subscriptions: readonly Disposable[];
}

/**
 * The records of one session, keyed by their sidecar (the one key: a plugin id may have two
 * sidecars at once while a reload builds its next generation). Insertion order is wiring order, so
 * the last record of an id is its newest sidecar. A record leaves only through `drop`, which
 * disposes it: its stream hub and its subscriptions.
 */
export class PluginRecords extends Map<Sidecar, PluginRecord> {
  /** The newest record of a plugin. */
  newest(pluginId: string): PluginRecord | undefined {
    let found: PluginRecord | undefined;
    for (const r of this.values()) if (r.sidecar.pluginId === pluginId) found = r;
    return found;
  }

  /** Disposes and forgets every record `pick` picks. */
  drop(pick: (r: PluginRecord) => boolean): void {
    for (const r of [...this.values()]) {
      if (!pick(r)) continue;
      this.delete(r.sidecar);
      r.streams.dispose();
      for (const s of r.subscriptions) s.dispose();
    }
  }

  /**
   * Keeps the records of `live` sidecars (the published generation's) and, of the others, each
   * plugin's newest: what a build that failed or was replaced left behind is let go of, so records
   * never outnumber two per plugin.
   */
  prune(live: ReadonlySet<Sidecar>): void {
    const newest = new Map<string, PluginRecord>();
    for (const r of this.values()) newest.set(r.sidecar.pluginId, r);
    const keep = new Set(newest.values());
    this.drop((r) => !live.has(r.sidecar) && !keep.has(r));
  }
}
