// Strict decoding of a v1 manifest's `runtime` block (HOST_SPEC §10). Written as code rather
// than a schema so that every defect reads as one sentence naming the file and the field, and
// so that all defects are reported at once instead of the first one only.
import * as path from 'node:path';
import { INTERCEPT_EVENTS } from '../../protocol';
import { commandProblem, nulProblem } from './commandRules';
import { CAPABILITIES, type Capability, type RuntimeBlock } from './types';
import { slotProblem } from './slots';

export const PLUGIN_ROOT_VAR = '${REASONIX_PLUGIN_ROOT}';

const RUNTIME_KEYS = [
  'command',
  'args',
  'env',
  'required',
  'priority',
  'intercepts',
  'replaces',
  'capabilities',
  'timeoutMillis',
];

export type RuntimeDecode = { ok: true; runtime: RuntimeBlock } | { ok: false; problems: string[] };

/** Replaces the literal `${REASONIX_PLUGIN_ROOT}` prefix (only as a prefix, as the reference does). */
export function expandCommand(command: string, root: string): string {
  return command.startsWith(PLUGIN_ROOT_VAR) ? root + command.slice(PLUGIN_ROOT_VAR.length) : command;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const show = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

/**
 * Decodes `raw` (the value of `runtime`) for the package at `root`; `file` names the manifest in
 * messages. Defaults: args [], env {}, required false, priority 0, lists [], timeoutMillis 0.
 */
export function decodeRuntimeBlock(raw: unknown, file: string, root: string): RuntimeDecode {
  const problems: string[] = [];
  const bad = (field: string, msg: string) => problems.push(`${file}: runtime.${field} ${msg}`);
  if (!isRecord(raw)) return { ok: false, problems: [`${file}: runtime must be an object (got ${show(raw)})`] };

  for (const key of Object.keys(raw)) {
    if (!RUNTIME_KEYS.includes(key))
      problems.push(`${file}: runtime.${key} is not a known runtime field (known: ${RUNTIME_KEYS.join(', ')})`);
  }

  let command = '';
  if (typeof raw.command !== 'string' || raw.command.trim() === '') {
    bad('command', raw.command === undefined ? 'is required' : `must be a non-empty string (got ${show(raw.command)})`);
  } else {
    command = raw.command;
  }

  const args: string[] = [];
  if (raw.args !== undefined) {
    if (!Array.isArray(raw.args)) bad('args', `must be an array of strings (got ${show(raw.args)})`);
    else
      raw.args.forEach((a, i) => {
        if (typeof a !== 'string' || a.trim() === '') bad(`args[${i}]`, `must be a non-blank string (got ${show(a)})`);
        else if (nulProblem(a)) bad(`args[${i}]`, `${nulProblem(a)} (got ${show(a)})`);
        else args.push(a);
      });
  }
  if (command) {
    // The exec-form rules (absolute, no shell by name or through env, no batch file on Windows).
    const expanded = expandCommand(command, root);
    if (!expanded.includes('\0') && !path.isAbsolute(expanded)) {
      bad('command', `must be absolute after ${PLUGIN_ROOT_VAR} expansion (got ${show(command)})`);
    } else {
      const problem = commandProblem(expanded, args, undefined, show(command));
      if (problem) bad('command', problem);
    }
  }

  const env: Record<string, string> = {};
  if (raw.env !== undefined) {
    if (!isRecord(raw.env)) bad('env', `must be an object of string values (got ${show(raw.env)})`);
    else
      for (const [k, v] of Object.entries(raw.env)) {
        if (k.trim() === '') bad('env', 'has a blank key');
        else if (typeof v !== 'string') bad(`env.${k}`, `must be a string (got ${show(v)})`);
        else if (nulProblem(k + v)) bad(`env.${k}`, 'must not contain a NUL byte');
        else env[k] = v;
      }
  }

  let required = false;
  if (raw.required !== undefined) {
    if (typeof raw.required !== 'boolean') bad('required', `must be true or false (got ${show(raw.required)})`);
    else required = raw.required;
  }

  let priority = 0;
  if (raw.priority !== undefined) {
    const p = raw.priority;
    if (typeof p !== 'number' || !Number.isInteger(p) || p < -1000 || p > 1000) {
      bad('priority', `must be an integer in -1000..1000 (got ${show(p)})`);
    } else priority = p;
  }

  const list = (field: string, check: (s: string) => string | undefined): string[] => {
    const v = raw[field];
    if (v === undefined) return [];
    if (!Array.isArray(v)) {
      bad(field, `must be an array of strings (got ${show(v)})`);
      return [];
    }
    const out: string[] = [];
    v.forEach((item, i) => {
      const why = typeof item === 'string' ? check(item) : `must be a string (got ${show(item)})`;
      if (why) bad(`${field}[${i}]`, why);
      else out.push(item as string);
    });
    return out;
  };
  const intercepts = list('intercepts', (s) =>
    (INTERCEPT_EVENTS as readonly string[]).includes(s)
      ? undefined
      : `"${s}" is not an intercept point (known: ${INTERCEPT_EVENTS.join(', ')})`,
  );
  const replaces = list('replaces', slotProblem);
  const capabilities = list('capabilities', (s) =>
    (CAPABILITIES as readonly string[]).includes(s)
      ? undefined
      : `"${s}" is not a capability (known: ${CAPABILITIES.join(', ')})`,
  ) as Capability[];

  let timeoutMillis = 0;
  if (raw.timeoutMillis !== undefined) {
    const t = raw.timeoutMillis;
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 0)
      bad('timeoutMillis', `must be a non-negative integer (got ${show(t)})`);
    else timeoutMillis = t;
  }

  if (problems.length) return { ok: false, problems };
  return {
    ok: true,
    runtime: { command, args, env, required, priority, intercepts, replaces, capabilities, timeoutMillis },
  };
}
