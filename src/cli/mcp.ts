// `reasonix-host mcp`: a stdio MCP server over the tools Reasonix v2 extensions serve, for any MCP
// client (Claude Code, Cursor, Codex, the MCP Inspector, VS Code). When a VS Code window with this
// extension serves the folder, the process relays its stdio to that window's private endpoint and
// the window's running extensions answer (nothing is started twice; VS Code's own MCP definition
// runs it this way with --window). Otherwise, or with --headless / --plugin, it starts the plugins
// for its lifetime and stops them when the client closes stdin or the process is signalled.
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { Transform } from 'node:stream';
import { dirname, join } from 'node:path';
import {
  hooksDirs,
  locateWindow,
  MAX_REQUEST_BYTES,
  measureLines,
  openChannel,
  type LocatedWindow,
} from '../host/endpoint';
import { optionLines, parseOrHelp, UsageError, type Values } from './args';
import { pluginsOf, VERBOSE_HELP, WORKSPACE_HELP, workspaceOf } from './sessionOptions';
import { openToolSession, TOOL_SESSION_OPTIONS } from './tools';
import { term } from './terminal';

export const MCP_HELP = `Usage: reasonix-host mcp [--workspace DIR] [--plugin DIR]... [--headless] [--window ID] [--verbose]

A Model Context Protocol server on stdio over the tools Reasonix extensions serve (protocol v2
runtime.tools). Each tool is listed as ext__<plugin>__<tool> with its description, input schema and
read-only hint, and every call passes the folder's tool.before / permission.decision / tool.after
interceptors first, as Reasonix does. A tool's own failure is an MCP tool error; a refusal is a tool
error carrying the interceptor's reason; a call that could not run (the extension crashed, timed
out, answered badly) is an MCP error naming the extension. The tool list follows the extensions
(notifications/tools/list_changed).

Where the extensions run: when a VS Code window with the Reasonix extension host has the workspace
open, that window's running extensions serve the calls (this process only relays); otherwise the
plugins are started here for the server's lifetime.

${optionLines([
  WORKSPACE_HELP,
  ['--plugin DIR', 'a plugin folder to start here (repeatable); implies --headless'],
  [
    '--headless',
    'start the plugins installed in the Reasonix home ($REASONIX_HOME, default\n~/.reasonix) here, even when a VS Code window serves the folder',
  ],
  [
    '--window ID',
    "the VS Code window with this id (what VS Code's own definition passes); when it\nis gone (reloaded), the window that serves the folder next, waited for up to\n30 s; fails when none does",
  ],
  [VERBOSE_HELP[0], `${VERBOSE_HELP[1]} (stdout carries MCP only)`],
])}

Add it to an MCP client, e.g. Claude Code:
  claude mcp add reasonix -- npx reasonix-host mcp --workspace "$PWD"

Exit status: 0 when the client closed the connection, 1 the plugins could not start, the window
could not be reached or closed the connection first, or the client sent a line over 32 MiB;
2 usage error.`;

/** The version MCP clients see in serverInfo: the package's own (dist/ or out/src/ sit below it). */
function packageVersion(): string {
  for (let dir = __dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name && PACKAGE_NAMES.includes(pkg.name) && pkg.version) return pkg.version;
    } catch {
      // not here: look one level up
    }
  }
  return 'unknown';
}
/** The extension's package, and the CLI's own npm package (scripts/pack-cli.mjs). */
const PACKAGE_NAMES = ['reasonix-vscode-host', 'reasonix-host'];

/** How long a window has to take the connection. */
const OPEN_TIMEOUT_MS = 10_000;
/**
 * How long `--window` waits for a window serving the folder when the named one is gone: after a
 * window reload VS Code starts the server from its cached definition (the old id) before the new
 * window's extension is up, and the cards of the reopened transcript read through it (issue 41).
 * REASONIX_MCP_WINDOW_WAIT_MS shortens it (the tests).
 */
function windowWaitMs(): number {
  const v = Number(process.env.REASONIX_MCP_WINDOW_WAIT_MS);
  return Number.isFinite(v) && v >= 0 ? v : 30_000;
}

export const MCP_OPTIONS = {
  ...TOOL_SESSION_OPTIONS,
  headless: { type: 'boolean' },
  window: { type: 'string' },
} as const;

export async function mcpCommand(argv: string[]): Promise<number> {
  // --json is parsed only to be refused with a clear message.
  const parsed = parseOrHelp(argv, MCP_OPTIONS, MCP_HELP);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  if (values.json) throw new UsageError('mcp speaks MCP on stdout; --json does not apply');
  if (positionals.length) throw new UsageError('mcp takes no positional arguments (use --plugin DIR)');
  const plugins = pluginsOf(values);
  const windowId = values.window as string | undefined;
  if (windowId !== undefined && (plugins.length || values.headless))
    throw new UsageError('--window relays to a VS Code window; it does not go with --plugin or --headless');
  if (plugins.length || values.headless) return serveHeadless(values);
  const workspace = workspaceOf(values);
  const notes: string[] = [];
  const hit = locateWindow(hooksDirs(), workspace, notes, windowId);
  if (values.verbose) for (const n of notes) process.stderr.write(`reasonix-host mcp: ${term(n)}\n`);
  if (hit) return relay(hit, workspace);
  if (windowId !== undefined) {
    // The named window is gone (a reload): the window that serves the folder now, or next.
    const next = await nextWindow(workspace, windowId);
    if (next) return relay(next, workspace);
    process.stderr.write(
      `reasonix-host mcp: the VS Code window ${term(windowId)} is not open any more, or does not serve ${term(workspace)}, and no other window served it within ${windowWaitMs() / 1000} s; restart the server from VS Code (MCP: List Servers)\n`,
    );
    return 1;
  }
  return serveHeadless(values);
}

