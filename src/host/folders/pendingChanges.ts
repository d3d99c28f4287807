// File changes in a folder whose extensions have not started yet: kept (de-duplicated, bounded)
// so that the first `extension/resources/changed` after the start carries what changed since the
// window opened (HOST_SPEC §8, our policy). Past the bound the newest paths are not kept and the
// count of those left out is reported, never silently.

/** Distinct paths kept per folder before its extensions start. */
export const MAX_PENDING_PATHS = 10_000;

export class PendingChanges {
  private readonly paths = new Set<string>();
  private dropped = 0;

  constructor(private readonly max = MAX_PENDING_PATHS) {}

  add(paths: readonly string[]): void {
    for (const p of paths) {
      if (this.paths.has(p)) continue;
      if (this.paths.size >= this.max) this.dropped++;
      else this.paths.add(p);
    }
  }

  get size(): number {
    return this.paths.size;
  }

  /** Everything kept, and how many distinct changes past the bound were left out; empties the record. */
  take(): { paths: string[]; dropped: number } {
    const out = { paths: [...this.paths], dropped: this.dropped };
    this.paths.clear();
    this.dropped = 0;
    return out;
  }
}
