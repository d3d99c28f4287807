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

/**
 * A large window's surfaces: `folders` folders (`folder-00`…) × `extensions` plugins (`ext-0`…) ×
 * `perExtension` surfaces each, a realistic mix per ten: a status with progress, a v2 panel, a v2
 * view, a notification, a form, and five cards (Markdown with a link and a button, or text and
 * fields). The Surfaces scale tests and the `surfacesScale` bench figure draw these.
 */
export function manySurfaces(folders: number, extensions: number, perExtension: number): Surface[] {
  const out: Surface[] = [];
  for (let f = 0; f < folders; f++)
    for (let e = 0; e < extensions; e++) {
      const o = (i: number): Origin => ({
        sessionKey: `ws-${f}`,
        folderName: `folder-${String(f).padStart(2, '0')}`,
        pluginId: `ext-${e}`,
        surfaceId: `s${i}`,
      });
      for (let i = 0; i < perExtension; i++) out.push(mixed(i, o(i)));
    }
  return out;
}

function mixed(i: number, o: Origin): Surface {
  switch (i % 10) {
    case 0:
      return status({ label: `Indexing ${i}`, detail: `${i} of 20`, severity: 'info', progress: 0.5 }, o);
    case 1:
      return panel(
        {
          title: `Build ${i}`,
          text: 'running the tests',
          fields: [{ key: 'Step', value: '3 of 9' }],
          progress: 0.3,
          actions: [{ actionId: 'pause', label: 'Pause' }],
        },
        o,
      );
    case 2:
      return view(
        {
          body: [
            {
              kind: 'row',
              children: [
                { kind: 'pip', label: 'healthy', tone: 'ok' },
                { kind: 'text', value: 'All good' },
              ],
            },
            { kind: 'meter', label: 'cpu', progress: 0.4 },
          ],
        },
        o,
      );
    case 3:
      return notification({ title: `Saved ${i}`, body: 'the index is up to date', severity: 'info' }, o);
    case 4:
      return form({ title: 'Settings', fields: [{ key: 'name', kind: 'input', label: 'Name' }] }, o);
    default:
      return i % 2
        ? card(
            {
              title: `Result ${i}`,
              markdown: `Some **bold** text, a [link](https://example.com/${i}) and \`code\`.\n\n- one\n- two\n`,
              actions: [{ actionId: 'open', label: 'Open' }],
            },
            o,
          )
        : card({ title: `Card ${i}`, text: 'plain text', fields: [{ key: 'files', value: String(i) }] }, o);
  }
}
