'use strict';
// The showcase sidecar: wires every host feature of protocol v2 to a small piece of state.
// Read top to bottom: handshake, start-up surfaces, observations, intercepts, provider, tools,
// actions, forms, shutdown.

const fs = require('node:fs');
const path = require('node:path');
const { createConnection, RpcError, PROTOCOL_ID, PROTOCOL_MAJOR } = require('./rpc');
const { resolvePayload } = require('./content');
const { rule } = require('./intercepts');
const { EchoProvider } = require('./provider');
const ui = require('./surfaces');
const tools = require('./tools');

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'reasonix-plugin.json'), 'utf8'));

/** What this sidecar would like to receive; trimmed to the installed manifest at handshake. */
const WANTED_POINTS = ['tool.before', 'session.start', 'provider.request'];

function log(msg) {
  // stderr is ours for diagnostics; stdout is protocol only.
  process.stderr.write(`[showcase] ${msg}\n`);
}

function envMillis(name, fallback) {
  const n = Number(process.env[name]);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** Counts workspace files (bounded) so the indexing status has something honest to say. */
function countFiles(root, limit = 5000) {
  let count = 0;
  const dirs = [root];
  while (dirs.length && count < limit) {
    const dir = dirs.pop();
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (e.isDirectory()) {
        if (!['.git', 'node_modules'].includes(e.name)) dirs.push(path.join(dir, e.name));
      } else if (++count >= limit) break;
    }
  }
  return count;
}

