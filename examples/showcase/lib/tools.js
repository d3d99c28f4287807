'use strict';
// The two tools this extension serves (protocol v2 `runtime.tools`): declared in the manifest,
// named again in the handshake result, called with `extension/tool/call {name, arguments,
// timeoutMillis}`. A tool answers `{content, isError?}`: `isError: true` is the tool's own failure
// (the model reads it as an error result); a call it cannot run at all is a JSON-RPC error.

const NOTE_LIMIT = 200;
const KEPT_NOTES = 5;

/** The tool names this sidecar implements; the handshake names those the manifest also declares. */
const IMPLEMENTED = ['count_words', 'add_note'];

function countWords(args) {
  if (typeof args.text !== 'string') return { content: 'count_words needs {"text": "<some text>"}', isError: true };
  const words = args.text.split(/\s+/).filter(Boolean);
  const longest = words.reduce((a, w) => (w.length > a.length ? w : a), '');
  return {
    content: `${words.length} word${words.length === 1 ? '' : 's'}${longest ? `; the longest is "${longest}"` : ''}`,
  };
}

function addNote(args, state) {
  const text = typeof args.text === 'string' ? args.text.trim() : '';
  if (!text) return { content: 'add_note needs {"text": "<the note>"}', isError: true };
  if (text.length > NOTE_LIMIT) return { content: `a note has at most ${NOTE_LIMIT} characters`, isError: true };
  state.toolNotes.unshift(text);
  state.toolNotes.length = Math.min(state.toolNotes.length, KEPT_NOTES);
  state.toolNotesTotal += 1;
  return { content: `noted (${state.toolNotesTotal} note${state.toolNotesTotal === 1 ? '' : 's'} so far)` };
}

/**
 * Runs one call; `undefined` when the name is not ours (the caller answers -32601). `args` is
 * whatever the model sent: anything but an object is the tool's own failure, not a crash.
 */
function runTool(name, args, state) {
  const input = typeof args === 'object' && args !== null && !Array.isArray(args) ? args : {};
  state.toolCalls[name] = (state.toolCalls[name] || 0) + 1;
  if (name === 'count_words') return countWords(input);
  if (name === 'add_note') return addNote(input, state);
  return undefined;
}

module.exports = { IMPLEMENTED, runTool };
