// Strict decoding of a manifest's `runtime` block (HOST_SPEC §10, HOST_SPEC_V2 §10.2). Written as
// code rather than a schema so that every defect reads as one sentence naming the file and the
// field, and so that all defects are reported at once instead of the first one only. What the two
// plugin API versions allow differs only in the Contract they pass (its runtime members, its
// capabilities, whether it has tools).
import * as path from 'node:path';
import { INTERCEPT_EVENTS, MANIFEST_MEMBERS, MANIFEST_RULES, type ManifestRules } from '../../protocol';
import { commandProblem, nulProblem } from './commandRules';
import type { Capability, RuntimeBlock, ToolDecl } from './types';
import { slotProblem } from './slots';

export const PLUGIN_ROOT_VAR = '${REASONIX_PLUGIN_ROOT}';

export type RuntimeDecode = { ok: true; runtime: RuntimeBlock; warnings: string[] } | { ok: false; problems: string[] };

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

/** Collects the defects of one block; every step below reports through it. */
class Reader {
  readonly problems: string[] = [];
  constructor(
    readonly raw: Record<string, unknown>,
    readonly file: string,
  ) {}
  bad(field: string, msg: string): void {
    this.problems.push(`${this.file}: runtime.${field} ${msg}`);
  }
  boolean(field: string): boolean {
    const v = this.raw[field];
    if (v === undefined) return false;
    if (typeof v !== 'boolean') this.bad(field, `must be true or false (got ${show(v)})`);
    return v === true;
  }
  /** A list of strings each passing `check` (undefined = fine). */
  list(field: string, check: (s: string) => string | undefined): string[] {
    const v = this.raw[field];
    if (v === undefined) return [];
    if (!Array.isArray(v)) {
      this.bad(field, `must be an array of strings (got ${show(v)})`);
      return [];
    }
    const out: string[] = [];
    v.forEach((item, i) => {
      const why = typeof item === 'string' ? check(item) : `must be a string (got ${show(item)})`;
      if (why) this.bad(`${field}[${i}]`, why);
      else out.push(item as string);
    });
    return out;
  }
}

function decodeCommand(r: Reader, root: string): { command: string; args: string[] } {
  const raw = r.raw;
  let command = '';
  if (typeof raw.command !== 'string' || raw.command.trim() === '') {
    r.bad(
      'command',
      raw.command === undefined ? 'is required' : `must be a non-empty string (got ${show(raw.command)})`,
    );
  } else {
    command = raw.command;
  }
  const args: string[] = [];
  if (raw.args !== undefined) {
    if (!Array.isArray(raw.args)) r.bad('args', `must be an array of strings (got ${show(raw.args)})`);
    else
      raw.args.forEach((a, i) => {
        if (typeof a !== 'string' || a.trim() === '')
          r.bad(`args[${i}]`, `must be a non-blank string (got ${show(a)})`);
        else if (nulProblem(a)) r.bad(`args[${i}]`, `${nulProblem(a)} (got ${show(a)})`);
        else args.push(a);
      });
  }
  if (command) {
    // The exec-form rules (absolute, no shell by name or through env, no batch file on Windows).
    const expanded = expandCommand(command, root);
    if (!expanded.includes('\0') && !path.isAbsolute(expanded)) {
      r.bad('command', `must be absolute after ${PLUGIN_ROOT_VAR} expansion (got ${show(command)})`);
    } else {
      const problem = commandProblem(expanded, args, undefined, show(command));
      if (problem) r.bad('command', problem);
    }
  }
  return { command, args };
}

function decodeEnv(r: Reader): Record<string, string> {
  const env: Record<string, string> = {};
  const raw = r.raw.env;
  if (raw === undefined) return env;
  if (!isRecord(raw)) {
    r.bad('env', `must be an object of string values (got ${show(raw)})`);
    return env;
  }
  for (const [k, v] of Object.entries(raw)) {
    if (k.trim() === '') r.bad('env', 'has a blank key');
    else if (typeof v !== 'string') r.bad(`env.${k}`, `must be a string (got ${show(v)})`);
    else if (nulProblem(k + v)) r.bad(`env.${k}`, 'must not contain a NUL byte');
    else env[k] = v;
  }
  return env;
}

function decodeInteger(r: Reader, field: string, min: number, max: number, what: string): number {
  const v = r.raw[field];
  if (v === undefined) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    r.bad(field, `must be ${what} (got ${show(v)})`);
    return 0;
  }
  return v;
}

