// A form (published surface or multi-field prompt) built from @vscode-elements controls.
// Typed values go to the persisted drafts on every edit; a re-publish that keeps the same fields
// only patches title/message, so focus, caret and typed text are untouched.
import { initialValues, missingRequired, sameFieldShape, type FieldValue } from '../../src/webviewProtocol/forms';
import { promptDraftKey, type FormField, type FormValues } from '../../src/webviewProtocol/messages';
import { ResultLine, staleBadge } from './common';
import type { ViewContext } from './context';
import { h, icon, newId, replace } from './h';
import { text } from '../text';

export type FormMode = { kind: 'surface'; key: string } | { kind: 'prompt'; promptId: string };

export interface FormContent {
  title: string;
  message?: string;
  fields: FormField[];
  stale: boolean;
}

interface Control {
  field: FormField;
  row: HTMLElement;
  /** Undefined until the row is materialised (large forms build controls as they scroll in). */
  focusable?: HTMLElement;
  read(): FieldValue;
  setInvalid(invalid: boolean): void;
  materialise(): HTMLElement;
}

/** Fields built at once; the rest wait for the viewport (a select costs tens of ms to build). */
const EAGER_FIELDS = 40;

type Invalidatable = HTMLElement & { invalid: boolean };

export class FormView {
  readonly el: HTMLElement;
  private readonly header = h('header', { class: 'surface-header' });
  private readonly message = h('p', { class: 'form-message', dir: 'auto' });
  private readonly body = h('div', { class: 'form-fields' });
  private readonly buttons = h('div', { class: 'actions' });
  private readonly submitButton = document.createElement('vscode-button');
  private readonly cancelButton: (HTMLElement & { disabled: boolean }) | undefined;
  private readonly result = new ResultLine();
  private fields: FormField[] | undefined;
  private controls: Control[] = [];
  private stale = false;
  private answered = false;
  private submitting = false;
  private readonly draftKey: string;
  private readonly titleId = newId('f');
  private observer: IntersectionObserver | undefined;
  private saveQueued = false;