function main() {
  const rpc = createConnection({ log });
  // The installed plugin id may differ from the manifest name (installed with --name); provider
  // refs must live under plugin/<installed id>/.
  const pluginId = process.env.REASONIX_PLUGIN_NAME || manifest.name;
  const tickMillis = envMillis('SHOWCASE_TICK_MS', 350);

  const state = {
    pluginId,
    session: undefined, // {sessionId, workspaceRoot, generation} from initialize
    capabilities: [],
    theme: ui.THEMES[0],
    actionsRun: 0,
    sessionStart: undefined,
    notes: undefined,
    changes: { notifications: 0, pathsReported: 0, recent: [], distinct: new Set() },
    indexTimer: undefined,
    notices: 0,
    model: { streams: 0, completed: 0, cancelled: 0, toolCalls: 0, lastPrompt: '' },
    indexing: undefined, // {done, total} while the indexing status counts up
    toolCalls: {}, // tool name → calls served
    rulings: {}, // tool name → {seen, blocked} at tool.before (what an agent's call looks like to an interceptor)
    toolNotes: [], // newest first, what add_note was given
    toolNotesTotal: 0,
  };
  let stopping = false;
  const provider = new EchoProvider({
    pluginId,
    send: (method, params) => rpc.notify(method, params),
    chunkMillis: envMillis('SHOWCASE_CHUNK_MS', 80),
    log,
    onEnd: (end) => {
      const m = state.model;
      m.streams++;
      if (end.cancelled) m.cancelled++;
      else m.completed++;
      if (end.toolCall) m.toolCalls++;
      m.lastPrompt = end.prompt.length > 120 ? `${end.prompt.slice(0, 117)}...` : end.prompt;
      if (!stopping) {
        publish('card', 'model', ui.modelCard(m));
        showLive();
      }
    },
  });

  // ---- talking to the host -------------------------------------------------------------------

  // Publishes go out one at a time so re-publishes of a surface arrive in order.
  let publishing = Promise.resolve();
  function publish(kind, surfaceId, payload) {
    const { sessionId, generation } = state.session;
    publishing = publishing
      .then(() => rpc.request('host/ui/publish', { surfaceId, sessionId, generation, kind, payload }))
      .then((r) => {
        // accepted:false means we are stale (the host moved to a newer generation): not an error.
        if (!r || r.accepted !== true) log(`publish ${surfaceId} not accepted`);
      })
      .catch((err) => log(`publish ${surfaceId} failed: ${err.message}`));
    return publishing;
  }

  function notify(title, body, severity = 'info') {
    state.notices += 1;
    return publish('notification', `notice-${state.notices}`, { title, body, severity });
  }

  /** Asks the user; resolves with `{cancelled, values?}`. */
  function ask(kind, surfaceId, payload) {
    const { sessionId, generation } = state.session;
    return rpc.request('host/ui/request', { surfaceId, sessionId, generation, kind, payload });
  }

  const showControls = () => publish('card', 'controls', ui.controlsCard(state));
  const showChanges = () => publish('card', 'recent-changes', ui.recentChangesCard(state.changes));
  const showSession = () => publish('card', 'session', ui.sessionCard(state));
  const showNotes = () => publish('card', 'notes-summary', ui.notesCard(state.notes));
  /** The panel and the view: re-published with the same surface ids, so the host updates them in place. */
  const showLive = () => {
    publish('panel', 'activity', ui.activityPanel(state));
    publish('view', 'dashboard', ui.dashboardView(state));
  };

  /** Publishes "Indexing… n%" a few times, then settles on the file count. */
  function startIndexing() {
    clearTimeout(state.indexTimer);
    const total = countFiles(state.session.workspaceRoot);
    const steps = 5;
    const tick = (i) => {
      const done = i >= steps;
      const status = done ? ui.indexingStatus(total, total) : ui.indexingStatus(i, steps);
      state.indexing = done ? undefined : { done: i, total: steps };
      publish('status', 'indexing', status);
      showLive();
      if (!done) state.indexTimer = setTimeout(tick, tickMillis, i + 1);
    };
    tick(0);
    return total;
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  rpc.onRequest('extension/initialize', (params, ctx) => {
    const major = /^\d+$/.test(params.protocolVersion) ? Number(params.protocolVersion) : NaN;
    if (params.protocolId !== PROTOCOL_ID || major !== PROTOCOL_MAJOR) {
      ctx.afterReply(() => rpc.exit(1));
      throw new RpcError('unsupported_version', `this sidecar speaks ${PROTOCOL_ID} (major ${PROTOCOL_MAJOR})`);
    }
    state.session = params.session;
    const expected = params.manifest;
    state.capabilities = expected.capabilities || [];
    // Claim only what the installed manifest declares: anything more fails the handshake with
    // capability_not_declared.
    const intercepts = expected.intercepts || [];
    const result = {
      name: manifest.name,
      version: manifest.version,
      protocolVersion: String(PROTOCOL_MAJOR),
      stateSchemaVersion: 0,
      subscriptions: WANTED_POINTS.filter((p) => intercepts.includes(p)),
    };
    if (state.capabilities.includes('providers')) result.providers = provider.catalog().providers;
    if (state.capabilities.includes('ui')) result.uiActions = ui.ACTIONS;
    // Serve only the tools the installed manifest declares (more fails with capability_not_declared).
    if (state.capabilities.includes('tools'))
      result.tools = tools.IMPLEMENTED.filter((t) => (expected.tools || []).includes(t));
    log(`initialize: session ${state.session.sessionId} generation ${state.session.generation}`);
    return result;
  });

  rpc.onNotification('extension/initialized', () => {
    // Only now may we call the host.
    notify('Showcase is ready', `Running in ${path.basename(state.session.workspaceRoot)}.`);
    showControls();
    showSession();
    showChanges();
    publish('form', 'notes', ui.notesForm());
    showNotes();
    startIndexing();
  });

  rpc.onRequest('extension/shutdown', (_params, ctx) => {
    stopping = true; // streams cancelled below publish nothing any more
    clearTimeout(state.indexTimer);
    provider.cancelAll();
    ctx.afterReply(() => rpc.exit(0));
    return { accepted: true };
  });

  // ---- observations --------------------------------------------------------------------------

  rpc.onNotification('extension/resources/changed', ({ paths }) => {
    const c = state.changes;
    c.notifications += 1;
    c.pathsReported += paths.length;
    for (const p of paths) {
      c.distinct.add(p);
      const at = c.recent.indexOf(p);
      if (at !== -1) c.recent.splice(at, 1);
      c.recent.unshift(p);
    }
    c.recent.length = Math.min(c.recent.length, ui.RECENT_LIMIT);
    showChanges();
  });

  rpc.onNotification('extension/event', async (params) => {
    // session.start is observation-only: it arrives here, never as an intercept.
    if (params.event !== 'session.start') return;
    const payload = await resolvePayload(rpc, params);
    state.sessionStart = {
      at: new Date().toISOString(),
      sessionPath: payload && typeof payload.sessionPath === 'string' ? payload.sessionPath : undefined,
    };
    showSession();
  });

  // ---- intercepts ----------------------------------------------------------------------------

  rpc.onRequest('extension/intercept', async (params) => {
    const payload = await resolvePayload(rpc, params);
    const ruling = rule(params.event, payload);
    if (params.event === 'tool.before' && payload && typeof payload.name === 'string') {
      // Counted so the panel shows how often this interceptor saw each tool: once per call.
      const r = (state.rulings[payload.name] ??= { seen: 0, blocked: 0 });
      r.seen++;
      if (ruling.decision === 'block') r.blocked++;
      if (!stopping) showLive();
    }
    return ruling;
  });

  // ---- provider ------------------------------------------------------------------------------

  rpc.onRequest('extension/provider/catalog', () => provider.catalog());

  rpc.onRequest('extension/provider/stream/open', (params, ctx) => {
    const start = provider.open(params);
    if (!start) return { accepted: false };
    ctx.afterReply(start); // chunks follow the answer
    return { accepted: true };
  });

  rpc.onRequest('extension/provider/stream/cancel', ({ streamId }) => ({ cancelled: provider.cancel(streamId) }));

  // ---- tools ---------------------------------------------------------------------------------

  rpc.onRequest('extension/tool/call', ({ name, arguments: args }) => {
    const out = tools.runTool(name, args, state);
    if (!out) throw new RpcError('unknown_method', `showcase serves no tool named ${name}`);
    showLive();
    return out;
  });

  // ---- actions and forms ---------------------------------------------------------------------

  function isCurrent(params) {
    return params.sessionId === state.session.sessionId && params.generation === state.session.generation;
  }

  const actions = {
    async refresh() {
      const files = startIndexing();
      showControls();
      showChanges();
      showSession();
      showNotes();
      return `Refreshed: ${files} files in the workspace`;
    },
    async 'pick-theme'() {
      const answer = await ask('select', 'pick-theme', {
        title: 'Pick a theme',
        message: 'The Showcase card shows the theme you pick.',
        fields: [{ key: 'theme', label: 'Theme', kind: 'select', options: ui.THEMES, default: state.theme }],
      });
      const picked = answer.cancelled ? undefined : ((answer.values || {}).theme ?? (answer.values || {}).value);
      if (!ui.THEMES.includes(picked)) return 'Theme unchanged';
      state.theme = picked; // the card is re-published once the action finishes
      return `Theme set to ${picked}`;
    },
    async 'reset-notes'() {
      // Empty `fields`: the host asks one yes/no question keyed `value`, labelled by `message`.
      const answer = await ask('confirm', 'reset-notes', {
        title: 'Reset notes',
        message: 'Clear your saved notes?',
        fields: [],
      });
      if (answer.cancelled || (answer.values || {}).value !== true) return 'Notes kept';
      state.notes = undefined;
      showNotes();
      publish('form', 'notes', ui.notesForm());
      return 'Notes cleared';
    },
    async greet(args) {
      const who = args && args.name ? args.name : path.basename(state.session.workspaceRoot);
      return `Hello, ${who}!`;
    },
  };

  rpc.onRequest('extension/ui/action', async (params) => {
    if (!isCurrent(params)) return { accepted: false, message: 'That action came from an older session.' };
    const run = actions[params.actionId];
    if (!run) return { accepted: false, message: `Unknown action ${params.actionId}` };
    const message = await run(params.args);
    state.actionsRun += 1;
    showControls();
    showLive();
    const label = ui.ACTIONS.find((a) => a.actionId === params.actionId).label;
    notify(`Showcase: ${label}`, message);
    return { accepted: true, message };
  });

  rpc.onRequest('extension/ui/submit', (params) => {
    if (!isCurrent(params) || params.surfaceId !== 'notes') return { accepted: false };
    const notes = ui.readNotes(params.values);
    if (typeof notes === 'string') {
      notify('Notes not saved', notes, 'warn');
      return { accepted: false };
    }
    state.notes = { ...notes, savedAt: new Date().toISOString() };
    showNotes();
    notify('Notes saved', notes.title);
    return { accepted: true };
  });

  rpc.start();
  log(`started (pid ${process.pid})`);
}

module.exports = { main };
