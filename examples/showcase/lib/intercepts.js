'use strict';
// Rulings at `tool.before`. The host sends `{name, arguments}` where `arguments` is the tool's
// JSON-object arguments as text. Answers:
//   block    — stop the tool call; `reason` is shown to the user
//   replace  — substitute the payload (the host re-validates it strictly: same members only)
//   continue — let the next interceptor (or the tool) see the payload unchanged

const BLOCKED_TOOL = 'rm_rf';
const REWRITTEN_TOOL = 'echo';

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
    return { decision: 'block', reason: `showcase blocked ${BLOCKED_TOOL}: recursive deletes are not allowed in this workspace` };
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

/** The ruling for any intercept point; only tool.before is interesting here. */
function rule(event, payload) {
  return event === 'tool.before' ? toolBefore(payload) : { decision: 'continue' };
}

module.exports = { rule };
