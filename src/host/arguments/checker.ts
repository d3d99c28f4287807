// A tool call's arguments checked against the tool's `inputSchema` before they reach the sidecar
// (issue 45 item 7): wrong types, missing required members and extras under
// `additionalProperties: false` are answered to the model with the tool's name and the first
// problems, and the sidecar never sees the call. Every caller of tools passes here (the engine's
// callTool, so MCP, the CLI's `tool` and the VS Code API alike).
//
// ajv compiles each schema once, on the first call of a tool, and the compiled check is kept for as
// long as the manifest's schema object lives (a handshake serves the manifest's declarations, so a
// reload that reads the manifest again compiles again). `$schema` picks the draft: 2020-12 and
// 2019-09 by their URIs, draft-07 otherwise. Formats are not checked (`format` is an annotation
// here, as in most MCP servers). A schema ajv cannot compile (a remote `$ref`, an unknown draft, a
// broken `pattern`) is no reason to take the tool away from the model: its arguments go to the
// sidecar unchecked, as Reasonix sends them, and the problem is logged once and reported by `check`.
//
// This file carries ajv's compiler: the extension loads it as its own bundle on the first tool call
// (dist/tool-arguments.js), so activation does not pay for it.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import { depthPast, MAX_TOOL_ARGUMENT_DEPTH } from '../tools';

/** Problems named in one refusal; the rest are counted. */
export const MAX_ARGUMENT_PROBLEMS = 3;

/** The tool whose arguments are checked, as the checker names it. */
export interface CheckedTool {
  pluginId: string;
  modelName: string;
  inputSchema: Record<string, unknown>;
}

export interface ArgumentCheck {
  /** Why the arguments cannot go to the sidecar, in words for the model; undefined when they can. */
  refusal?: string;
  /** Set when the schema cannot be compiled and the arguments go unchecked: the note to log (once). */
  unchecked?: string;
}

export interface ToolArgumentChecker {
  /**
   * The arguments against MAX_TOOL_ARGUMENT_DEPTH (first, without recursion, so nothing overflows
   * the stack), then against the tool's inputSchema.
   */
  check(tool: CheckedTool, args: Record<string, unknown>): ArgumentCheck;
  /** Undefined when `args` fit the schema (or the schema cannot be compiled), else the readable problems. */
  problems(inputSchema: Record<string, unknown>, args: unknown): string | undefined;
  /** Why ajv cannot compile `inputSchema`, or undefined. */
  schemaProblem(inputSchema: Record<string, unknown>): string | undefined;
}

type Compiled = { validate: ValidateFunction } | { problem: string };

const options = { strict: false, allErrors: true, validateFormats: false, logger: false as const };
let engines: { draft7: Ajv; v2019: Ajv; v2020: Ajv } | undefined;
const compiled = new WeakMap<object, Compiled>();

function engineFor(schema: Record<string, unknown>): Ajv {
  engines ??= { draft7: new Ajv(options), v2019: new Ajv2019(options), v2020: new Ajv2020(options) };
  const uri = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (uri.includes('2020-12')) return engines.v2020;
  if (uri.includes('2019-09')) return engines.v2019;
  return engines.draft7;
}

function compile(schema: Record<string, unknown>): Compiled {
  let c = compiled.get(schema);
  if (!c) {
    try {
      // A schema's own `$id` would be registered with the engine and clash with the next schema of
      // the same `$id` (two plugins, or a reload): each tool's schema is compiled on its own.
      const { $id: _id, ...own } = schema;
      c = { validate: engineFor(schema).compile(own) };
    } catch (err) {
      c = { problem: String((err as Error)?.message ?? err).slice(0, 300) };
    }
    compiled.set(schema, c);
  }
  return c;
}

/** One ajv error as the model reads it: where, then what. */
export function describeArgumentError(e: ErrorObject): string {
  const at = e.instancePath ? `arguments${e.instancePath}` : 'arguments';
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${at}: missing required member "${String(p.missingProperty)}"`;
    case 'additionalProperties':
      return `${at}: member "${String(p.additionalProperty)}" is not allowed`;
    case 'type':
      return `${at}: must be ${String(p.type)}`;
    case 'enum':
      return `${at}: must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${at}: ${e.message ?? `fails ${e.keyword}`}`;
  }
}

export const toolArgumentChecker: ToolArgumentChecker = {
  check(tool, args) {
    if (depthPast(args) !== undefined)
      return {
        refusal: `the arguments of ${tool.modelName} nest more than ${MAX_TOOL_ARGUMENT_DEPTH} levels of objects and arrays, the most the Reasonix host passes to a tool; flatten them`,
      };
    const uncompiled = this.schemaProblem(tool.inputSchema);
    if (uncompiled !== undefined)
      return {
        unchecked: `the input schema of tool ${tool.modelName} (extension ${tool.pluginId}) cannot be compiled (${uncompiled}); its arguments go to the extension unchecked`,
      };
    const problems = this.problems(tool.inputSchema, args);
    if (problems === undefined) return {};
    return {
      refusal: `the arguments of ${tool.modelName} do not match its input schema: ${problems}; call it again with arguments that do`,
    };
  },
  problems(inputSchema, args) {
    const c = compile(inputSchema);
    if ('problem' in c || c.validate(args)) return undefined;
    const errors = c.validate.errors ?? [];
    const shown = errors.slice(0, MAX_ARGUMENT_PROBLEMS).map(describeArgumentError);
    const more = errors.length - shown.length;
    return shown.join('; ') + (more > 0 ? `; and ${more} more` : '');
  },
  schemaProblem(inputSchema) {
    const c = compile(inputSchema);
    return 'problem' in c ? c.problem : undefined;
  },
};