/** A window serving `workspace` (the named one if it comes back), polled until windowWaitMs has passed. */
async function nextWindow(workspace: string, windowId: string): Promise<LocatedWindow | undefined> {
  const until = Date.now() + windowWaitMs();
  for (;;) {
    const hit = locateWindow(hooksDirs(), workspace, [], windowId) ?? locateWindow(hooksDirs(), workspace, []);
    if (hit && !hit.unreachable) {
      if (hit.record.id !== windowId)
        process.stderr.write(
          `reasonix-host mcp: the VS Code window ${term(windowId)} is gone; relaying to window ${term(hit.record.id)}, which serves ${term(hit.folder)}\n`,
        );
      return hit;
    }
    if (Date.now() >= until) return undefined;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Relays stdio to the window's endpoint until either side closes. */
async function relay(hit: LocatedWindow, workspace: string): Promise<number> {
  const fail = (why: string) => {
    process.stderr.write(
      `reasonix-host mcp: the VS Code window (pid ${hit.record.pid}) serving ${term(hit.folder)} ${term(why)}; use --headless to run the extensions in this process instead\n`,
    );
    return 1;
  };
  if (hit.unreachable) return fail(`cannot be reached: ${hit.unreachable}`);
  let socket: Socket;
  try {
    socket = await openChannel(hit.record.endpoint, hit.record.token, 'mcp', { folder: workspace }, OPEN_TIMEOUT_MS);
  } catch (err) {
    return fail(`did not take the connection: ${(err as Error).message}`);
  }
  process.stderr.write(
    `reasonix-host mcp: serving the tools of ${term(hit.folder)} from the VS Code window (pid ${hit.record.pid})\n`,
  );
  // Lines are bounded as the window bounds them: one past it is said here, by name, instead of
  // the window closing the connection on it.
  const clientEnded = { value: false };
  let oversize = false;
  let pending = 0;
  const guard = new Transform({
    transform(chunk: Buffer, _enc, next) {
      const m = measureLines(pending, chunk);
      pending = m.pending;
      if (m.longest > MAX_REQUEST_BYTES) {
        oversize = true;
        socket.destroy();
        return next();
      }
      next(null, chunk);
    },
  });
  process.stdin.once('end', () => (clientEnded.value = true));
  await new Promise<void>((done) => {
    socket.on('error', () => done());
    socket.once('close', () => done());
    process.stdin.pipe(guard).pipe(socket);
    socket.pipe(process.stdout);
    // The client closed the pipe it reads us from (EPIPE): end the relay quietly, no crash trace.
    // Nobody reads answers any more, so nothing is left to relay: destroy (an end would wait for the
    // window's end, which the socket, unpiped from stdout and so paused, would never read).
    process.stdout.on('error', () => {
      clientEnded.value = true;
      socket.destroy();
    });
    socket.resume();
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
      process.once(sig, () => {
        clientEnded.value = true;
        socket.end();
      });
  });
  process.stdin.unpipe(guard);
  process.stdin.pause();
  if (oversize) {
    process.stderr.write(
      `reasonix-host mcp: the MCP client sent a line longer than ${MAX_REQUEST_BYTES / 1048576} MiB (each MCP message is one line, bounded like the window's requests); connection closed\n`,
    );
    return 1;
  }
  if (!clientEnded.value)
    return fail('closed the connection (the window was closed or reloaded, or the extension stopped)');
  return 0;
}

/** Starts the plugins here and serves them on stdio (the MCP SDK is loaded only for this). */
async function serveHeadless(values: Values): Promise<number> {
  const { anchoredViews, createToolServer, McpStdioTransport } = await import('../host/mcp');
  const s = await openToolSession(values);
  try {
    await s.engine.start();
    // Views anchored to a call show on its card for clients that draw MCP Apps (issue 41).
    const views = anchoredViews(s.store, () => ({
      sessionKey: s.workspace,
      invokeAction: (p, a) => s.engine.invokeAction(p, a),
    }));
    const handle = createToolServer(
      {
        tools: () => s.engine.tools(),
        callTool: (name, args, opts) => s.engine.callTool(name, args, opts),
        onDidChangeTools: (l) => s.engine.onDidChangeTools(l),
        views,
      },
      packageVersion(),
    );
    // Our own stdio wire under the SDK's server (src/host/mcp/stdioTransport.ts): every bad line is
    // answered, an oversize one skipped with a word here, a closed stdout stops the server quietly.
    const transport = new McpStdioTransport(process.stdin, process.stdout, {
      note: (text) => process.stderr.write(`reasonix-host mcp: ${term(text)}\n`),
    });
    const closed = new Promise<void>((done) => {
      transport.onclose = () => done();
      process.stdin.once('end', () => done());
      for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(sig, () => done());
    });
    await handle.server.connect(transport);
    await closed;
    handle.dispose();
    await handle.server.close().catch(() => undefined);
    return 0;
  } finally {
    await s.dispose();
  }
}
