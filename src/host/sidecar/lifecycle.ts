// The sidecar's lifecycle as data (src/host/states.ts): its states and the one table of its moves.
import type { TransitionTable } from '../states';

export type SidecarState = 'idle' | 'starting' | 'running' | 'stopping' | 'stopped' | 'crashed' | 'failed';

/**
 * The sidecar's lifecycle, the one place its moves are written (src/host/states.ts): an event is
 * the state entered. A start that fails ends `failed`, and a stop during a start waits for it to
 * fail, then says `stopped`; a crashed, failed or stopped sidecar can start again; only a running
 * one stops by shutdown (stopping) or crashes.
 */
export const SIDECAR_TABLE: TransitionTable<SidecarState, SidecarState> = {
  idle: { starting: 'starting' },
  starting: { running: 'running', failed: 'failed' },
  running: { stopping: 'stopping', crashed: 'crashed' },
  stopping: { stopped: 'stopped' },
  stopped: { starting: 'starting' },
  crashed: { starting: 'starting' },
  failed: { starting: 'starting', stopped: 'stopped' },
};