  constructor(
    private readonly ctx: ViewContext,
    private readonly mode: FormMode,
  ) {
    this.draftKey = mode.kind === 'surface' ? mode.key : promptDraftKey(mode.promptId);
    this.el = h('section', {
      class: `surface form${mode.kind === 'prompt' ? ' prompt' : ''}`,
      role: 'form',
      'aria-labelledby': this.titleId,
    });
    this.submitButton.textContent = text('submit');
    this.submitButton.addEventListener('click', () => this.submit());
    this.buttons.append(this.submitButton);
    if (mode.kind === 'prompt') {
      const cancel = document.createElement('vscode-button');
      cancel.secondary = true;
      cancel.textContent = text('cancel');
      cancel.addEventListener('click', () => this.cancel());
      this.buttons.append(cancel);
      this.cancelButton = cancel;
      this.el.addEventListener('keydown', (e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          this.cancel();
        }
      });
    }
    this.el.append(this.header, this.message, this.body, this.buttons, this.result.el);
  }

  update(c: FormContent): void {
    this.stale = c.stale;
    this.el.classList.toggle('stale', c.stale);
    replace(
      this.header,
      h('h3', { class: 'surface-title', id: this.titleId, dir: 'auto' }, c.title),
      c.stale ? staleBadge() : null,
    );
    this.message.textContent = c.message ?? '';
    this.message.hidden = !c.message;
    if (!this.fields || !sameFieldShape(this.fields, c.fields)) {
      // Values survive a reshaped re-publish for every key that still exists (via the draft).
      if (this.controls.length) this.saveDraft();
      this.build(c.fields, initialValues(c.fields, this.ctx.state.draft(this.draftKey)));
    }
    this.fields = c.fields;
    this.syncButtons();
  }

  values(): FormValues {
    const out: FormValues = {};
    for (const c of this.controls) out[c.field.key] = c.read();
    return out;
  }

  private syncButtons(): void {
    this.submitButton.disabled = this.stale || this.answered;
    if (this.cancelButton) this.cancelButton.disabled = this.answered;
  }

  private saveDraft(): void {
    this.ctx.state.setDraft(this.draftKey, this.values());
  }

  /**
   * Edits (and controls echoing their own initial value) coalesce into one save per task; a
   * timer rather than requestAnimationFrame, which never fires while the view is hidden.
   */
  private queueSave(): void {
    if (this.saveQueued) return;
    this.saveQueued = true;
    setTimeout(() => {
      this.saveQueued = false;
      this.saveDraft();
    }, 0);
  }

  private build(fields: FormField[], values: FormValues): void {
    this.observer?.disconnect();
    this.observer = undefined;
    const frag = document.createDocumentFragment();
    this.controls = fields.map((f, i) => {
      const c = this.control(f, values[f.key]);
      if (i < EAGER_FIELDS) c.materialise();
      frag.appendChild(c.row);
      return c;
    });
    if (fields.length > EAGER_FIELDS) {
      const byRow = new Map(this.controls.map((c) => [c.row, c]));
      const io = new IntersectionObserver(
        (entries) => {
          for (const e of entries) {
            if (!e.isIntersecting) continue;
            io.unobserve(e.target);
            byRow.get(e.target as HTMLElement)?.materialise();
          }
        },
        { rootMargin: '800px 0px' },
      );
      for (const c of this.controls.slice(EAGER_FIELDS)) io.observe(c.row);
      this.observer = io;
    }
    this.body.replaceChildren(frag);
    this.body.hidden = !fields.length;
  }

  private control(field: FormField, initial: FieldValue | undefined): Control {
    const labelText = field.label ?? field.key;
    const row = h('div', { class: `field field-${field.kind} pending`, 'data-field-key': field.key });
    // Until materialised, a row shows its label at the height of a built one (no jump later).
    row.append(h('span', { class: 'pending-label', dir: 'auto' }, labelText));
    const error = h(
      'div',
      { class: 'field-error', id: newId('e'), hidden: true },
      icon('error'),
      ` ${labelText} is required`,
    );
    let pending: FieldValue | undefined = initial;
    let read: (() => FieldValue) | undefined;
    const c: Control = {
      field,
      row,
      read: () =>
        read ? read() : (pending ?? (field.kind === 'confirm' ? false : field.kind === 'multiselect' ? [] : '')),
      setInvalid: (invalid) => {
        row.classList.toggle('invalid', invalid);
        error.hidden = !invalid;
        if (!c.focusable) return;
        if ('invalid' in c.focusable) (c.focusable as Invalidatable).invalid = invalid;
        c.focusable.setAttribute('aria-invalid', String(invalid));
        void inner(c.focusable).then((el) => el?.setAttribute('aria-invalid', String(invalid)));
      },
      materialise: () => {
        if (c.focusable) return c.focusable;
        const built = this.buildControl(field, labelText, pending, error);
        read = built.read;
        pending = undefined;
        c.focusable = built.focusable;
        row.classList.remove('pending');
        row.replaceChildren(...built.nodes, error);
        if (row.classList.contains('invalid')) c.setInvalid(true);
        return built.focusable;
      },
    };
    return c;
  }

  private buildControl(
    field: FormField,
    labelText: string,
    value: FieldValue | undefined,
    error: HTMLElement,
  ): { nodes: HTMLElement[]; focusable: HTMLElement; read: () => FieldValue } {
    const id = newId('c');
    const nodes: HTMLElement[] = [];
    const onEdit = () => {
      this.queueSave();
      if (this.el.querySelector('.field.invalid')) this.markInvalid([]);
    };
    let focusable: HTMLElement;
    let read: () => FieldValue;

    if (field.kind === 'confirm') {
      const cb = document.createElement('vscode-checkbox');
      cb.id = id;
      cb.label = labelText;
      cb.checked = value === true;
      cb.setAttribute('aria-label', labelText);
      read = () => cb.checked;
      focusable = cb;
    } else {
      const label = document.createElement('vscode-label');
      label.htmlFor = id;
      label.required = !!field.required;
      label.append(h('span', { dir: 'auto' }, labelText));
      nodes.push(label);
      if (field.kind === 'input') {
        const tf = document.createElement('vscode-textfield');
        tf.id = id;
        tf.value = typeof value === 'string' ? value : '';
        tf.label = labelText;
        // Not `required`: the element would then match :invalid and paint itself red before the
        // user typed anything. Submit checks required fields and marks them (setInvalid).
        if (field.required) tf.setAttribute('aria-required', 'true');
        tf.setAttribute('aria-label', labelText);
        tf.addEventListener('keydown', (e) => {
          if (e.key === 'Enter' && !e.isComposing) {
            e.preventDefault();
            this.submit();
          }
        });
        read = () => tf.value;
        focusable = tf;
      } else if (field.kind === 'select') {
        const sel = document.createElement('vscode-single-select');
        sel.id = id;
        sel.label = labelText;
        if (field.required) sel.setAttribute('aria-required', 'true');
        sel.setAttribute('aria-label', labelText);
        const current = typeof value === 'string' ? value : '';
        // An empty choice keeps "nothing chosen" representable when there is no default.
        if (current === '') sel.append(option('', '—', true));
        for (const o of field.options ?? []) sel.append(option(o, o, o === current));
        read = () => sel.value;
        focusable = sel;
      } else {
        const ms = document.createElement('vscode-multi-select');
        ms.id = id;
        ms.label = labelText;
        if (field.required) ms.setAttribute('aria-required', 'true');
        ms.setAttribute('aria-label', labelText);
        const chosen = new Set(Array.isArray(value) ? value : []);
        for (const o of field.options ?? []) ms.append(option(o, o, chosen.has(o)));
        read = () => [...ms.value];
        focusable = ms;
      }
    }
    tieDescription(focusable, error, !!field.required && field.kind !== 'confirm');
    focusable.addEventListener('input', onEdit);
    focusable.addEventListener('change', onEdit);
    focusable.dataset.fieldKey = field.key;
    nodes.push(focusable);
    return { nodes, focusable, read };
  }

  private markInvalid(keys: string[]): void {
    const missing = new Set(keys);
    for (const c of this.controls) c.setInvalid(missing.has(c.field.key));
  }

  private submit(): void {
    if (this.stale || this.answered || !this.fields) return;
    const values = this.values();
    const missing = missingRequired(this.fields, values);
    this.markInvalid(missing);
    if (missing.length) {
      const names = this.controls.filter((c) => missing.includes(c.field.key)).map((c) => c.field.label ?? c.field.key);
      this.result.error(
        text(
          names.length > 1 ? 'requiredMany' : 'requiredOne',
          `${names.slice(0, 5).join(', ')}${names.length > 5 ? '…' : ''}`,
        ),
      );
      const first = this.controls.find((c) => missing.includes(c.field.key));
      if (first) {
        first.row.scrollIntoView({ block: 'nearest' });
        first.materialise().focus();
      }
      return;
    }
    if (this.mode.kind === 'prompt') {
      this.answered = true;
      this.syncButtons();
      this.result.busy(text('answerSent'));
      this.ctx.post({ type: 'answerPrompt', promptId: this.mode.promptId, answer: { cancelled: false, values } });
      return;
    }
    if (this.submitting) return;
    const requestId = newId('s');
    // Not disabled while waiting: a disabled button would drop the keyboard focus.
    this.submitting = true;
    this.submitButton.setAttribute('aria-busy', 'true');
    this.result.busy(text('submitting'));
    this.ctx.expect(requestId, (r) => {
      this.submitting = false;
      this.submitButton.removeAttribute('aria-busy');
      if (r.accepted) this.result.ok(r.message ? text('submittedWith', r.message) : text('submitted'));
      else this.result.error(r.message ? text('rejectedWith', r.message) : text('rejected'));
    });
    this.ctx.post({ type: 'submit', requestId, key: this.mode.key, values });
  }

  private cancel(): void {
    if (this.mode.kind !== 'prompt' || this.answered) return;
    this.answered = true;
    this.syncButtons();
    this.result.busy(text('cancelled'));
    this.ctx.post({ type: 'answerPrompt', promptId: this.mode.promptId, answer: { cancelled: true } });
  }
}

