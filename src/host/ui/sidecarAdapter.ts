// Wiring to the real Sidecar. Handlers exist at construction (they only need the hub and the
// plugin id); `attachSidecar` binds the session identity and follows crashes and stops.
import { ProtocolError, type UIActionDecl } from '../../protocol';
import type { HostHandlers } from '../sidecar';
import type { UiHub } from './hub';
import type { UiRequestOptions } from './ports';
import type { Disposable } from '../emitter';

/** The UI methods this hub serves for one plugin: its part of the sidecar's handler map. */
export type UiHandlers = Required<Pick<HostHandlers, 'host/ui/publish' | 'host/ui/request'>>;

/**
 * `undeclared`: the plugin's contract gates UI on the capability (`features.uiNeedsCapability`,
 * v2) and its manifest's `runtime.capabilities` lacks `ui`. Its publishes and prompts are refused
 * with `capability_not_declared` (HOST_SPEC_V2 §7.1: publishing requires the `ui` capability),
 * before any gate, and `warn` is told once. v1 keeps the reference host's behaviour (HOST_SPEC §7:
 * no such gate on publishes), so it is never `undeclared`.
 */
export function uiHandlers(
  hub: UiHub,
  pluginId: string,
  opts: { undeclared?: boolean; warn?: (message: string) => void } = {},
): UiHandlers {
  if (opts.undeclared) {
    let warned = false;
    const refuse = (method: string): never => {
      if (!warned) {
        warned = true;
        opts.warn?.(
          `${method} refused with capability_not_declared: the plugin's manifest does not declare the "ui" capability; add "ui" to runtime.capabilities to publish surfaces and ask prompts`,
        );
      }
      throw new ProtocolError(
        'capability_not_declared',
        `${method} needs the "ui" capability, which plugin ${pluginId} did not declare in runtime.capabilities`,
      );
    };
    return { 'host/ui/publish': () => refuse('host/ui/publish'), 'host/ui/request': () => refuse('host/ui/request') };
  }
  return {
    'host/ui/publish': (params, _signal, frameBytes) => hub.publish(pluginId, params, frameBytes),
    'host/ui/request': (params, signal) => hub.request(pluginId, params, signal),
  };
}

/** The part of `Sidecar` that binding needs. */
export interface UiSidecar {
  readonly pluginId: string;
  readonly state: string;
  readonly session: { sessionId: string; generation: number };
  /** What its UI calls get while its generation is staged (HOST_SPEC_V2 §2.4). */
  readonly contract: { readonly features: { readonly stagedUi: 'stale' | 'hold' } };
  readonly uiActions: readonly UIActionDecl[];
  request<R>(method: string, params: object, opts?: UiRequestOptions): Promise<R>;
  onStateChange(listener: (state: string, previous: string) => void): Disposable;
  onCrash(listener: (info: unknown) => void): Disposable;
}

/**
 * Binds the sidecar's (sessionId, generation) in the hub; call before `start()` so early publishes
 * pass the gate. `stagingOf(generation)` tells whether that generation is a build not yet published
 * (the hub then binds it beside the current one until `UiHub.commit`): 'reload' while another
 * generation is published (its UI calls get the contract's `stagedUi` policy, HOST_SPEC_V2 §2.4),
 * 'boot' for the session's first build (held and shown at commit for every contract: there is no
 * older UI to protect, and refusing would make an extension's first cards depend on how fast its
 * neighbours start, docs/conformance.md "Our policies"); default: never staged.
 */
export function attachSidecar(
  hub: UiHub,
  sidecar: UiSidecar,
  stagingOf: (generation: number) => 'boot' | 'reload' | undefined = () => undefined,
): Disposable {
  const bind = () => {
    const { sessionId, generation } = sidecar.session;
    const staging = stagingOf(generation);
    const staged = staging === 'reload' ? sidecar.contract.features.stagedUi : staging === 'boot' ? 'hold' : undefined;
    hub.bind(sidecar.pluginId, sessionId, generation, sidecar, { staged });
  };
  bind();
  const generation = () => sidecar.session.generation;
  const crash = sidecar.onCrash(() => hub.markCrashed(sidecar.pluginId, generation()));
  const state = sidecar.onStateChange((s) => {
    // A (re)start may carry a new session/generation: bind it before the handshake lets traffic in.
    if (s === 'starting') bind();
    else if (s === 'crashed') hub.markCrashed(sidecar.pluginId, generation());
    else if (s === 'stopped' || s === 'failed') hub.markStopped(sidecar.pluginId, generation());
  });
  return {
    dispose: () => {
      crash.dispose();
      state.dispose();
    },
  };
}
