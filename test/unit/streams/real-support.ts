// Shared helpers for tests that run fixture sidecars through the real Sidecar.
import * as path from 'node:path';
import type { PluginSpec } from '../../../src/host/plugins/types';
import type { Capability } from '../../../src/host/plugins/types';

/** Repo root from out/test/unit/<dir>/. */
export const ROOT = path.resolve(__dirname, '../../../..');

export function fixtureSpec(id: string, script: string, args: string[], capabilities: Capability[]): PluginSpec {
  const file = path.join(ROOT, 'test/fixtures', script);
  return {
    id,
    root: path.dirname(file),
    version: '1.0.0',
    manifestPath: path.join(path.dirname(file), 'reasonix-plugin.json'),
    runtime: { command: process.execPath, args: [file, ...args], env: {}, required: false, priority: 0, intercepts: [], replaces: [], capabilities, timeoutMillis: 0 },
    source: 'linked',
  };
}

/** Awaits a condition (checked on every timer tick), failing with `what` after `ms`. */
export async function until<T>(probe: () => T | undefined | false, what: string, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export const SESSION = { sessionId: 'boot-1', workspaceRoot: ROOT, generation: 1 };