function option(value: string, text: string, selected: boolean): HTMLElement {
  const o = document.createElement('vscode-option');
  o.value = value;
  o.textContent = text;
  if (selected) o.selected = true;
  return o;
}

type LitLike = HTMLElement & { updateComplete?: Promise<unknown> };

/** The element inside a control's shadow root that takes focus (input, combobox), once rendered. */
async function inner(host: HTMLElement): Promise<HTMLElement | null> {
  await (host as LitLike).updateComplete;
  return host.shadowRoot?.querySelector<HTMLElement>('input, [role="combobox"]') ?? null;
}

/**
 * Ties the field's error message to its control and says "required" where focus lands. The
 * host carries aria-describedby / aria-required (light DOM, so the id reference resolves); the
 * focused element lives in the control's shadow root, where an id reference to the page cannot
 * resolve, so it gets the error element by reference (ariaDescribedByElements, where the browser
 * has it) and aria-required itself.
 */
function tieDescription(host: HTMLElement, error: HTMLElement, required: boolean): void {
  host.setAttribute('aria-describedby', error.id);
  if (required) host.setAttribute('aria-required', 'true');
  void inner(host).then((el) => {
    if (!el) return;
    if (required) el.setAttribute('aria-required', 'true');
    if ('ariaDescribedByElements' in el)
      (el as HTMLElement & { ariaDescribedByElements: Element[] }).ariaDescribedByElements = [error];
  });
}
