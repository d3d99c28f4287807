// The extension side of the Surfaces protocol, independent of the VS Code API so it is unit-tested
// in Node: it feeds every connected webview (sidebar view, editor panel) a snapshot when the view
// says `ready` and deltas after, decodes everything a view posts, and routes user intents to the
// engine only after checking them against the surfaces the engine actually published. It keeps
// no copy of the surfaces: the snapshot and every check read the engine's store, and its change
// events go out as they are, so what a view shows (stale marks included) is what the store says.
import type { Disposable } from '../../host/emitter';
import type { SurfaceFeed } from '../../host/session';
import {
  offersAction,
  type FormValues,
  type PromptAnswer,
  type PromptRequest,
  type Surface,
  type SurfaceChange,
} from '../../protocol';
import { checkSubmission, promptFields } from '../../webviewProtocol/forms';
import { isAllowedLink } from '../../webviewProtocol/links';
import type { Drafts, EmptyState, HostToView, ViewPrompt, ViewToHost } from '../../webviewProtocol/messages';
import { promptDraftKey } from '../../webviewProtocol/messages';
import { HUB_MESSAGES, type HubMessages, type ViewStrings } from '../../webviewProtocol/strings';
import { decodeViewMessage } from '../../webviewProtocol/validate';

export interface Origin {
  sessionKey: string;
  pluginId: string;
}
export interface Verdict {
  accepted: boolean;
  message?: string;
}
/** What the Surfaces view shows: the window's surface feed, and why it is empty when it is. */
export interface SurfacesViewFeed extends SurfaceFeed {
  /** The stored surface with this `surfaceKey`: what a button or submit from a view is checked against. */
  byKey(key: string): Surface | undefined;
  emptyState(): EmptyState;
  onDidChangeEmptyState(listener: () => void): Disposable;
}
/** Where the view's user intents go: the session and plugin a surface came from. */
export interface SurfaceSink {
  runAction(origin: Origin, actionId: string): Promise<Verdict>;
  submitForm(origin: Origin, surfaceId: string, values: FormValues): Promise<Verdict>;
}
export interface HubLog {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
}
export interface HubDeps {
  source: SurfacesViewFeed;
  sink: SurfaceSink;
  log: HubLog;
  /** Open an already-validated http/https/mailto URL (VS Code shows its own confirmation). */
  openExternal(url: string): Promise<unknown>;
  manageTrust(): void;
  /** The user expanded a folder group in a view (`sessionKey` as the view got it): the folder is in use. */
  folderOpened?(sessionKey: string): void;
  /** Where drafts outlive the window (workspace state); optional. */
  draftStore?: { get(): Drafts | undefined; set(drafts: Drafts): void };
  /** The view's labels and the hub's verdicts in the display language; English when absent. */
  strings?: () => { view: ViewStrings; hub: HubMessages };
}
/** One connected webview. `post` is fire-and-forget; a closed view simply drops messages. */
export interface ViewPort {
  post(message: HostToView): void;
}
export interface Connection extends Disposable {
  receive(raw: unknown): Promise<void>;
}

interface Pending {
  prompt: ViewPrompt;
  settle(answer: PromptAnswer): void;
}

export class SurfacesHub implements Disposable {
  private readonly ready = new Set<ViewPort>();
  private readonly ports = new Set<ViewPort>();
  private readonly prompts = new Map<string, Pending>();
  private readonly subscriptions: Disposable[] = [];
  private drafts: Drafts;
  private promptSeq = 0;
  private disposed = false;

  constructor(private readonly deps: HubDeps) {
    this.drafts = deps.draftStore?.get() ?? {};
    this.subscriptions.push(
      deps.source.onDidChange((c) => this.onChange(c)),
      deps.source.onDidChangeEmptyState(() =>
        this.broadcast({ type: 'emptyState', emptyState: deps.source.emptyState() }),
      ),
    );
  }

  connect(port: ViewPort): Connection {
    this.ports.add(port);
    return {
      receive: (raw) => this.receive(port, raw),
      dispose: () => {
        this.ports.delete(port);
        this.ready.delete(port);
      },
    };
  }

  get viewCount(): number {
    return this.ready.size;
  }

