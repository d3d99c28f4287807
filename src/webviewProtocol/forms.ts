// How a form's fields turn into answer values. Shared: the webview uses it to seed controls and
// check required fields, the extension uses it to refuse submissions that don't fit the form.
import type { FieldKind, FormField, FormPayload, FormValues } from '../protocol/surfaces';

/** The questions a prompt asks (one `value` question when it has no fields), shared with the engine. */
export { promptFields } from '../protocol/surfaces';

export type FieldValue = boolean | string | string[];

/** The value a control starts with: the declared default when it fits the kind, else empty. */
export function defaultValue(field: FormField): FieldValue {
  const d = field.default;
  const options = field.options ?? [];
  switch (field.kind) {
    case 'confirm':
      return d === true;
    case 'input':
      return typeof d === 'string' ? d : typeof d === 'number' || typeof d === 'boolean' ? String(d) : '';
    case 'select':
      return typeof d === 'string' && options.includes(d) ? d : '';
    case 'multiselect':
      return Array.isArray(d) ? d.filter((x): x is string => typeof x === 'string' && options.includes(x)) : [];
  }
}

/** Whether a value has the right type for a field kind (and names only offered options). */
export function fitsKind(field: Pick<FormField, 'kind' | 'options'>, v: unknown): v is FieldValue {
  const options = field.options;
  switch (field.kind) {
    case 'confirm':
      return typeof v === 'boolean';
    case 'input':
      return typeof v === 'string';
    case 'select':
      return typeof v === 'string' && (v === '' || !options || options.includes(v));
    case 'multiselect':
      return Array.isArray(v) && v.every((x) => typeof x === 'string' && (!options || options.includes(x)));
  }
}

/** Start values for a form: the user's draft where it still fits the field, else the default. */
export function initialValues(fields: FormField[], draft: FormValues | undefined): FormValues {
  const out: FormValues = {};
  for (const f of fields) {
    const d = draft && Object.prototype.hasOwnProperty.call(draft, f.key) ? draft[f.key] : undefined;
    out[f.key] = d !== undefined && fitsKind(f, d) ? d : defaultValue(f);
  }
  return out;
}

function isEmpty(kind: FieldKind, v: FieldValue | undefined): boolean {
  if (v === undefined) return true;
  if (kind === 'confirm') return false; // false is an answer, not a missing one
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'string' ? v.trim() === '' : false;
}

/** Keys of required fields that have no answer yet. A confirm always has one (true or false). */
export function missingRequired(fields: FormField[], values: FormValues): string[] {
  return fields.filter((f) => f.required && isEmpty(f.kind, values[f.key])).map((f) => f.key);
}

/** Why a submission does not fit the form, or undefined when it does. */
export function checkSubmission(form: FormPayload, values: FormValues): string | undefined {
  const byKey = new Map(form.fields.map((f) => [f.key, f]));
  for (const k of Object.keys(values)) {
    const f = byKey.get(k);
    if (!f) return `the form has no field "${k.slice(0, 64)}"`;
    if (!fitsKind(f, values[k])) return `field "${k.slice(0, 64)}" has a value of the wrong kind`;
  }
  const missing = missingRequired(form.fields, values);
  if (missing.length) return `required field(s) missing: ${missing.slice(0, 5).join(', ')}`;
  return undefined;
}

/** Two field lists have the same shape, so a re-published form can be patched in place. */
export function sameFieldShape(a: FormField[], b: FormField[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((f, i) => {
    const g = b[i];
    return (
      f.key === g.key &&
      f.kind === g.kind &&
      f.label === g.label &&
      !!f.required === !!g.required &&
      JSON.stringify(f.options ?? []) === JSON.stringify(g.options ?? []) &&
      JSON.stringify(f.default) === JSON.stringify(g.default)
    );
  });
}