const TOOL_KEYS: readonly string[] = MANIFEST_MEMBERS.v2.toolKeys;
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** `runtime.tools[]` (HOST_SPEC_V2 §10.2, our policy for its members). */
function decodeTools(r: Reader): ToolDecl[] {
  const raw = r.raw.tools;
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    r.bad('tools', `must be an array of {name, description, inputSchema, readOnly?, anchorsView?} (got ${show(raw)})`);
    return [];
  }
  const out: ToolDecl[] = [];
  const names = new Set<string>();
  raw.forEach((t, i) => {
    const at = `tools[${i}]`;
    if (!isRecord(t)) return r.bad(at, `must be an object (got ${show(t)})`);
    const before = r.problems.length;
    for (const k of Object.keys(t))
      if (!TOOL_KEYS.includes(k)) r.bad(`${at}.${k}`, `is not a known tool member (known: ${TOOL_KEYS.join(', ')})`);
    const name = t.name;
    if (typeof name !== 'string' || !TOOL_NAME.test(name))
      r.bad(`${at}.name`, `must match ${TOOL_NAME.source} (got ${show(name)})`);
    else if (names.has(name)) r.bad(`${at}.name`, `"${name}" is declared twice`);
    if (typeof t.description !== 'string' || t.description.trim() === '')
      r.bad(`${at}.description`, 'must be a non-blank string');
    if (!isRecord(t.inputSchema) || t.inputSchema.type !== 'object')
      r.bad(`${at}.inputSchema`, `must be a JSON Schema object with "type": "object" (got ${show(t.inputSchema)})`);
    if (t.readOnly !== undefined && typeof t.readOnly !== 'boolean')
      r.bad(`${at}.readOnly`, `must be true or false (got ${show(t.readOnly)})`);
    if (t.anchorsView !== undefined && typeof t.anchorsView !== 'boolean')
      r.bad(`${at}.anchorsView`, `must be true or false (got ${show(t.anchorsView)})`);
    if (r.problems.length > before) return;
    names.add(name as string);
    out.push({
      name: name as string,
      description: t.description as string,
      inputSchema: t.inputSchema as Record<string, unknown>,
      readOnly: t.readOnly === true,
      ...(t.anchorsView === true ? { anchorsView: true } : {}),
    });
  });
  return out;
}

/**
 * Decodes `raw` (the value of `runtime`) for the package at `root` under `contract`; `file` names the
 * manifest in messages. Defaults: args [], env {}, required false, priority 0, lists [],
 * timeoutMillis 0, tools [].
 */
export function decodeRuntimeBlock(
  raw: unknown,
  file: string,
  root: string,
  contract: ManifestRules = MANIFEST_RULES[1],
): RuntimeDecode {
  if (!isRecord(raw)) return { ok: false, problems: [`${file}: runtime must be an object (got ${show(raw)})`] };
  const r = new Reader(raw, file);
  const keys = contract.manifest.runtimeKeys;
  for (const key of Object.keys(raw)) {
    if (!keys.includes(key))
      r.problems.push(`${file}: runtime.${key} is not a known runtime field (known: ${keys.join(', ')})`);
  }
  const { command, args } = decodeCommand(r, root);
  const env = decodeEnv(r);
  const required = r.boolean('required');
  const priority = decodeInteger(r, 'priority', -1000, 1000, 'an integer in -1000..1000');
  const intercepts = r.list('intercepts', (s) =>
    (INTERCEPT_EVENTS as readonly string[]).includes(s)
      ? undefined
      : `"${s}" is not an intercept point (known: ${INTERCEPT_EVENTS.join(', ')})`,
  );
  const replaces = r.list('replaces', slotProblem);
  const capabilities = r.list('capabilities', (s) =>
    (contract.capabilities as readonly string[]).includes(s)
      ? undefined
      : `"${s}" is not a capability (known: ${contract.capabilities.join(', ')})`,
  ) as Capability[];
  const timeoutMillis = decodeInteger(r, 'timeoutMillis', 0, Number.MAX_SAFE_INTEGER, 'a non-negative integer');
  const tools = contract.features.tools ? decodeTools(r) : [];

  if (r.problems.length) return { ok: false, problems: r.problems };
  const warnings =
    tools.length && !capabilities.includes('tools')
      ? [
          `${file}: runtime.tools declares ${tools.length} tool(s) but runtime.capabilities lacks "tools"; the sidecar may not serve them`,
        ]
      : [];
  const runtime: RuntimeBlock = {
    command,
    args,
    env,
    required,
    priority,
    intercepts,
    replaces,
    capabilities,
    timeoutMillis,
    tools,
  };
  return { ok: true, runtime, warnings };
}
