// Reasonix sessions over ACP (issue 44) as activation registers them: three commands and the
// lookup the Surfaces view's buttons use for a Reasonix session's surfaces. The work (the ACP
// client, the SDK) is dist/sessions.js, required on the first command, so the activation bundle
// stays within its size budget (src/vscode/lazyModule.ts).
import * as vscode from 'vscode';
import type { UiFrontEnd } from '../../host/ui';
import type { ExtensionLog } from '../logging';
import { lazyModule } from '../lazyModule';

/** What a card button or a form of a Reasonix session's surface is routed to. */
export interface SessionSurfaceTarget {
  invokeAction(pluginId: string, actionId: string): Promise<{ accepted: boolean; message?: string }>;
  submit(pluginId: string, surfaceId: string, values: Record<string, unknown>): Promise<{ accepted: boolean }>;
}

export interface ReasonixSessionsDeps {
  store: import('../../host/ui').SurfaceStore;
  prompts: UiFrontEnd;
  log: ExtensionLog;
  isTrusted(): boolean;
  /** Session key → its target, filled by the window while its sessions are open. */
  targets: Map<string, SessionSurfaceTarget>;
}

const window = lazyModule<typeof import('../../reasonixSessions')>('sessions.js', 'reasonixSessions');

const COMMANDS = ['openReasonixSession', 'closeReasonixSession', 'reloadReasonixSession'] as const;

export function registerReasonixSessions(d: ReasonixSessionsDeps): vscode.Disposable[] {
  let started = false;
  return [
    ...COMMANDS.map((name) =>
      vscode.commands.registerCommand(`reasonix.${name}`, (arg?: unknown) => {
        started = true;
        return window().sessionsWindow(d)[name](arg);
      }),
    ),
    new vscode.Disposable(() => {
      if (started) void window().disposeSessionsWindow();
    }),
  ];
}
