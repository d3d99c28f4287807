// Reasonix sessions over ACP (issue 44) as activation registers them: three commands and the
// lookup the Surfaces view's buttons use for a Reasonix session's surfaces. The work (the ACP
// client, the SDK) is dist/sessions.js, required on the first command, so the activation bundle
// stays within its size budget (src/vscode/lazyModule.ts).
import * as vscode from 'vscode';
import type { UiFrontEnd } from '../../host/ui';
import type { OtherActions } from '../actions';
import type { ExtensionLog } from '../logging';
import { lazyModule } from '../lazyModule';

/** What a card button or a form of a Reasonix session's surface is routed to. */
export interface SessionSurfaceTarget {
  /** The session's `/<plugin>:<action>` entries (Run Extension Action…). */
  listActions(): import('../../host/ui').ActionEntry[];
  invokeAction(pluginId: string, actionId: string): Promise<{ accepted: boolean; message?: string }>;
  /** Runs an action from the palette or a key binding and shows its outcome. */
  runAction(entry: import('../../host/ui').ActionEntry): Promise<import('../actions').RunOutcome>;
  submit(pluginId: string, surfaceId: string, values: Record<string, unknown>): Promise<{ accepted: boolean }>;
  /** `<folder> · Reasonix session`. */
  readonly folderName: string;
  /** The session's item in the Extensions view, and its extensions with their states under it. */
  treeItem(): vscode.TreeItem;
  pluginItems(): vscode.TreeItem[];
  /** Extensions of this folder whose VS Code-hosted copies were stopped while the session is open. */
  readonly stoppedCopies: readonly string[];
}

/**
 * The extensions VS Code hosts in a folder, as "no double hosting by surprise" needs them: which run,
 * stopping and starting them again (reasonix.sessions.hostedCopies, docs/reasonix-sessions.md).
 */
export interface HostedCopies {
  running(folderKey: string): string[];
  stop(folderKey: string, pluginId: string): Promise<void>;
  start(folderKey: string, pluginId: string): Promise<void>;
}

export interface ReasonixSessionsDeps {
  store: import('../../host/ui').SurfaceStore;
  prompts: UiFrontEnd;
  log: ExtensionLog;
  isTrusted(): boolean;
  /** Session key → its target, filled by the window while its sessions are open. */
  targets: Map<string, SessionSurfaceTarget>;
  hosted: HostedCopies;
  /** The Reasonix home this host reads (reasonix.home): the session's Reasonix reads the same one. */
  home(): string;
  /** The open sessions or their extensions changed (the Extensions view repaints). */
  changed(): void;
}

const window = lazyModule<typeof import('../../reasonixSessions')>('sessions.js', 'reasonixSessions');

/** The open Reasonix sessions' actions, for Run Extension Action… and `reasonix.runAction`. */
export function sessionActions(targets: ReadonlyMap<string, SessionSurfaceTarget>): OtherActions {
  const list = () =>
    [...targets.values()].flatMap((t) => t.listActions().map((entry) => ({ entry, run: () => t.runAction(entry) })));
  return Object.assign(list, {
    names: (folder: string) => [...targets].some(([key, t]) => key === folder || t.folderName === folder),
  });
}

const COMMANDS = [
  'openReasonixSession',
  'closeReasonixSession',
  'reloadReasonixSession',
  'configureReasonixSession',
] as const;

export function registerReasonixSessions(d: ReasonixSessionsDeps): vscode.Disposable[] {
  let started = false;
  // @reasonix in VS Code's chat: the stable chat participant API, feature-detected (a VS Code
  // without it keeps the Extensions view commands).
  const chat = (vscode as { chat?: Partial<typeof vscode.chat> }).chat;
  const participant =
    typeof chat?.createChatParticipant === 'function'
      ? chat.createChatParticipant('reasonix.agent', (request, context, response, token) => {
          started = true;
          return window().sessionsWindow(d).chat(request, context, response, token);
        })
      : undefined;
  if (participant) {
    participant.iconPath = new vscode.ThemeIcon('hubot');
    // `/mode`, `/model`, `/approval` without a value answer with the choices as followups (chat.ts).
    participant.followupProvider = {
      provideFollowups: (result) => {
        const f = (result.metadata as { followups?: unknown } | undefined)?.followups;
        return Array.isArray(f) ? (f as vscode.ChatFollowup[]) : [];
      },
    };
  }
  return [
    ...(participant ? [participant] : []),
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
