'use strict';
// Strict checks of what the host sends, mirroring the v2 schema (reasonix.extension.v2): unknown
// members, missing required members, `null` where a value is expected and bad enum values are all
// rejected, like the Reasonix SDK does. A request that fails gets -32602 invalid_params; a
// notification that fails is dropped.
//
// A shape is one of:
//   'string' | 'nonempty' | 'int' | 'uint' | 'bool' | 'number' | 'any' | 'object'
//   [shape]                      an array of that shape
//   { enum: [...] }              one of those strings
//   { mapOf: shape }             an object whose values all have that shape
//   { required: {...}, optional: {...} }   an object with exactly these members

const EVENTS = [
  'agent.before_start',
  'compaction.complete',
  'compaction.prepare',
  'context.prepare',
  'frontend.event',
  'input.receive',
  'permission.decision',
  'provider.request',
  'provider.response',
  'session.end',
  'session.load',
  'session.rotate',
  'session.save',
  'session.start',
  'system_prompt.build',
  'tool.after',
  'tool.before',
];

const externalized = [
  { required: { contentRef: 'nonempty', jsonPointer: 'nonempty', sha256: 'string', totalBytes: 'uint' } },
];
const toolCall = {
  required: { arguments: 'string', id: 'nonempty', name: 'nonempty' },
  optional: { thought_signature: 'string' },
};
const providerMessage = {
  optional: {
    content: 'string',
    images: ['string'],
    name: 'string',
    reasoning_content: 'string',
    reasoning_signature: 'string',
    role: { enum: ['assistant', 'system', 'tool', 'user'] },
    tool_call_id: 'string',
    tool_calls: [toolCall],
  },
};
const providerRequest = {
  required: {
    maxTokens: 'uint',
    messages: [providerMessage],
    tools: [{ required: { name: 'nonempty', parameters: 'any' }, optional: { description: 'string' } }],
  },
  optional: { temperature: 'number', responseFormat: { required: { type: 'nonempty' } } },
};

const capabilityRef = {
  required: { namespace: 'nonempty', kind: 'nonempty', id: 'nonempty' },
  optional: { version: 'string', schemaHash: 'string' },
};
const requirementRef = {
  required: capabilityRef.required,
  optional: { ...capabilityRef.optional, versionRange: 'string', optional: 'bool' },
};

/** Params of every host → extension method, as the schema defines them. */
const METHOD_PARAMS = {
  'extension/initialize': {
    required: {
      protocolVersion: 'nonempty',
      protocolId: 'nonempty',
      manifest: {
        optional: {
          intercepts: ['string'],
          replaces: ['string'],
          providers: ['string'],
          uiActions: ['string'],
          capabilities: ['string'],
          tools: ['string'],
          requires: [requirementRef],
          provides: [capabilityRef],
        },
      },
      session: {
        required: { sessionId: 'nonempty', workspaceRoot: 'nonempty', generation: 'int' },
        optional: { epoch: 'string' },
      },
      capabilities: {
        required: {
          contentRefs: 'bool',
          protocolVersion: 'nonempty',
          uiHost: { enum: ['acp', 'desktop', 'headless', 'tui'] },
        },
        optional: { dependencySchemaVersion: 'uint' },
      },
    },
    optional: { dependencySchemaVersion: 'uint' },
  },
  'extension/initialized': {},
  'extension/shutdown': { required: { timeoutMillis: 'uint' } },
  'extension/intercept': {
    required: { event: { enum: EVENTS }, payload: 'any', seq: 'int1', timeoutMillis: 'uint' },
    optional: { externalized },
  },
  'extension/event': { required: { event: { enum: EVENTS }, payload: 'any' }, optional: { externalized } },
  'extension/resources/changed': { required: { paths: ['string'] } },
  'extension/provider/catalog': {},
  'extension/provider/stream/open': {
    required: { streamId: 'nonempty', providerRef: 'nonempty', request: providerRequest, seqBase: 'uint' },
    optional: { model: 'string', effort: 'string', generation: 'int', epoch: 'string' },
  },
  'extension/provider/stream/cancel': { required: { streamId: 'nonempty' } },
  'extension/ui/action': {
    required: { actionId: 'nonempty', generation: 'int', sessionId: 'nonempty' },
    optional: { args: { mapOf: 'string' } },
  },
  'extension/tool/call': { required: { name: 'nonempty', arguments: 'any', timeoutMillis: 'uint' } },
  'extension/ui/submit': {
    required: { generation: 'int', sessionId: 'nonempty', surfaceId: 'nonempty', values: 'object' },
  },
};

function isObject(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Returns a description of the first problem, or undefined when `value` fits `shape`. */
function check(shape, value, at) {
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return `${at}: must be an array`;
    for (let i = 0; i < value.length; i++) {
      const p = check(shape[0], value[i], `${at}/${i}`);
      if (p) return p;
    }
    return undefined;
  }
  if (typeof shape === 'string') {
    const ok = {
      any: () => value !== undefined,
      string: () => typeof value === 'string',
      nonempty: () => typeof value === 'string' && value.length > 0,
      int: () => Number.isInteger(value),
      int1: () => Number.isInteger(value) && value >= 1,
      uint: () => Number.isInteger(value) && value >= 0,
      number: () => typeof value === 'number' && Number.isFinite(value),
      bool: () => typeof value === 'boolean',
      object: () => isObject(value),
    }[shape];
    return ok() ? undefined : `${at}: must be ${shape}`;
  }
  if (shape.enum) return shape.enum.includes(value) ? undefined : `${at}: must be one of ${shape.enum.join(', ')}`;
  if (!isObject(value)) return `${at}: must be an object`;
  if (shape.mapOf) {
    for (const [k, v] of Object.entries(value)) {
      const p = check(shape.mapOf, v, `${at}/${k}`);
      if (p) return p;
    }
    return undefined;
  }
  const required = shape.required || {};
  const optional = shape.optional || {};
  for (const key of Object.keys(required)) {
    if (!(key in value)) return `${at}: missing required member '${key}'`;
  }
  for (const [key, v] of Object.entries(value)) {
    const member = required[key] || optional[key];
    if (!member) return `${at}: unknown member '${key}'`;
    const p = check(member, v, `${at}/${key}`);
    if (p) return p;
  }
  return undefined;
}

/** Checks the params of a host → extension method; methods not listed here are not checked. */
function checkParams(method, params) {
  const shape = METHOD_PARAMS[method];
  return shape ? check(shape, params, 'params') : undefined;
}

module.exports = { checkParams, EVENTS };
