'use strict';
// What the showcase shows: pure functions from its state to `host/ui/publish` payloads.
// The host renders these as native widgets; it never renders HTML from a sidecar, so cards carry
// Markdown (rendered safely), plain text and key/value fields only.

/** The actions declared in the handshake. Card buttons may only reference these ids. */
const ACTIONS = [
  { actionId: 'refresh', label: 'Refresh' },
  { actionId: 'pick-theme', label: 'Pick a theme…' },
  { actionId: 'reset-notes', label: 'Reset notes…' },
  { actionId: 'greet', label: 'Say hello' },
];

const THEMES = ['Solarized', 'Monokai', 'High Contrast', 'Paper'];
const MOODS = ['focused', 'curious', 'tired'];
const TAGS = ['bug', 'idea', 'todo', 'docs'];
const RECENT_LIMIT = 10;

/** Inline code that survives backticks inside the text. */
function code(text) {
  const fence = text.includes('`') ? '`` ' : '`';
  return `${fence}${text}${fence.split('').reverse().join('')}`;
}

function indexingStatus(done, total) {
  if (done < total) {
    const pct = Math.round((done / total) * 100);
    return {
      label: `Indexing… ${pct}%`,
      detail: 'showcase is walking the workspace',
      severity: 'info',
      progress: done / total,
    };
  }
  return { label: `Indexed ${total} files`, detail: 'showcase is idle', severity: 'info' };
}

function controlsCard(state) {
  return {
    title: 'Showcase',
    markdown: [
      'Everything on this card comes from **one sidecar** speaking the Reasonix Extension Protocol.',
      '',
      '- the buttons run the actions it declared in its handshake',
      '- *Pick a theme…* asks you with a select prompt',
      '- *Reset notes…* asks for confirmation first',
    ].join('\n'),
    // A card field's value must be a string (the host rejects any other type, as Reasonix does).
    fields: [
      { key: 'Theme', value: state.theme },
      { key: 'Actions run', value: String(state.actionsRun) },
      { key: 'Plugin', value: state.pluginId },
      { key: 'Generation', value: String(state.session.generation) },
    ],
    actions: ACTIONS,
  };
}

function recentChangesCard(changes) {
  const card = {
    title: 'Recent changes',
    fields: [
      { key: 'Notifications', value: String(changes.notifications) },
      { key: 'Paths reported', value: String(changes.pathsReported) },
      { key: 'Distinct files', value: String(changes.distinct.size) },
    ],
  };
  if (changes.recent.length === 0) {
    card.text = 'No changes yet. Edit a file in the workspace and it shows up here.';
  } else {
    card.markdown = changes.recent.map((p) => `- ${code(p)}`).join('\n');
  }
  return card;
}

/** What the echo model has served: published after every stream ends (none before the first). */
function modelCard(model) {
  return {
    title: 'Echo model',
    fields: [
      { key: 'Streams', value: String(model.streams) },
      { key: 'Completed', value: String(model.completed) },
      { key: 'Cancelled', value: String(model.cancelled) },
      { key: 'Tool calls', value: String(model.toolCalls) },
      { key: 'Last prompt', value: model.lastPrompt },
    ],
  };
}

function sessionCard(state) {
  const started = state.sessionStart;
  return {
    title: 'Session',
    text: started ? `Session started at ${started.at}` : 'Waiting for the session.start event…',
    fields: [
      { key: 'Session id', value: state.session.sessionId },
      { key: 'Workspace', value: state.session.workspaceRoot },
      ...(started && started.sessionPath ? [{ key: 'Session file', value: started.sessionPath }] : []),
    ],
  };
}

function notesForm() {
  return {
    title: 'Notes',
    message: 'Jot something down. Submitting updates the "Your notes" card.',
    fields: [
      { key: 'title', label: 'Title', kind: 'input', default: '', required: true },
      { key: 'mood', label: 'Mood', kind: 'select', options: MOODS, default: 'focused', required: true },
      { key: 'tags', label: 'Tags', kind: 'multiselect', options: TAGS, default: ['idea'] },
      { key: 'pin', label: 'Pin to the top', kind: 'confirm', default: false },
    ],
  };
}

