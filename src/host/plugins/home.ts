// Where Reasonix keeps its per-user state (HOST_SPEC §10): the same place Reasonix itself uses,
// so the plugins this host runs are exactly the ones Reasonix installed.
import * as os from 'node:os';
import * as path from 'node:path';

export function resolveReasonixHome(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  homedir: string = os.homedir(),
): string {
  const explicit = env.REASONIX_HOME;
  if (explicit && explicit.trim()) return explicit;
  if (platform === 'win32') {
    // path.win32 so the result is a Windows path even when computed (or tested) elsewhere.
    const appData = env.APPDATA;
    if (appData && appData.trim()) return path.win32.join(appData, 'reasonix');
    const profile = env.USERPROFILE && env.USERPROFILE.trim() ? env.USERPROFILE : homedir;
    return path.win32.join(profile, 'AppData', 'Roaming', 'reasonix');
  }
  return path.posix.join(homedir, '.reasonix');
}
