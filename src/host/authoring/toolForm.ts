// "Call Tool…" without an agent (issue 42): a tool's input schema as form steps, one a top-level
// property, and each answer turned into the value the schema asks for. Plain data: the VS Code face
// asks each step with an InputBox or a QuickPick.

export interface FormStep {
  name: string;
  /** What the step is asked as: text, a number, true/false, one of a list, or JSON (objects, arrays, anything else). */
  kind: 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';
  required: boolean;
  description?: string;
  /** `enum`: the allowed values (as JSON text for the picker). */
  options?: string[];
  /** The schema's default, as the text to prefill. */
  initial?: string;
}

type Schema = Record<string, unknown>;

/** The steps of `inputSchema` (`type: "object"`): required properties first, then the rest, each in schema order. */
export function formSteps(inputSchema: Schema): FormStep[] {
  const props = (inputSchema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(inputSchema.required) ? (inputSchema.required as string[]) : []);
  const steps = Object.entries(props).map(([name, s]): FormStep => {
    const type = Array.isArray(s.type) ? undefined : (s.type as string | undefined);
    const kind: FormStep['kind'] = Array.isArray(s.enum)
      ? 'enum'
      : type === 'string' || type === 'number' || type === 'integer' || type === 'boolean'
        ? type
        : 'json';
    const step: FormStep = { name, kind, required: required.has(name) };
    if (typeof s.description === 'string') step.description = s.description;
    if (kind === 'enum') step.options = (s.enum as unknown[]).map((v) => JSON.stringify(v));
    if (s.default !== undefined) step.initial = typeof s.default === 'string' ? s.default : JSON.stringify(s.default);
    return step;
  });
  return [...steps.filter((s) => s.required), ...steps.filter((s) => !s.required)];
}

/**
 * The value of an answer, or `{ error }` saying what to type instead. An empty answer to an optional
 * step is `{ skip: true }` (the property is left out).
 */
export function readAnswer(step: FormStep, text: string): { value: unknown } | { skip: true } | { error: string } {
  if (text === '' && step.kind !== 'string') {
    return step.required ? { error: `${step.name} is required` } : { skip: true };
  }
  if (text === '' && !step.required) return { skip: true };
  switch (step.kind) {
    case 'string':
      return { value: text };
    case 'number':
    case 'integer': {
      const n = Number(text);
      if (!Number.isFinite(n) || text.trim() === '') return { error: `${step.name} must be a number` };
      if (step.kind === 'integer' && !Number.isInteger(n)) return { error: `${step.name} must be a whole number` };
      return { value: n };
    }
    case 'boolean':
      return text === 'true'
        ? { value: true }
        : text === 'false'
          ? { value: false }
          : { error: `${step.name}: true or false` };
    case 'enum':
    case 'json':
      try {
        return { value: JSON.parse(text) };
      } catch {
        return { error: `${step.name} must be JSON, e.g. {"key": "value"} or ["a", "b"]` };
      }
  }
}