function notesCard(notes) {
  if (!notes) return { title: 'Your notes', text: 'Nothing saved yet. Fill in the Notes form and submit it.' };
  return {
    title: notes.pin ? '📌 Your notes' : 'Your notes',
    markdown: `**${notes.title.replace(/[*_`\\[\]]/g, '\\$&')}**`,
    fields: [
      { key: 'Mood', value: notes.mood },
      { key: 'Tags', value: notes.tags.length ? notes.tags.join(', ') : '(none)' },
      { key: 'Pinned', value: notes.pin ? 'yes' : 'no' },
      { key: 'Saved at', value: notes.savedAt },
    ],
  };
}

/**
 * Checks a submitted Notes form. Returns the notes, or a string saying what is wrong. Values the
 * user left out fall back to the form's defaults.
 */
function readNotes(values) {
  const title = values.title;
  if (typeof title !== 'string' || title.trim() === '') return 'title is required';
  const mood = values.mood === undefined ? 'focused' : values.mood;
  if (!MOODS.includes(mood)) return `mood must be one of ${MOODS.join(', ')}`;
  const tags = values.tags === undefined ? ['idea'] : values.tags;
  if (!Array.isArray(tags) || !tags.every((t) => TAGS.includes(t)))
    return `tags must be a subset of ${TAGS.join(', ')}`;
  const pin = values.pin === undefined ? false : values.pin;
  if (typeof pin !== 'boolean') return 'pin must be true or false';
  return { title: title.trim(), mood, tags, pin };
}

/**
 * The v2 panel: one place in the side rail, re-published in place whenever something changes
 * (plain text, key/value fields, progress and buttons; no Markdown).
 */
function activityPanel(state) {
  const calls = Object.entries(state.toolCalls);
  const rulings = Object.entries(state.rulings).map(
    ([n, r]) => `${n} ×${r.seen}${r.blocked ? ` (${r.blocked} blocked)` : ''}`,
  );
  const panel = {
    title: 'Showcase activity',
    text: state.indexing ? 'Walking the workspace…' : `Theme ${state.theme}; ${state.actionsRun} action(s) run.`,
    fields: [
      { key: 'Files changed', value: String(state.changes.distinct.size) },
      { key: 'Model streams', value: String(state.model.streams) },
      { key: 'Tool calls', value: calls.length ? calls.map(([n, c]) => `${n} ×${c}`).join(', ') : 'none yet' },
      { key: 'Tool rulings', value: rulings.length ? rulings.join(', ') : 'none yet' },
      { key: 'Latest note', value: state.toolNotes[0] || '(add one with the add_note tool)' },
    ],
    actions: [
      { actionId: 'refresh', label: 'Refresh' },
      { actionId: 'pick-theme', label: 'Pick a theme…' },
    ],
  };
  if (state.indexing) panel.progress = state.indexing.done / state.indexing.total;
  return panel;
}

/** The v2 view: composed from the host's primitives, tone as meaning (ok, warn, dim…). */
function dashboardView(state) {
  const streams = state.model.streams;
  const cancelled = state.model.cancelled;
  const notes = state.toolNotes.map((n) => ({ kind: 'text', value: `• ${n}` }));
  return {
    body: [
      {
        kind: 'row',
        children: [
          { kind: 'pip', tone: state.indexing ? 'warn' : 'ok' },
          { kind: 'text', value: state.indexing ? 'indexing' : 'idle', tone: 'strong' },
          { kind: 'text', value: `generation ${state.session.generation}`, tone: 'dim' },
        ],
      },
      { kind: 'meter', progress: state.indexing ? state.indexing.done / state.indexing.total : 1, label: 'Index' },
      { kind: 'divider' },
      {
        kind: 'stack',
        children: [
          { kind: 'kv', key: 'Streams', value: String(streams) },
          { kind: 'kv', key: 'Cancelled', value: String(cancelled) },
          { kind: 'kv', key: 'Files changed', value: String(state.changes.distinct.size) },
        ],
      },
      ...(notes.length ? [{ kind: 'divider' }, { kind: 'stack', children: notes }] : []),
      { kind: 'button', actionId: 'greet', label: 'Say hello' },
    ],
  };
}

module.exports = {
  activityPanel,
  dashboardView,
  modelCard,
  ACTIONS,
  THEMES,
  RECENT_LIMIT,
  indexingStatus,
  controlsCard,
  recentChangesCard,
  sessionCard,
  notesForm,
  notesCard,
  readNotes,
};
