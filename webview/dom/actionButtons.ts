// The one action path of the view's buttons (cards, panels, views): a press posts `runAction`
// for the surface's key, a second press while it runs is ignored (the button keeps focus), and
// the answer shows in the surface's result line.
import { surfaceKey, type Surface } from '../../src/webviewProtocol/messages';
import { ResultLine } from './common';
import type { ViewContext } from './context';
import { text } from '../text';
import { newId, placeAt } from './h';

export type ActionButton = HTMLElement & { disabled: boolean; secondary: boolean };

export class ActionRunner {
  readonly result = new ResultLine();
  /** Actions sent and not answered yet. */
  private readonly running = new Set<string>();
  /** The surface the buttons act for (set on every update). */
  surface: Surface | undefined;

  constructor(private readonly ctx: ViewContext) {}

  /** A new button for `actionId`; its label and disabled state are patched by `patch`. */
  button(actionId: string): ActionButton {
    const button = document.createElement('vscode-button') as ActionButton;
    button.secondary = true;
    button.dataset.actionId = actionId;
    button.addEventListener('click', () => this.run(button));
    return button;
  }

  patch(b: ActionButton, label: string, stale: boolean): void {
    if (b.textContent !== label) b.textContent = label;
    b.dataset.label = label;
    if (b.disabled !== stale) b.disabled = stale;
  }

  private run(button: ActionButton): void {
    const actionId = button.dataset.actionId ?? '';
    const label = button.dataset.label ?? actionId;
    const s = this.surface;
    if (!s || s.stale || button.disabled || this.running.has(actionId)) return;
    const requestId = newId('a');
    this.running.add(actionId);
    button.setAttribute('aria-busy', 'true');
    // "Pick a color…" runs as "Running Pick a color…", not "…Pick a color……".
    this.result.busy(text('running', label.replace(/(?:…|\.\.\.)$/, '')));
    this.ctx.expect(requestId, (r) => {
      this.running.delete(actionId);
      button.removeAttribute('aria-busy');
      if (r.accepted) this.result.ok(r.message || text('actionDone', label));
      else this.result.error(r.message || text('actionNotAccepted', label));
    });
    this.ctx.post({ type: 'runAction', requestId, key: surfaceKey(s), actionId });
  }
}

/** A row of buttons keyed by action id, patched in place so focus stays on a button across re-publishes. */
export class ActionRow {
  private buttons = new Map<string, ActionButton>();

  constructor(
    readonly el: HTMLElement,
    private readonly runner: ActionRunner,
  ) {}

  update(actions: readonly { actionId: string; label: string }[], stale: boolean): void {
    const next = new Map<string, ActionButton>();
    actions.forEach((a, i) => {
      const b = this.buttons.get(a.actionId) ?? this.runner.button(a.actionId);
      this.runner.patch(b, a.label, stale);
      next.set(a.actionId, b);
      placeAt(this.el, b, i);
    });
    for (const [id, b] of this.buttons) if (!next.has(id)) b.remove();
    this.buttons = next;
    this.el.hidden = actions.length === 0;
  }
}
