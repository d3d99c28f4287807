// A clock a test moves by hand (FolderClock): `every` callbacks run as `advance` passes their time.
import type { FolderClock } from '../../src/host/folders';

export function manualClock() {
  let now = 0;
  const timers: { ms: number; next: number; fn: () => void; on: boolean }[] = [];
  const clock: FolderClock = {
    now: () => now,
    every: (ms, fn) => {
      const t = { ms, next: now + ms, fn, on: true };
      timers.push(t);
      return { dispose: () => (t.on = false) };
    },
  };
  return {
    clock,
    /** Timers ever started (disposed ones included). */
    timers,
    advance(ms: number): void {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.on && t.next <= end).sort((a, b) => a.next - b.next)[0];
        if (!due) break;
        now = due.next;
        due.next += due.ms;
        due.fn();
      }
      now = end;
    },
  };
}
