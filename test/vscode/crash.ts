// Killing a sample's sidecar inside the extension host and waiting for what a user sees: the crash
// report (the failure the notification was built from) and the automatic restart. Shared by the
// English and the Chinese in-host suites, which assert on the words.
import type { PluginFailure, PluginInfo, ReasonixApi } from '../../src/vscode/api';
import { waitFor } from '../support/wait';

/** The plugin as the API lists it, when it is running. */
export function running(api: ReasonixApi, id: string): PluginInfo | undefined {
  const p = api.listPlugins().find((x) => x.pluginId === id);
  return p?.state === 'running' ? p : undefined;
}

/** SIGKILLs the running `id`; resolves with its crash report and the restarted plugin. */
export async function crashAndRestart(
  api: ReasonixApi,
  id: string,
): Promise<{ before: PluginInfo; failure: PluginFailure; after: PluginInfo }> {
  const before = running(api, id);
  if (!before?.pid) throw new Error(`${id} is not running with a pid`);
  const failures: PluginFailure[] = [];
  const sub = api.onDidFailPlugin((f) => failures.push(f));
  try {
    process.kill(before.pid, 'SIGKILL');
    const failure = await waitFor(() => failures.find((x) => x.pluginId === id), {
      timeoutMs: 20_000,
      what: `a crash report for ${id}`,
      intervalMs: 50,
    });
    const after = await waitFor(
      () => {
        const p = running(api, id);
        return p && p.pid !== before.pid ? p : undefined;
      },
      { timeoutMs: 20_000, what: `${id} restarted with a new process`, intervalMs: 50 },
    );
    return { before, failure, after };
  } finally {
    sub.dispose();
  }
}
