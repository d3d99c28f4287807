// Best-effort observation events after a walk (HOST_SPEC §4.6): never awaited, never blocking
// the intercept path; a dropped event is reported through `warn` (the caller warns once).
import { redact } from '../redact';
import type { EventParams } from '../../protocol';
import { externalizePayload, type SerializedPayload } from '../content';
import type { InterceptClient } from './ports';
import type { HookPoint } from './points';

export type EventWarn = (pluginId: string, cls: string, message: string) => void;

export function broadcastEvent(
  recipients: readonly InterceptClient[],
  point: HookPoint,
  payload: SerializedPayload,
  warn: EventWarn,
): void {
  for (const client of recipients) {
    if (!client.isLive()) continue;
    let params: EventParams;
    try {
      const wire = externalizePayload(client.content, payload);
      params = { event: point, payload: wire.payload };
      if (wire.externalized) params.externalized = wire.externalized;
    } catch (err) {
      warn(
        client.pluginId,
        'event_unsendable',
        `${point} event not sent: ${redact(err instanceof Error ? err.message : String(err))}`,
      );
      continue;
    }
    let sent = false;
    try {
      sent = client.sendEvent(params);
    } catch {
      sent = false;
    }
    if (!sent) warn(client.pluginId, 'event_dropped', `${point} event dropped (event queue full or connection closed)`);
  }
}
