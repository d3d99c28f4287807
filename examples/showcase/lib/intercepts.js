'use strict';
// Rulings at `tool.before` and `provider.request`. At `tool.before` the host sends
// `{name, arguments}` where `arguments` is the tool's JSON-object arguments as text: a tool named
// rm_rf is refused, and so is any tool whose arguments contain [showcase:block-tool] (a marker,
// so a test can have any real tool refused without refusing it for everyone). At
// `provider.request` it sends `{request}` (the ProviderRequest about to go to a model); a user
// message containing [showcase:block] is refused and [showcase:rewrite] is replaced by
// "(rewritten by showcase)" — markers, so ordinary requests pass untouched. Answers:
//   block    — stop the tool call; `reason` is shown to the user
//   replace  — substitute the payload (the host re-validates it strictly: same members only)
//   continue — let the next interceptor (or the tool) see the payload unchanged

const BLOCKED_TOOL = 'rm_rf';
const REWRITTEN_TOOL = 'echo';
const BLOCK_TOOL_MARKER = '[showcase:block-tool]';

function parseArguments(text) {
  if (text === undefined || text === '') return {};
  try {
    const value = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function toolBefore(payload) {
  if (typeof payload !== 'object' || payload === null) return { decision: 'continue' };
  if (payload.name === BLOCKED_TOOL) {
    return {
      decision: 'block',
      reason: `showcase blocked ${BLOCKED_TOOL}: recursive deletes are not allowed in this workspace`,
    };
  }
  if (typeof payload.arguments === 'string' && payload.arguments.includes(BLOCK_TOOL_MARKER)) {
    return {
      decision: 'block',
      reason: `showcase blocked ${payload.name}: its arguments are marked ${BLOCK_TOOL_MARKER}`,
    };
  }
  if (payload.name === REWRITTEN_TOOL) {
    const args = parseArguments(payload.arguments);
    // Leave arguments we cannot read (or already tagged) alone rather than guess.
    if (!args || args.via === 'showcase') return { decision: 'continue' };
    return {
      decision: 'replace',
      replacement: { ...payload, arguments: JSON.stringify({ ...args, via: 'showcase' }) },
    };
  }
  return { decision: 'continue' };
}

const BLOCK_MARKER = '[showcase:block]';
const REWRITE_MARKER = '[showcase:rewrite]';

function providerRequest(payload) {
  const request = payload && typeof payload === 'object' ? payload.request : undefined;
  if (!request || !Array.isArray(request.messages)) return { decision: 'continue' };
  const userText = (m) => m && m.role === 'user' && typeof m.content === 'string';
  if (request.messages.some((m) => userText(m) && m.content.includes(BLOCK_MARKER))) {
    return { decision: 'block', reason: `showcase blocks model requests marked ${BLOCK_MARKER}` };
  }
  if (!request.messages.some((m) => userText(m) && m.content.includes(REWRITE_MARKER))) return { decision: 'continue' };
  const messages = request.messages.map((m) =>
    userText(m) ? { ...m, content: m.content.split(REWRITE_MARKER).join('(rewritten by showcase)') } : m,
  );
  return { decision: 'replace', replacement: { ...payload, request: { ...request, messages } } };
}

/** The ruling for any intercept point. */
function rule(event, payload) {
  if (event === 'tool.before') return toolBefore(payload);
  if (event === 'provider.request') return providerRequest(payload);
  return { decision: 'continue' };
}

module.exports = { rule };
