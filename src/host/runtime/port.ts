// The narrow view of a sidecar that a runtime generation needs. The real class
// (src/host/sidecar) satisfies it structurally; tests and other hosts may pass any factory.
import type { Logger } from '../log';
import type { PluginSpec } from '../plugins/types';

export type SidecarState = 'idle' | 'starting' | 'running' | 'stopping' | 'stopped' | 'crashed' | 'failed';

/** What each sidecar of a session is told about it in `extension/initialize`. */
export interface SessionContext {
  sessionId: string;
  workspaceRoot: string;
  generation: number;
}

/** Why a sidecar did not start (or stopped); shown to the user with the plugin name. */
export interface FailureInfo {
  pluginId: string;
  stage: string;
  reason: string;
  message: string;
  stderrTail: string;
  elapsedMs: number;
}

export interface SidecarDisposable {
  dispose(): void;
}

export interface SidecarHandle {
  readonly pluginId: string;
  readonly plugin: PluginSpec;
  readonly state: SidecarState;
  start(session?: SessionContext): Promise<void>;
  stop(): Promise<void>;
  restart(session?: SessionContext): Promise<void>;
  /** The generation only needs to know that something changed; it reads `state` itself. */
  onStateChange(listener: () => void): SidecarDisposable;
}

/** Sidecar timeouts (ms), each optional; passed through to the sidecar. */
export type SidecarTimeouts = Partial<{ handshakeMs: number; shutdownRequestMs: number; exitGraceMs: number; reapMs: number; writeStallMs: number }>;

/**
 * Everything a sidecar is constructed from. `uiHost` and the handlers are opaque here: the
 * generation only hands them from its options to the factory.
 */
export interface SidecarInit<UiHost = unknown, Handlers = unknown> {
  plugin: PluginSpec;
  session: SessionContext;
  uiHost: UiHost;
  handlers?: Handlers;
  timeouts?: SidecarTimeouts;
  logger?: Logger;
}

/** Reads the FailureInfo a StartError carries, or describes an unexpected rejection. */
export function failureOf(err: unknown, pluginId: string, elapsedMs: number): FailureInfo {
  const info = (err as { info?: Partial<FailureInfo> } | null)?.info;
  if (info && typeof info.message === 'string') {
    return {
      pluginId: info.pluginId ?? pluginId,
      stage: info.stage ?? 'start',
      reason: info.reason ?? 'internal',
      message: info.message,
      stderrTail: info.stderrTail ?? '',
      elapsedMs: info.elapsedMs ?? elapsedMs,
    };
  }
  return { pluginId, stage: 'start', reason: 'internal', message: err instanceof Error ? err.message : String(err), stderrTail: '', elapsedMs };
}
