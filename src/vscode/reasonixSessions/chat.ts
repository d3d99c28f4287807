// `@reasonix` in VS Code's chat (issue 44): one ACP session per chat conversation. The stable chat
// API gives a conversation no id, so each result carries its session back in its metadata
// (`{reasonix: {sessionId, cwd}}`), which VS Code keeps in the conversation's history and restores
// with it: a turn whose history names a live session continues it; one whose session is not live
// (VS Code restored the chat after a reload, or the session was closed idle) reopens it with
// `session/load`; a conversation without one opens a new session in its folder (the active
// editor's, the only one, or the one the user picks). VS Code does not tell an extension that a
// conversation was deleted, so a conversation's session is closed (`session/close`: Reasonix keeps
// its history) after IDLE_MS without a turn, or when more than MAX_LIVE are open; its next turn
// loads it again. `/mode`, `/model` and `/approval` choose the session's mode, model and tool
// approval from inside the chat (followups offer the choices).
import * as vscode from 'vscode';
import { planMarkdown, TurnRenderer, type ReasonixSession, type SessionChoices } from '../../host/acp';
import { inert } from '../../host/inert';
import { redact } from '../../host/redact';

export const PARTICIPANT_ID = 'reasonix.agent';
/** A conversation's session is closed after this long without a turn (its next turn loads it). */
export const IDLE_MS = 20 * 60_000;
/** Conversation sessions open at once; past it the least recently used idle one is closed. */
export const MAX_LIVE = 4;

/** What a result carries back in the conversation's history. */
export interface ChatRef {
  sessionId: string;
  cwd: string;
}

/** What the chat needs of the window: opening and closing tracked sessions, picking a folder. */
export interface ChatSessions {
  pickFolder(arg: unknown, title: string): Promise<vscode.WorkspaceFolder | undefined>;
  /** Opens (or with `load`, reopens) a session for a conversation; undefined when it could not (the window said why). */
  openChatSession(
    folder: vscode.WorkspaceFolder,
    label: string,
    load?: string,
  ): Promise<{ session?: ReasonixSession; error?: string }>;
  closeChatSession(session: ReasonixSession): Promise<void>;
  /** Whether the running Reasonix advertised `loadSession` (undefined before it started). */
  canLoad(): boolean | undefined;
  used(session: ReasonixSession): void;
}

/** The participant commands and the choice each sets (`''`: the mode; else a config option id). */
const COMMANDS: Record<string, string> = { mode: '', model: 'model', approval: 'tool_approval' };

interface Slot {
  session: ReasonixSession;
  busy: number;
  lastUsed: number;
  timer?: NodeJS.Timeout;
}

/** The session a conversation's history names (the newest @reasonix result that carries one). */
export function refOf(context: vscode.ChatContext): ChatRef | undefined {
  for (let i = context.history.length - 1; i >= 0; i--) {
    const t = context.history[i] as Partial<vscode.ChatResponseTurn>;
    if (t.participant !== PARTICIPANT_ID || !t.result) continue;
    const r = (t.result.metadata as { reasonix?: Partial<ChatRef> } | undefined)?.reasonix;
    if (typeof r?.sessionId === 'string' && typeof r.cwd === 'string') return { sessionId: r.sessionId, cwd: r.cwd };
  }
  return undefined;
}

export class ReasonixChat {
  private readonly live = new Map<string, Slot>();

  constructor(private readonly w: ChatSessions) {}

  /** The open conversation sessions (the Extensions view shows each under its own node). */
  sessions(): ReasonixSession[] {
    return [...this.live.values()].map((s) => s.session);
  }

