// Exec-form launch of a plugin runtime (HOST_SPEC §2.1): absolute command after expanding
// ${REASONIX_PLUGIN_ROOT}, never a shell, args verbatim, own process group so the whole tree can
// be killed, identity variables set last so the manifest cannot forge them.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { commandProblem, isShell, windowsTreeKill } from '../plugins';
import type { PluginSpec } from '../plugins';
import { killTagged, LAUNCH_TOKEN_VAR, newLaunchToken, processGuard } from './reaper';

const ROOT_VAR = '${REASONIX_PLUGIN_ROOT}';

export type CommandCheck = { ok: true; command: string } | { ok: false; message: string };

/** Expands and checks `runtime.command`; nothing is launched when this refuses. */
export function resolveCommand(plugin: PluginSpec): CommandCheck {
  let command = plugin.runtime.command;
  if (command.startsWith(ROOT_VAR)) command = plugin.root + command.slice(ROOT_VAR.length);
  if (!command) return { ok: false, message: 'runtime.command is empty' };
  if (command.includes('\0')) return { ok: false, message: 'runtime.command must not contain a NUL byte' };
  command = path.normalize(command);
  if (!path.isAbsolute(command)) {
    return { ok: false, message: `runtime.command "${command}" is not an absolute path (no PATH lookup is done)` };
  }
  const problem = commandProblem(command, plugin.runtime.args);
  if (problem) return { ok: false, message: `runtime.command ${problem}` };
  // A symlink is judged by what it points at: bin/notashell → /bin/sh is a shell.
  let real: string;
  try {
    real = realpathSync(command);
  } catch {
    return { ok: true, command }; // a missing file fails at spawn with its own message
  }
  if (real !== command) {
    const through = commandProblem(real, plugin.runtime.args);
    if (through) return { ok: false, message: `runtime.command "${command}" resolves to "${real}": it ${through}` };
  }
  // env running a program through a symlinked shell: judge the launched program's real path too.
  if (path.basename(real).toLowerCase() === 'env') {
    const launched = plugin.runtime.args.find((a) => path.isAbsolute(a));
    if (launched) {
      try {
        const target = realpathSync(launched);
        if (isShell(target))
          return {
            ok: false,
            message: `runtime.command runs a shell through env ("${launched}" resolves to "${target}")`,
          };
      } catch {
        // not a file: nothing to resolve
      }
    }
  }
  return { ok: true, command };
}

/**
 * The child environment: inherited, then the manifest's, then the host's identity variables and
 * the launch token (reaper.ts), so the manifest can forge neither.
 */
export function childEnv(
  plugin: PluginSpec,
  token?: string,
  extra?: Readonly<Record<string, string>>,
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...plugin.runtime.env,
    ...extra,
    REASONIX_PLUGIN_ROOT: plugin.root,
    REASONIX_PLUGIN_NAME: plugin.id,
    REASONIX_PLUGIN_VERSION: plugin.version,
    [LAUNCH_TOKEN_VAR]: token,
  };
}

/** Each launched child's token: what its descendants carry in their environment. */
const tokens = new WeakMap<ChildProcessWithoutNullStreams, string>();

/**
 * A start under a debugger (Debug Extension…, src/host/authoring/debugPlan.ts builds it): the
 * program and arguments launched instead of `runtime.command` and `runtime.args` (the checked
 * command wrapped by its interpreter's debug switch or by a debug server), and variables added to
 * the child's environment before the host's own.
 */
export interface DebugLaunch {
  command: string;
  args: readonly string[];
  env?: Readonly<Record<string, string>>;
}

export function launch(plugin: PluginSpec, command: string, debug?: DebugLaunch): ChildProcessWithoutNullStreams {
  const token = newLaunchToken();
  const child = spawn(debug ? debug.command : command, debug ? [...debug.args] : plugin.runtime.args, {
    cwd: plugin.root,
    env: childEnv(plugin, token, debug?.env),
    shell: false,
    windowsHide: true,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // If this process dies without stopping it, the watchdog (when one is installed) kills its group.
  tokens.set(child, token);
  if (child.pid !== undefined) processGuard()?.add(child.pid, token);
  return child;
}

/**
 * SIGKILL to the child's process group and (Linux) to every process carrying its launch token,
 * which catches descendants that left the group or were reparented; on Windows, where there are
 * no process groups, `taskkill /T /F` ends the whole tree. Falls back to the child alone.
 */
export function killTree(child: ChildProcessWithoutNullStreams): void {
  const pid = child.pid;
  if (pid === undefined) return;
  // Every stop ends here with the group killed: the watchdog must forget the pid (it may be reused).
  processGuard()?.remove(pid);
  if (process.platform !== 'win32') {
    let groupGone = false;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      groupGone = true; // group already gone; the leader alone below
    }
    const token = tokens.get(child);
    if (token) killTagged(fs, `${LAUNCH_TOKEN_VAR}=${token}`);
    if (!groupGone) return;
  } else {
    const { command, args } = windowsTreeKill(pid);
    try {
      spawn(command, args, { windowsHide: true, stdio: 'ignore', shell: false })
        .on('error', () => undefined)
        .unref();
    } catch {
      // taskkill unavailable: the leader alone below
    }
  }
  try {
    child.kill('SIGKILL');
  } catch {
    // already exited
  }
}
