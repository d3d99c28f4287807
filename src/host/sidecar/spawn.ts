// Exec-form launch of a plugin runtime (HOST_SPEC §2.1): absolute command after expanding
// ${REASONIX_PLUGIN_ROOT}, never a shell, args verbatim, own process group so the whole tree can
// be killed, identity variables set last so the manifest cannot forge them.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as path from 'node:path';
import type { PluginSpec } from '../plugins/types';

const ROOT_VAR = '${REASONIX_PLUGIN_ROOT}';
const SHELLS = new Set(['sh', 'bash', 'zsh', 'fish', 'dash', 'ksh', 'cmd', 'cmd.exe', 'powershell', 'powershell.exe', 'pwsh', 'pwsh.exe']);

export type CommandCheck = { ok: true; command: string } | { ok: false; message: string };

/** Expands and checks `runtime.command`; nothing is launched when this refuses. */
export function resolveCommand(plugin: PluginSpec): CommandCheck {
  let command = plugin.runtime.command;
  if (command.startsWith(ROOT_VAR)) command = plugin.root + command.slice(ROOT_VAR.length);
  if (!command) return { ok: false, message: 'runtime.command is empty' };
  command = path.normalize(command);
  if (!path.isAbsolute(command)) {
    return { ok: false, message: `runtime.command "${command}" is not an absolute path (no PATH lookup is done)` };
  }
  const base = path.basename(command).toLowerCase();
  if (SHELLS.has(base)) return { ok: false, message: `runtime.command "${command}" is a shell, which is not allowed` };
  return { ok: true, command };
}

/** The child environment: inherited, then the manifest's, then the host's identity variables. */
export function childEnv(plugin: PluginSpec): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...plugin.runtime.env,
    REASONIX_PLUGIN_ROOT: plugin.root,
    REASONIX_PLUGIN_NAME: plugin.id,
    REASONIX_PLUGIN_VERSION: plugin.version,
  };
}

export function launch(plugin: PluginSpec, command: string): ChildProcessWithoutNullStreams {
  return spawn(command, plugin.runtime.args, {
    cwd: plugin.root,
    env: childEnv(plugin),
    shell: false,
    windowsHide: true,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** SIGKILL to the child's process group (POSIX), falling back to the child alone. */
export function killTree(child: ChildProcessWithoutNullStreams): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (process.platform !== 'win32') {
    try {
      process.kill(-pid, 'SIGKILL');
      return;
    } catch {
      // group already gone; fall through for the leader alone
    }
  }
  try {
    child.kill('SIGKILL');
  } catch {
    // already exited
  }
}