  async handle(
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    response: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> {
    const slot = await this.slotFor(refOf(context), request.prompt, response);
    if (!slot) return { errorDetails: { message: vscode.l10n.t('No Reasonix session') } };
    slot.busy++;
    this.touch(slot);
    const ref: ChatRef = { sessionId: slot.session.acpSessionId, cwd: slot.session.cwd };
    try {
      const setting = request.command !== undefined ? COMMANDS[request.command] : undefined;
      if (setting !== undefined)
        return await this.choose(slot.session, request.command!, setting, request.prompt, response, ref);
      return await this.turn(slot.session, request.prompt, response, token, ref);
    } finally {
      slot.busy--;
      this.touch(slot);
    }
  }

  /** Closes every conversation session (the window is going). */
  async dispose(): Promise<void> {
    for (const slot of [...this.live.values()]) await this.close(slot);
  }

  /** Forgets a session the window closed or lost (Reasonix failed): its next turn loads it again. */
  forget(session: ReasonixSession): void {
    const slot = this.live.get(session.acpSessionId);
    if (slot?.session !== session) return;
    clearTimeout(slot.timer);
    this.live.delete(session.acpSessionId);
  }

  private async slotFor(
    ref: ChatRef | undefined,
    prompt: string,
    response: vscode.ChatResponseStream,
  ): Promise<Slot | undefined> {
    const had = ref && this.live.get(ref.sessionId);
    if (had && !had.session.failure) return had;
    if (had) this.forget(had.session);
    const label = (folder: vscode.WorkspaceFolder) =>
      vscode.l10n.t('{0} · Reasonix chat: {1}', folder.name, shortTitle(prompt));
    let folder: vscode.WorkspaceFolder | undefined;
    if (ref) {
      folder = (vscode.workspace.workspaceFolders ?? []).find(
        (f) => f.uri.scheme === 'file' && f.uri.fsPath === ref.cwd,
      );
      if (folder && this.w.canLoad() !== false) {
        await this.admit();
        const r = await this.w.openChatSession(folder, label(folder), ref.sessionId);
        if (r.session) return this.add(r.session);
        response.markdown(
          inert(
            vscode.l10n.t(
              "Reasonix could not reopen this conversation's session ({0}); this turn starts a new session, without the earlier turns.",
              r.error ?? '',
            ),
          ) + '\n\n',
        );
      } else
        response.markdown(
          vscode.l10n.t(
            "This conversation's Reasonix session cannot be reopened here (its folder is not open, or this Reasonix cannot load sessions); this turn starts a new session, without the earlier turns.",
          ) + '\n\n',
        );
    }
    folder ??= await this.w.pickFolder(undefined, vscode.l10n.t('Talk to Reasonix about which folder?'));
    if (!folder) {
      response.markdown(vscode.l10n.t('Open a folder first: a Reasonix session works in a workspace folder.'));
      return undefined;
    }
    await this.admit();
    const r = await this.w.openChatSession(folder, label(folder));
    if (!r.session) {
      response.markdown(
        vscode.l10n.t('No Reasonix session could be opened; see the message shown and the Reasonix log.'),
      );
      return undefined;
    }
    return this.add(r.session);
  }

  private add(session: ReasonixSession): Slot {
    const slot: Slot = { session, busy: 0, lastUsed: Date.now() };
    this.live.set(session.acpSessionId, slot);
    return slot;
  }

  /** Room for one more: the least recently used idle sessions past MAX_LIVE - 1 are closed. */
  private async admit(): Promise<void> {
    const idle = [...this.live.values()].filter((s) => s.busy === 0).sort((a, b) => a.lastUsed - b.lastUsed);
    while (this.live.size >= MAX_LIVE && idle.length) await this.close(idle.shift()!);
  }

  private touch(slot: Slot): void {
    slot.lastUsed = Date.now();
    clearTimeout(slot.timer);
    slot.timer = undefined;
    if (slot.busy === 0 && this.live.get(slot.session.acpSessionId) === slot) {
      slot.timer = setTimeout(() => void this.close(slot), IDLE_MS);
      slot.timer.unref?.();
    }
    this.w.used(slot.session);
  }

  private async close(slot: Slot): Promise<void> {
    this.forget(slot.session);
    await this.w.closeChatSession(slot.session);
  }

  private async turn(
    session: ReasonixSession,
    prompt: string,
    response: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
    ref: ChatRef,
  ): Promise<vscode.ChatResult> {
    const renderer = new TurnRenderer();
    const sub = session.onDidUpdate((u) => {
      for (const part of renderer.onUpdate(u)) {
        if (part.kind === 'markdown') response.markdown(part.value);
        else if (part.kind === 'progress') response.progress(part.value);
        else response.markdown(`\n\n${planMarkdown(part.entries)}\n\n`);
      }
    });
    const stop = new AbortController();
    const cancel = token.onCancellationRequested(() => stop.abort());
    try {
      const r = await session.prompt(prompt, stop.signal);
      return { metadata: { reasonix: ref, stopReason: r.stopReason } };
    } catch (err) {
      const what = String((err as Error)?.message ?? err);
      return {
        errorDetails: {
          message: inert(
            vscode.l10n.t('Reasonix could not answer: {0}. Check Reasonix (reasonix doctor) and try again.', what),
          ),
        },
        metadata: { reasonix: ref },
      };
    } finally {
      sub.dispose();
      cancel.dispose();
    }
  }

  /** `/mode`, `/model`, `/approval`: without an argument the choices (as followups), with one it is set. */
  private async choose(
    session: ReasonixSession,
    command: string,
    configId: string,
    arg: string,
    response: vscode.ChatResponseStream,
    ref: ChatRef,
  ): Promise<vscode.ChatResult> {
    const c = session.choices();
    const choice = choiceOf(c, configId);
    if (!choice) {
      response.markdown(vscode.l10n.t('This Reasonix session offers no choice of /{0}.', command));
      return { metadata: { reasonix: ref } };
    }
    const followups = choice.options.map((o) => ({ prompt: o.value, command, label: `/${command} ${o.name}` }));
    const wanted = arg.trim().toLowerCase();
    const list = choice.options
      .map((o) => `- \`${o.value}\`${o.name !== o.value ? ` ${o.name}` : ''}${o.value === choice.current ? ' ✓' : ''}`)
      .join('\n');
    if (!wanted) {
      response.markdown(
        inert(`**${choice.name}**\n\n${list}\n\n`) + vscode.l10n.t('Choose one below, or type /{0} <value>.', command),
      );
      return { metadata: { reasonix: ref, followups } };
    }
    const pick = choice.options.find((o) => o.value.toLowerCase() === wanted || o.name.toLowerCase() === wanted);
    if (!pick) {
      response.markdown(
        inert(vscode.l10n.t('Reasonix offers no {0} named "{1}". Its choices:', choice.name, redact(arg.trim()))) +
          `\n\n${inert(list)}`,
      );
      return { metadata: { reasonix: ref, followups } };
    }
    try {
      if (configId) await session.setConfigOption(configId, pick.value);
      else await session.setMode(pick.value);
    } catch (err) {
      return {
        errorDetails: {
          message: inert(
            vscode.l10n.t(
              'Reasonix did not set {0} to {1}: {2}. Try again, or check Reasonix (reasonix doctor).',
              choice.name,
              pick.name,
              String((err as Error)?.message ?? err),
            ),
          ),
        },
        metadata: { reasonix: ref },
      };
    }
    response.markdown(inert(vscode.l10n.t('{0}: {1}. The next turns use it.', choice.name, pick.name)));
    return { metadata: { reasonix: ref } };
  }
}

/** The mode (configId '') or a config option as one list of choices. */
function choiceOf(
  c: SessionChoices,
  configId: string,
): { name: string; current?: string; options: { value: string; name: string }[] } | undefined {
  if (!configId)
    return c.modes.length
      ? {
          name: vscode.l10n.t('Mode'),
          current: c.currentModeId,
          options: c.modes.map((m) => ({ value: m.id, name: m.name })),
        }
      : undefined;
  const o = c.configOptions.find((x) => x.id === configId);
  return o && o.options.length ? { name: o.name, current: o.currentValue, options: o.options } : undefined;
}

/** The first words of a conversation's first prompt, to tell its group apart in the views. */
function shortTitle(prompt: string): string {
  const t = redact(prompt.replace(/\s+/g, ' ').trim());
  return t.length > 40 ? `${t.slice(0, 40)}…` : t || '…';
}
