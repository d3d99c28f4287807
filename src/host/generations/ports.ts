// The narrow view of a sidecar that a runtime generation needs. The real class
// (src/host/sidecar) satisfies it structurally and is the default; tests or other hosts may
// pass any factory producing something of this shape.
import type { PluginSpec } from '../plugins';
import type { Disposable } from '../emitter';
import {
  Sidecar,
  type FailureInfo,
  type SessionContextInput,
  type SidecarOptions,
  type SidecarState,
} from '../sidecar';

export type { FailureInfo, SidecarState, SidecarOptions };
export { failureOf } from '../sidecar';
export type { HostHandlers, SidecarTimeouts, UiHost } from '../sidecar';

/** What each sidecar of a session is told about it in `extension/initialize`. */
export type SessionContext = SessionContextInput;

export interface SidecarHandle {
  readonly pluginId: string;
  readonly plugin: PluginSpec;
  readonly state: SidecarState;
  start(session?: SessionContext): Promise<void>;
  stop(): Promise<void>;
  restart(session?: SessionContext): Promise<void>;
  /**
   * Started under a debugger (read right after `start()` is called): the launch budget does not
   * end its start, since the debugger may hold it at its first line (Debug Extension…).
   */
  readonly debugging?: boolean;
  /** The generation only needs to know that something changed; it reads `state` itself. */
  onStateChange(listener: () => void): Disposable;
}

/** Builds one sidecar of a generation; without a type argument it builds the engine's real `Sidecar`. */
export type SidecarFactory<S extends SidecarHandle = Sidecar> = (opts: SidecarOptions) => S;

export const realSidecarFactory: SidecarFactory<Sidecar> = (opts) => new Sidecar(opts);