  /** Show a multi-field prompt in every view until answered or aborted; abort → cancelled. */
  showPrompt(request: PromptRequest, signal: AbortSignal): Promise<PromptAnswer> {
    if (signal.aborted || this.disposed) return Promise.resolve({ cancelled: true });
    const promptId = `p${++this.promptSeq}-${Date.now().toString(36)}`;
    return new Promise<PromptAnswer>((resolve) => {
      const onAbort = () => this.closePrompt(promptId, { cancelled: true });
      const prompt: ViewPrompt = { promptId, request };
      this.prompts.set(promptId, {
        prompt,
        settle: (answer) => {
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      });
      signal.addEventListener('abort', onAbort, { once: true });
      this.broadcast({ type: 'prompt', prompt });
    });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
    for (const id of [...this.prompts.keys()]) this.closePrompt(id, { cancelled: true });
    this.ports.clear();
    this.ready.clear();
  }

  private hubText(): HubMessages {
    return this.deps.strings?.().hub ?? HUB_MESSAGES;
  }

  private snapshot(): HostToView {
    return {
      type: 'snapshot',
      surfaces: this.deps.source.snapshot(),
      emptyState: this.deps.source.emptyState(),
      prompts: [...this.prompts.values()].map((p) => p.prompt),
      drafts: this.drafts,
      ...(this.deps.strings ? { strings: this.deps.strings().view } : {}),
    };
  }

  /** An upsert or remove is already the view's delta message; after a reset every view starts over. */
  private onChange(c: SurfaceChange): void {
    if (c.type !== 'reset') this.broadcast(c);
    else for (const p of this.ready) p.post(this.snapshot());
  }

  private broadcast(m: HostToView): void {
    for (const p of this.ready) p.post(m);
  }

  private closePrompt(promptId: string, answer: PromptAnswer): void {
    const pending = this.prompts.get(promptId);
    if (!pending) return;
    this.prompts.delete(promptId);
    this.dropDraft(promptDraftKey(promptId));
    pending.settle(answer);
    this.broadcast({ type: 'promptClosed', promptId });
  }

  private dropDraft(key: string): void {
    if (!(key in this.drafts)) return;
    const next = { ...this.drafts };
    delete next[key];
    this.drafts = next;
    this.deps.draftStore?.set(next);
  }

  private async receive(port: ViewPort, raw: unknown): Promise<void> {
    if (this.disposed || !this.ports.has(port)) return;
    const decoded = decodeViewMessage(raw);
    if (!decoded.ok) {
      this.deps.log.warn(`surfaces: refused a message from the webview: ${decoded.message}`);
      return;
    }
    const m = decoded.value;
    try {
      await this.dispatch(port, m);
    } catch (e) {
      this.deps.log.warn(`surfaces: ${m.type} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private async dispatch(port: ViewPort, m: ViewToHost): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.ready.add(port);
        port.post(this.snapshot());
        return;
      case 'runAction':
        return this.runAction(port, m.requestId, m.key, m.actionId);
      case 'submit':
        return this.submit(port, m.requestId, m.key, m.values);
      case 'answerPrompt':
        return this.answerPrompt(m.promptId, m.answer);
      case 'openLink':
        if (!isAllowedLink(m.url)) {
          this.deps.log.warn(`surfaces: refused to open a link that is not http, https or mailto`);
          return;
        }
        await this.deps.openExternal(m.url);
        return;
      case 'persist':
        this.drafts = m.drafts;
        this.deps.draftStore?.set(m.drafts);
        return;
      case 'manageTrust':
        this.deps.manageTrust();
        return;
      case 'folderOpened':
        // The key is the view's word (decoded, at most 8 KiB): quoted and cut in the log.
        this.deps.log.debug(`surfaces: folder group opened: ${JSON.stringify(m.sessionKey.slice(0, 200))}`);
        this.deps.folderOpened?.(m.sessionKey);
        return;
    }
  }

  private async runAction(port: ViewPort, requestId: string, key: string, actionId: string): Promise<void> {
    const s = this.deps.source.byKey(key);
    const reply = (v: Verdict) =>
      port.post({
        type: 'actionResult',
        requestId,
        key,
        actionId,
        accepted: v.accepted,
        ...(v.message ? { message: v.message } : {}),
      });
    // Card, panel and view buttons take the one action path; the engine sends nothing for an
    // action the plugin did not declare (HOST_SPEC_V2 §7.3, V2-50) and says so.
    const text = this.hubText();
    if (!s || !offersAction(s, actionId)) {
      const gone =
        s?.kind === 'panel' ? text.panelActionGone : s?.kind === 'view' ? text.viewActionGone : text.cardActionGone;
      return reply({ accepted: false, message: gone });
    }
    if (s.stale) {
      const stale = s.kind === 'panel' ? text.panelStale : s.kind === 'view' ? text.viewStale : text.cardStale;
      return reply({ accepted: false, message: stale });
    }
    reply(
      await this.safely(() => this.deps.sink.runAction({ sessionKey: s.sessionKey, pluginId: s.pluginId }, actionId)),
    );
  }

  private async submit(port: ViewPort, requestId: string, key: string, values: FormValues): Promise<void> {
    const s = this.deps.source.byKey(key);
    const reply = (v: Verdict) =>
      port.post({
        type: 'submitResult',
        requestId,
        key,
        accepted: v.accepted,
        ...(v.message ? { message: v.message } : {}),
      });
    if (!s || s.kind !== 'form') return reply({ accepted: false, message: this.hubText().formGone });
    if (s.stale) return reply({ accepted: false, message: this.hubText().formStale });
    const problem = checkSubmission(s.payload, values);
    if (problem) return reply({ accepted: false, message: problem });
    reply(
      await this.safely(() =>
        this.deps.sink.submitForm({ sessionKey: s.sessionKey, pluginId: s.pluginId }, s.surfaceId, values),
      ),
    );
  }

  private answerPrompt(promptId: string, answer: PromptAnswer): void {
    const pending = this.prompts.get(promptId);
    if (!pending) return; // already answered in another view, aborted, or never existed
    if (!answer.cancelled) {
      const problem = checkSubmission({ fields: promptFields(pending.prompt.request) }, answer.values);
      if (problem) {
        this.deps.log.warn(`surfaces: refused a prompt answer: ${problem}`);
        return;
      }
    }
    this.closePrompt(promptId, answer);
  }

  /** The engine's promise may reject (plugin crashed mid-call): the user still gets an answer. */
  private async safely(call: () => Promise<Verdict>): Promise<Verdict> {
    try {
      const v = await call();
      return {
        accepted: v.accepted === true,
        ...(typeof v.message === 'string' && v.message ? { message: v.message } : {}),
      };
    } catch (e) {
      return { accepted: false, message: e instanceof Error ? e.message : String(e) };
    }
  }
}
