// What the session commands (run, fire, models, stream, tools, tool, mcp; check and hook in part)
// share, written once: the options that open a headless session, their --help rows, and the opener.
import { resolve } from 'node:path';
import { resolveReasonixHome } from '../host/plugins';
import type { UiFrontEnd } from '../host/session';
import type { HelpRow, Values } from './args';
import { openHeadlessSession, stderrLogger, type HeadlessSession } from './headless';
import { loadPlugins } from './loadPlugin';

/** --workspace, --json and --verbose, read the same way by every session command. */
export const SESSION_OPTIONS = {
  workspace: { type: 'string' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
} as const;

/** --plugin DIR, repeatable. */
export const PLUGINS_OPTION = { plugin: { type: 'string', multiple: true } } as const;

// The --help rows of the shared options (--json says what it prints, so each command writes its own).
export const WORKSPACE_HELP: HelpRow = [
  '--workspace DIR',
  'the workspace root sent in the session (default: current directory)',
];
export const VERBOSE_HELP: HelpRow = ['--verbose', 'engine log lines on stderr'];
export const PLUGINS_HELP: HelpRow = ['--plugin DIR', 'a plugin folder (repeatable)'];
export const PLUGINS_OR_HOME_HELP: HelpRow = [
  '--plugin DIR',
  'a plugin folder (repeatable); without any, the plugins installed in the\nReasonix home ($REASONIX_HOME, default ~/.reasonix)',
];

/** The --plugin folders given (none when there is none). */
export function pluginsOf(values: Values): string[] {
  return (values.plugin as string[] | undefined) ?? [];
}

/** The --workspace folder, resolved (default: the current directory). */
export function workspaceOf(values: Values): string {
  return resolve(String(values.workspace ?? process.cwd()));
}

/** Without plugin folders, the plugins installed in the Reasonix home run instead. */
export function homeUnless(pluginDirs: readonly string[]): string | undefined {
  return pluginDirs.length ? undefined : resolveReasonixHome();
}

/** The front end of a command that shows no surfaces: notifications dropped, every prompt cancelled. */
export const NO_FRONT_END: UiFrontEnd = { notify: () => {}, prompt: async () => ({ cancelled: true }) };

/**
 * The headless session a session command opens over `pluginDirs`, each folder read first so one
 * that cannot run is a clear error before anything starts; with `orHome` and no folder, over the
 * plugins installed in the Reasonix home.
 */
export async function openSession(
  values: Values,
  pluginDirs: string[],
  opts: { frontEnd?: UiFrontEnd; orHome?: boolean } = {},
): Promise<HeadlessSession> {
  if (pluginDirs.length) await loadPlugins(pluginDirs);
  return openHeadlessSession({
    pluginDirs,
    workspace: workspaceOf(values),
    home: opts.orHome ? homeUnless(pluginDirs) : undefined,
    logger: stderrLogger(values.verbose === true),
    verbose: values.verbose === true,
    frontEnd: opts.frontEnd ?? NO_FRONT_END,
  });
}
