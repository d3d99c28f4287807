// Surface builders shared by the Node and browser tests of the Surfaces webview.
import type {
  CardPayload,
  FormPayload,
  NotificationPayload,
  PanelPayload,
  StatusPayload,
  Surface,
  ViewPayload,
} from '../../../src/protocol';

let revision = 0;
let clock = 1_700_000_000_000;

interface Origin {
  sessionKey?: string;
  folderName?: string;
  pluginId?: string;
  generation?: number;
  surfaceId?: string;
  stale?: boolean;
}

function base(o: Origin) {
  return {
    sessionKey: o.sessionKey ?? 'ws-1',
    folderName: o.folderName ?? 'app',
    pluginId: o.pluginId ?? 'demo',
    generation: o.generation ?? 1,
    surfaceId: o.surfaceId ?? `s${revision + 1}`,
    revision: ++revision,
    updatedAt: ++clock,
    stale: o.stale ?? false,
  };
}

export function card(payload: CardPayload, o: Origin = {}): Surface {
  return { ...base(o), kind: 'card', payload };
}
export function form(payload: FormPayload, o: Origin = {}): Surface {
  return { ...base(o), kind: 'form', payload };
}
export function status(payload: StatusPayload, o: Origin = {}): Surface {
  return { ...base(o), kind: 'status', payload };
}
export function notification(payload: NotificationPayload, o: Origin = {}): Surface {
  return { ...base(o), kind: 'notification', payload };
}
/** The same surface re-published: a newer revision and time, everything else as given. */
export function republish(s: Surface, change: Partial<Surface> = {}): Surface {
  return { ...s, ...change, revision: ++revision, updatedAt: ++clock } as Surface;
}
export function panel(payload: PanelPayload, o: Origin = {}): Surface {
  return { ...base(o), kind: 'panel', payload };
}
export function view(payload: ViewPayload, o: Origin = {}): Surface {
  return { ...base(o), kind: 'view', payload };
}
