// The VS Code front end of `host/ui/request` and notifications (HOST_SPEC §7.2): one question →
// native QuickPick / InputBox / modal Yes-No; several questions → the Surfaces view form when it
// is visible, else one native step per field. Dismissal always answers {cancelled:true}; an
// aborted request (the sidecar went away, a newer generation) closes whatever is showing.
import * as vscode from 'vscode';
import type { UiFrontEnd } from '../host/session';
import { inert } from '../host/inert';
import {
  promptFields,
  type FieldKind,
  type FormField,
  type FormValues,
  type PromptAnswer,
  type PromptRequest,
  type Surface,
} from '../protocol';

/** What prompts need from the Surfaces view (src/vscode/surfaces). */
export interface FormHost {
  isVisible(): boolean;
  showPrompt(req: PromptRequest, signal: AbortSignal): Promise<PromptAnswer>;
}

const CANCELLED: PromptAnswer = { cancelled: true };
type Answer = boolean | string | string[];

export class VsCodePrompts implements UiFrontEnd {
  constructor(
    private readonly formHost: () => FormHost | undefined,
    private readonly multiRoot: () => boolean = () => (vscode.workspace.workspaceFolders?.length ?? 0) > 1,
  ) {}

  notify(n: Surface & { kind: 'notification' }): void {
    const text = inert(`${this.origin(n)}: ${n.payload.title}${n.payload.body ? ` — ${n.payload.body}` : ''}`);
    switch (n.payload.severity) {
      case 'error':
        void vscode.window.showErrorMessage(text);
        break;
      case 'warn':
        void vscode.window.showWarningMessage(text);
        break;
      default:
        void vscode.window.showInformationMessage(text);
    }
  }

  async prompt(req: PromptRequest, signal: AbortSignal): Promise<PromptAnswer> {
    if (signal.aborted) return CANCELLED;
    const questions = promptFields(req);
    const host = this.formHost();
    if (questions.length > 1 && host?.isVisible()) return host.showPrompt(req, signal);
    const values: FormValues = {};
    for (let i = 0; i < questions.length; i++) {
      const q = questions[i];
      const step = questions.length > 1 ? { step: i + 1, totalSteps: questions.length } : undefined;
      const answer = await this.ask(req, q, signal, step);
      if (answer === undefined || signal.aborted) return CANCELLED;
      values[q.key] = answer;
    }
    return { cancelled: false, values };
  }

  private origin(o: { pluginId: string; folderName: string }): string {
    return this.multiRoot() ? `${o.pluginId} (${o.folderName})` : o.pluginId;
  }

  private title(req: PromptRequest, q: FormField): string {
    const head = req.payload.title ?? q.label ?? q.key;
    return `${this.origin(req)}: ${head}`;
  }

  private ask(
    req: PromptRequest,
    q: FormField,
    signal: AbortSignal,
    step?: { step: number; totalSteps: number },
  ): Promise<Answer | undefined> {
    const kind: FieldKind = q.kind;
    switch (kind) {
      case 'confirm':
        return this.confirm(req, q, signal);
      case 'input':
        return this.input(req, q, signal, step);
      case 'select':
      case 'multiselect':
        return this.pick(req, q, kind === 'multiselect', signal, step);
    }
  }

  private async confirm(req: PromptRequest, q: FormField, signal: AbortSignal): Promise<boolean | undefined> {
    // A modal cannot be closed from code; an abort makes its late answer irrelevant instead.
    const detail = [req.payload.message, q.label && q.label !== req.payload.message ? q.label : undefined]
      .filter(Boolean)
      .join('\n\n');
    const [yes, no] = [vscode.l10n.t('Yes'), vscode.l10n.t('No')];
    const choice = await vscode.window.showWarningMessage(
      inert(this.title(req, q)),
      { modal: true, detail: detail ? inert(detail) : undefined },
      yes,
      no,
    );
    if (signal.aborted || choice === undefined) return undefined;
    return choice === yes;
  }

  private input(
    req: PromptRequest,
    q: FormField,
    signal: AbortSignal,
    step?: { step: number; totalSteps: number },
  ): Promise<string | undefined> {
    const box = vscode.window.createInputBox();
    box.title = inert(this.title(req, q));
    // The prompt line turns [label](command:…) into a link: never the extension's text as it is.
    box.prompt = inert(q.label ?? req.payload.message ?? '');
    box.placeholder = q.required ? vscode.l10n.t('Required') : undefined;
    box.value = typeof q.default === 'string' ? q.default : '';
    box.ignoreFocusOut = true;
    if (step) Object.assign(box, step);
    return settle<string>(box, signal, (done) => [
      box.onDidChangeValue(
        (v) => (box.validationMessage = q.required && !v.trim() ? vscode.l10n.t('A value is required.') : undefined),
      ),
      box.onDidAccept(() => {
        if (q.required && !box.value.trim()) {
          box.validationMessage = vscode.l10n.t('A value is required.');
          return;
        }
        done(box.value);
      }),
    ]);
  }

  private pick(
    req: PromptRequest,
    q: FormField,
    many: boolean,
    signal: AbortSignal,
    step?: { step: number; totalSteps: number },
  ): Promise<string | string[] | undefined> {
    const qp = vscode.window.createQuickPick<vscode.QuickPickItem>();
    qp.title = inert(this.title(req, q));
    qp.placeholder = inert(
      q.label ?? req.payload.message ?? (many ? vscode.l10n.t('Pick any') : vscode.l10n.t('Pick one')),
    );
    qp.canSelectMany = many;
    qp.ignoreFocusOut = true;
    qp.items = (q.options ?? []).map((label) => ({ label }));
    if (step) Object.assign(qp, step);
    const defaults = Array.isArray(q.default)
      ? q.default.filter((d): d is string => typeof d === 'string')
      : typeof q.default === 'string'
        ? [q.default]
        : [];
    const chosen = qp.items.filter((i) => defaults.includes(i.label));
    if (many) qp.selectedItems = chosen;
    else if (chosen.length) qp.activeItems = [chosen[0]];
    return settle<string | string[]>(qp, signal, (done) => [
      qp.onDidAccept(() => {
        if (many) {
          const picked = qp.selectedItems.map((i) => i.label);
          if (q.required && picked.length === 0) return;
          done(picked);
          return;
        }
        const item = qp.selectedItems[0] ?? qp.activeItems[0];
        if (item) done(item.label); // nothing selected is a dismissal, not an empty answer
      }),
    ]);
  }
}

/** Shows `input` until it is accepted, hidden or aborted; always disposes it. */
function settle<T>(
  input: vscode.QuickInput,
  signal: AbortSignal,
  wire: (done: (v: T) => void) => vscode.Disposable[],
): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve) => {
    let finished = false;
    const subs: vscode.Disposable[] = [];
    const finish = (v: T | undefined) => {
      if (finished) return;
      finished = true;
      signal.removeEventListener('abort', onAbort);
      subs.forEach((d) => d.dispose());
      input.dispose();
      resolve(v);
    };
    const onAbort = () => finish(undefined);
    signal.addEventListener('abort', onAbort);
    subs.push(
      ...wire((v) => finish(v)),
      input.onDidHide(() => finish(undefined)),
    );
    input.show();
  });
}
