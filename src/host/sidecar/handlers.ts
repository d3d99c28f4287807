// The one map of what the host serves to a sidecar. Its keys are the generated extension→host
// methods of either protocol (src/protocol/generated CONTRACT_TABLES with their directions), so a new
// host-served method is
// one entry contributed by its subsystem (ui, streams, content…) and nothing here changes. Whether a
// method exists on a plugin's wire is its contract's business: the connection never routes a method
// its contract lacks.
import type { CONTRACT_TABLES, MethodName, MethodTypes } from '../../protocol';
import type { EncodedResult, InboundHandler, InboundHandlers } from '../wire';

type AllMethods = (typeof CONTRACT_TABLES)['v2']['methods'];
type MethodsIn<D> = { [M in MethodName]: AllMethods[M]['direction'] extends D ? M : never }[MethodName];

/** Requests a sidecar may send the host (`host/content/read`, `host/ui/publish`, …). */
export type HostRequestMethod = MethodsIn<'extension_to_host_request'>;
/** Notifications a sidecar may send the host (`extension/provider/stream/chunk`, …). */
export type HostNotificationMethod = MethodsIn<'extension_to_host_notification'>;
export type HostServedMethod = HostRequestMethod | HostNotificationMethod;

type Result<M extends HostRequestMethod> = MethodTypes[M]['result'];

/**
 * Receives typed, schema-valid params (the connection validated them) and the byte length of the
 * frame that carried them; may answer pre-encoded.
 */
export type HostRequestHandler<M extends HostRequestMethod> = (
  params: MethodTypes[M]['params'],
  signal: AbortSignal,
  frameBytes: number,
) => Result<M> | EncodedResult | Promise<Result<M>>;
export type HostNotificationHandler<M extends HostNotificationMethod> = (params: MethodTypes[M]['params']) => void;

/**
 * Sidecar→host traffic after the barrier, one handler per method. A method without a handler is
 * not served: requests are answered -32601 unknown_method, notifications are dropped.
 */
export type HostHandlers = { [M in HostRequestMethod]?: HostRequestHandler<M> } & {
  [M in HostNotificationMethod]?: HostNotificationHandler<M>;
};

/** The connection's view of a handler map: a method is served when the map has a handler for it. */
export function inboundHandlers(map: HostHandlers): InboundHandlers {
  const table = new Map<string, InboundHandler>();
  for (const [method, handler] of Object.entries(map))
    if (typeof handler === 'function') table.set(method, handler as InboundHandler);
  return { handler: (method) => table.get(method) };
}
